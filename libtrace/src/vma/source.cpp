// SPDX-License-Identifier: MIT
// The lines of a VMA recording: the header, the Config section, and the call
// lines (parsed in vma/line.cpp) into batches.
#include "vma/source.hpp"

#include <string.h>  // memrchr

#include <cstring>

#include "vma/line.hpp"

namespace libtrace::vma::detail {

// The calls' numbers are allocated once, one after the other, for the most
// any function has: a batch is then close to one block of memory, which the
// thread reading it gets from the other core's cache as a stream.
Batch::Batch() : calls(kCalls) {
  for (Call& c : calls) c.num.reserve(24);
}

Source::Source(std::unique_ptr<Decoder> decoder, std::string name, const ReaderOptions& opt)
    : decoder_(std::move(decoder)), name_(std::move(name)), opt_(opt) {
  parse_header();
}

void Source::fail(const std::string& why) const {
  throw Error(Errc::bad_record, name_ + ": line " + std::to_string(line_no_), why);
}

void Source::warn(const std::string& why, bool drops_line) {
  std::string where = name_ + ": line " + std::to_string(line_no_);
  if (batch_) {
    batch_->notes.push_back({batch_->count, std::move(where), why});
    return;
  }
  ++header_warnings_;
  header_dropped_ += drops_line;
  if (opt_.warnings) opt_.warnings(where, why);
}

// Makes [pos_, stop_) of cur_ hold whole lines again, each with its '\n';
// false at the end of the data. Lines are parsed where the decoder put them:
// only a line split between two blocks is copied, into carry_. A last line
// with no line end is what a crashed recorder leaves: it is dropped with a
// warning.
bool Source::refill() {
  if (in_carry_) {
    in_carry_ = false;
    cur_ = reinterpret_cast<const char*>(block_.data());
    pos_ = resume_;
    stop_ = block_stop_;
    if (pos_ < stop_) return true;
  }
  constexpr std::size_t kMaxLine = 64u << 20;
  carry_.assign(reinterpret_cast<const char*>(block_.data()) + block_stop_, block_.size() - block_stop_);
  if (carry_.size() > kMaxLine) fail("line longer than 64 MiB (not a recording?)");
  for (;;) {
    if (eof_ || !decoder_->next(block_)) {
      eof_ = true;
      block_.clear();
      block_stop_ = pos_ = stop_ = 0;
      if (!carry_.empty()) {
        carry_.clear();
        ++line_no_;
        warn("last line has no line end (the recording was cut off); dropped", true);
      }
      return false;
    }
    const char* b = reinterpret_cast<const char*>(block_.data());
    const std::size_t n = block_.size();
    bytes_ += n;
    const char* first = static_cast<const char*>(std::memchr(b, '\n', n));
    if (!first) {
      carry_.append(b, n);
      if (carry_.size() > kMaxLine) fail("line longer than 64 MiB (not a recording?)");
      continue;
    }
    block_stop_ = static_cast<std::size_t>(static_cast<const char*>(::memrchr(b, '\n', n)) + 1 - b);
    if (carry_.empty()) {
      cur_ = b;
      pos_ = 0;
      stop_ = block_stop_;
      return true;
    }
    carry_.append(b, static_cast<std::size_t>(first + 1 - b));
    cur_ = carry_.data();
    pos_ = 0;
    stop_ = carry_.size();
    in_carry_ = true;
    resume_ = static_cast<std::size_t>(first + 1 - b);
    return true;
  }
}

bool Source::next_chunk(Chunk& c) {
  constexpr std::size_t kMaxLine = 64u << 20;
  c.head.clear();
  c.begin = c.end = 0;
  c.data = nullptr;
  c.size = 0;
  c.in_place = false;
  c.last = c.cut_off = c.too_long = false;
  c.error = nullptr;
  if (!chunked_) {
    // The lines the header left: maybe the rest of a carried line, then the
    // rest of the block.
    chunked_ = true;
    if (in_carry_) {
      c.head.assign(cur_ + pos_, stop_ - pos_);
      pos_ = resume_;
      stop_ = block_stop_;
    }
    c.begin = pos_;
    c.end = stop_;
    carry_.assign(reinterpret_cast<const char*>(block_.data()) + block_stop_, block_.size() - block_stop_);
    c.block.swap(block_);
    c.data = reinterpret_cast<const char*>(c.block.data());
    c.size = c.block.size();
    c.bytes = bytes_;
    c.file_offset = decoder_->file_offset();
    c.too_long = carry_.size() > kMaxLine;
    c.last = eof_ = eof_ || c.too_long;
    return true;
  }
  if (eof_) return false;
  const bool in_place = decoder_->in_place();
  for (;;) {
    std::string_view view;
    try {
      if (in_place ? !decoder_->next_view(view) : !decoder_->next(c.block)) {
        c.cut_off = !carry_.empty();
        c.last = eof_ = true;
        return true;
      }
    } catch (...) {
      c.error = std::current_exception();
      c.last = eof_ = true;
      return true;
    }
    if (!in_place) view = std::string_view(reinterpret_cast<const char*>(c.block.data()), c.block.size());
    c.data = view.data();
    c.size = view.size();
    c.in_place = in_place;
    const char* b = view.data();
    const std::size_t n = view.size();
    bytes_ += n;
    c.bytes = bytes_;
    c.file_offset = decoder_->file_offset();
    const char* first = static_cast<const char*>(std::memchr(b, '\n', n));
    if (!first) {
      carry_.append(b, n);
      if (carry_.size() > kMaxLine) {
        c.too_long = c.last = eof_ = true;
        return true;
      }
      continue;
    }
    c.begin = 0;
    if (!carry_.empty()) {
      c.head = carry_;
      c.head.append(b, static_cast<std::size_t>(first + 1 - b));
      c.begin = static_cast<std::size_t>(first + 1 - b);
    }
    c.end = static_cast<std::size_t>(static_cast<const char*>(::memrchr(b, '\n', n)) + 1 - b);
    carry_.assign(b + c.end, n - c.end);
    c.too_long = c.last = eof_ = carry_.size() > kMaxLine;
    return true;
  }
}

// The line at pos_ (there is one) without its line end.
std::string_view Source::take_line() {
  const char* start = cur_ + pos_;
  const char* nl = static_cast<const char*>(std::memchr(start, '\n', stop_ - pos_));
  pos_ = static_cast<std::size_t>(nl + 1 - cur_);
  std::string_view line(start, static_cast<std::size_t>(nl - start));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool Source::read_line(std::string_view& line) {
  if (pos_ == stop_ && !refill()) return false;
  ++line_no_;
  line = take_line();
  return true;
}

void Source::parse_header() {
  std::string_view line;
  if (!read_line(line))
    throw Error(Errc::truncated, name_ + ": line 1",
                bytes_ ? "recording ends inside its first line" : "empty recording");
  if (trim_right(line) != "Vulkan Memory Allocator,Calls recording")
    fail("not a VMA calls recording (first line must be \"Vulkan Memory Allocator,Calls recording\")");
  if (!read_line(line)) throw Error(Errc::truncated, name_ + ": line 2", "recording ends before its version line");
  line = trim_right(line);
  bool more = false;
  std::uint64_t major = 0, minor = 0;
  const std::string_view a = next_field(line, more);
  if (!more || !parse_dec(a, major) || !parse_dec(line, minor)) fail("bad version line (expected \"1,N\")");
  if (major != 1 || minor > 8)
    throw Error(Errc::unsupported, name_ + ": line 2",
                "unsupported recording format version " + std::to_string(major) + "." + std::to_string(minor) +
                    " (trak reads 1.0 to 1.8)");
  header_.version = {1, static_cast<int>(minor)};
  if (header_.version < Version{1, 3}) return;
  if (!read_line(line))
    throw Error(Errc::truncated, name_ + ": line 3",
                "recording ends after its version line, before its Config section");
  if (trim_right(line) != "Config,Begin")
    fail("format 1.3 and later must start with a Config section (\"Config,Begin\")");
  for (;;) {
    if (!read_line(line))
      throw Error(Errc::truncated, name_ + ": line " + std::to_string(line_no_),
                  "recording ends inside the Config section");
    line = trim_right(line);
    if (line == "Config,End") return check_config();
    parse_config_line(line);
  }
}

void Source::parse_config_line(std::string_view line) {
  Config& c = header_.config;
  c.lines.emplace_back(line);
  bool more = false;
  std::string_view rest = line;
  const std::string_view key = next_field(rest, more);
  auto number = [&](std::string_view f) {
    std::uint64_t v = 0;
    if (!parse_dec(f, v)) fail("bad number '" + std::string(f) + "' in the Config section");
    return v;
  };
  if (key == "VulkanApiVersion") {
    c.vulkan_api_version = std::string(rest);
  } else if (key == "PhysicalDevice" || key == "PhysicalDeviceLimits" || key == "Extension" || key == "Macro") {
    const std::string_view name = next_field(rest, more);
    if (!more) fail("Config line has no value: " + std::string(line));
    auto& m = key == "PhysicalDevice"         ? c.physical_device
              : key == "PhysicalDeviceLimits" ? c.limits
              : key == "Extension"            ? c.extensions
                                              : c.macros;
    m[std::string(name)] = std::string(rest);  // deviceName keeps its commas
  } else if (key == "PhysicalDeviceMemory") {
    const std::string_view what = next_field(rest, more);
    if (what == "HeapCount" || what == "TypeCount") {
      const std::uint64_t n = number(rest);
      if (n > 64) fail("implausible " + std::string(what) + " " + std::to_string(n));
      if (what == "HeapCount") {
        c.heaps.resize(n);
        heap_lines_.resize(n);
      } else {
        c.types.resize(n);
        type_lines_.resize(n);
      }
    } else if (what == "Heap" || what == "Type") {
      const std::uint64_t i = number(next_field(rest, more));
      const std::string_view field = next_field(rest, more);
      const std::uint64_t v = number(rest);
      if (what == "Heap") {
        if (i >= c.heaps.size()) fail("heap index " + std::to_string(i) + " beyond HeapCount");
        if (field == "size")
          c.heaps[i].size = v;
        else if (field == "flags")
          c.heaps[i].flags = static_cast<std::uint32_t>(v);
        heap_lines_[i] |= field == "size" ? 1 : field == "flags" ? 2 : 0;
      } else {
        if (i >= c.types.size()) fail("memory type index " + std::to_string(i) + " beyond TypeCount");
        if (field == "heapIndex")
          c.types[i].heap = static_cast<std::uint32_t>(v);
        else if (field == "propertyFlags")
          c.types[i].property_flags = static_cast<std::uint32_t>(v);
        type_lines_[i] |= field == "heapIndex" ? 1 : field == "propertyFlags" ? 2 : 0;
      }
    }
  } else {
    warn("unknown Config option '" + std::string(key) + "' kept as is");
  }
}

// At "Config,End": every memory type on a listed heap (else its bytes would
// count towards no heap), and a warning for each value the section left out
// (taken as 0; VMA's recorder writes them all).
void Source::check_config() {
  const Config& c = header_.config;
  for (std::size_t t = 0; t < c.types.size(); ++t)
    if (c.types[t].heap >= c.heaps.size())
      fail("memory type " + std::to_string(t) + " is on heap " + std::to_string(c.types[t].heap) +
           ", but HeapCount is " + std::to_string(c.heaps.size()));
  auto missing = [&](const char* what, std::size_t i, std::uint8_t seen, const char* first, const char* second) {
    for (const auto& [bit, field] : {std::pair{1, first}, std::pair{2, second}})
      if (!(seen & bit))
        warn(std::string(what) + " " + std::to_string(i) + " has no " + field +
             " line in the Config section; taken as 0");
  };
  for (std::size_t h = 0; h < heap_lines_.size(); ++h) missing("heap", h, heap_lines_[h], "size", "flags");
  for (std::size_t t = 0; t < type_lines_.size(); ++t)
    missing("memory type", t, type_lines_[t], "heapIndex", "propertyFlags");
}

// The next call into `call`; false at the end of the data.
bool Source::next_call(Call& call) {
  for (;;) {
    if (pos_ == stop_ && !refill()) return false;
    ++line_no_;
    if (const char* after = parse_call_fast(cur_ + pos_, cur_ + stop_, header_.version, call)) {
      pos_ = static_cast<std::size_t>(after - cur_);
      call.line = line_no_;
      return true;
    }
    const std::string_view line = take_line();
    if (trim_right(line).empty()) continue;
    if (const auto why = parse_call(line, header_.version, call)) {
      if (!opt_.keep_going) fail(*why);
      warn(*why + "; line skipped", true);
      continue;
    }
    call.line = line_no_;
    return true;
  }
}

void Source::fill(Batch& b) {
  b.count = 0;
  b.notes.clear();
  b.error = nullptr;
  b.last = false;
  batch_ = &b;
  try {
    while (b.count < b.calls.size()) {
      if (!next_call(b.calls[b.count])) {
        b.last = true;
        break;
      }
      ++b.count;
    }
  } catch (...) {
    b.error = std::current_exception();
    b.last = true;
  }
  batch_ = nullptr;
  b.lines = line_no_;
  b.bytes = bytes_;
}

}  // namespace libtrace::vma::detail
