// SPDX-License-Identifier: MIT
// Streaming reader for VMA call recordings, with the quirks real files have
// (see ../shared/reference/vma.md §1.5).
#include <algorithm>
#include <charconv>
#include <cstring>
#include <unordered_map>

#include "libtrace/vma.hpp"

namespace libtrace::vma {

namespace {

// Column kinds after "thread,time,frame,function".
enum class Col : std::uint8_t { u32, u64, boolean, ptr, ptr_list, text };

struct Schema {
  Schema(Function f, std::string_view n, Version a, Version b, std::vector<Col> c)
      : function(f), name(n), first(a), last(b), cols(std::move(c)) {}
  Function function;
  std::string_view name;
  Version first, last;
  std::vector<Col> cols;
  std::vector<std::string_view> arg_names;  // the spec's parameter names
};

const std::vector<Schema>& schemas() {
  using C = Col;
  static const std::vector<Schema> table = [] {
    const std::vector<Col> aci = {C::u32, C::u32, C::u32, C::u32, C::u32, C::ptr};  // flags..memoryTypeBits, pool
    auto cat = [](std::vector<Col> a, const std::vector<Col>& b) {
      a.insert(a.end(), b.begin(), b.end());
      return a;
    };
    const Version v10{1, 0}, v11{1, 1}, v12{1, 2}, v14{1, 4}, v15{1, 5}, v17{1, 7}, v18{1, 8};
    std::vector<Schema> t = {
        {Function::CreateAllocator, "vmaCreateAllocator", v10, v18, {}},
        {Function::DestroyAllocator, "vmaDestroyAllocator", v10, v18, {}},
        {Function::CreatePool, "vmaCreatePool", v10, v18, {C::u32, C::u32, C::u64, C::u64, C::u64, C::u32, C::ptr}},
        {Function::DestroyPool, "vmaDestroyPool", v10, v18, {C::ptr}},
        {Function::SetAllocationUserData, "vmaSetAllocationUserData", v10, v18, {C::ptr, C::text}},
        {Function::CreateBuffer, "vmaCreateBuffer", v10, v18,
         cat(cat({C::u32, C::u64, C::u32, C::u32}, aci), {C::ptr, C::text})},
        {Function::DestroyBuffer, "vmaDestroyBuffer", v10, v18, {C::ptr}},
        {Function::CreateImage, "vmaCreateImage", v10, v18,
         cat(cat(std::vector<Col>(13, C::u32), aci), {C::ptr, C::text})},
        {Function::DestroyImage, "vmaDestroyImage", v10, v18, {C::ptr}},
        {Function::FreeMemory, "vmaFreeMemory", v11, v18, {C::ptr}},
        {Function::FreeMemoryPages, "vmaFreeMemoryPages", v15, v18, {C::ptr_list}},
        {Function::CreateLostAllocation, "vmaCreateLostAllocation", v12, v18, {C::ptr}},
        {Function::AllocateMemory, "vmaAllocateMemory", v12, v18,
         cat(cat({C::u64, C::u64, C::u32}, aci), {C::ptr, C::text})},
        {Function::AllocateMemoryPages, "vmaAllocateMemoryPages", v15, v18,
         cat(cat({C::u64, C::u64, C::u32}, aci), {C::ptr_list, C::text})},
        {Function::AllocateMemoryForBuffer, "vmaAllocateMemoryForBuffer", v12, v18,
         cat(cat({C::u64, C::u64, C::u32, C::boolean, C::boolean}, aci), {C::ptr, C::text})},
        {Function::AllocateMemoryForImage, "vmaAllocateMemoryForImage", v12, v18,
         cat(cat({C::u64, C::u64, C::u32, C::boolean, C::boolean}, aci), {C::ptr, C::text})},
        {Function::MapMemory, "vmaMapMemory", v12, v18, {C::ptr}},
        {Function::UnmapMemory, "vmaUnmapMemory", v12, v18, {C::ptr}},
        {Function::FlushAllocation, "vmaFlushAllocation", v12, v18, {C::ptr, C::u64, C::u64}},
        {Function::InvalidateAllocation, "vmaInvalidateAllocation", v12, v18, {C::ptr, C::u64, C::u64}},
        {Function::TouchAllocation, "vmaTouchAllocation", v12, v18, {C::ptr}},
        {Function::GetAllocationInfo, "vmaGetAllocationInfo", v12, v18, {C::ptr}},
        {Function::MakePoolAllocationsLost, "vmaMakePoolAllocationsLost", v12, v18, {C::ptr}},
        {Function::ResizeAllocation, "vmaResizeAllocation", v14, v15, {C::ptr, C::u64}},
        {Function::DefragmentationBegin, "vmaDefragmentationBegin", v15, v18,
         {C::u32, C::ptr_list, C::ptr_list, C::u64, C::u32, C::u64, C::u32, C::ptr, C::ptr}},
        {Function::DefragmentationEnd, "vmaDefragmentationEnd", v15, v18, {C::ptr}},
        {Function::SetPoolName, "vmaSetPoolName", v17, v18, {C::ptr, C::text}},
    };
    const std::vector<std::string_view> aci_names = {
        "allocationCreateInfo.flags",         "allocationCreateInfo.usage",
        "allocationCreateInfo.requiredFlags", "allocationCreateInfo.preferredFlags",
        "allocationCreateInfo.memoryTypeBits", "allocationCreateInfo.pool"};
    auto names = [](std::vector<std::string_view> a, const std::vector<std::string_view>& b,
                    std::vector<std::string_view> c) {
      a.insert(a.end(), b.begin(), b.end());
      a.insert(a.end(), c.begin(), c.end());
      return a;
    };
    const std::vector<std::string_view> mem_req = {"vkMemoryRequirements.size", "vkMemoryRequirements.alignment",
                                                   "vkMemoryRequirements.memoryTypeBits"};
    for (Schema& x : t) {
      switch (x.function) {
        case Function::CreatePool:
          x.arg_names = {"memoryTypeIndex", "flags", "blockSize", "minBlockCount", "maxBlockCount", "frameInUseCount", "pool"};
          break;
        case Function::DestroyPool:
        case Function::MakePoolAllocationsLost: x.arg_names = {"pool"}; break;
        case Function::SetAllocationUserData: x.arg_names = {"allocation", "pUserData"}; break;
        case Function::CreateBuffer:
          x.arg_names = names({"bufferCreateInfo.flags", "bufferCreateInfo.size", "bufferCreateInfo.usage",
                               "bufferCreateInfo.sharingMode"},
                              aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        case Function::CreateImage:
          x.arg_names = names({"imageCreateInfo.flags", "imageCreateInfo.imageType", "imageCreateInfo.format",
                               "imageCreateInfo.extent.width", "imageCreateInfo.extent.height",
                               "imageCreateInfo.extent.depth", "imageCreateInfo.mipLevels", "imageCreateInfo.arrayLayers",
                               "imageCreateInfo.samples", "imageCreateInfo.tiling", "imageCreateInfo.usage",
                               "imageCreateInfo.sharingMode", "imageCreateInfo.initialLayout"},
                              aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        case Function::FreeMemoryPages: x.arg_names = {"allocations"}; break;
        case Function::AllocateMemory:
          x.arg_names = names(mem_req, aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        case Function::AllocateMemoryPages:
          x.arg_names = names(mem_req, aci_names, {"allocations", "allocationCreateInfo.pUserData"});
          break;
        case Function::AllocateMemoryForBuffer:
        case Function::AllocateMemoryForImage: {
          auto m = mem_req;
          m.push_back("requiresDedicatedAllocation");
          m.push_back("prefersDedicatedAllocation");
          x.arg_names = names(m, aci_names, {"allocation", "allocationCreateInfo.pUserData"});
          break;
        }
        case Function::FlushAllocation:
        case Function::InvalidateAllocation: x.arg_names = {"allocation", "offset", "size"}; break;
        case Function::ResizeAllocation: x.arg_names = {"allocation", "newSize"}; break;
        case Function::DefragmentationBegin:
          x.arg_names = {"defragmentationInfo2.flags", "defragmentationInfo2.pAllocations",
                         "defragmentationInfo2.pPools", "defragmentationInfo2.maxCpuBytesToMove",
                         "defragmentationInfo2.maxCpuAllocationsToMove", "defragmentationInfo2.maxGpuBytesToMove",
                         "defragmentationInfo2.maxGpuAllocationsToMove", "defragmentationInfo2.commandBuffer", "context"};
          break;
        case Function::DefragmentationEnd: x.arg_names = {"context"}; break;
        case Function::SetPoolName: x.arg_names = {"pool", "pName"}; break;
        case Function::CreateAllocator:
        case Function::DestroyAllocator: break;
        default: x.arg_names = {"allocation"}; break;
      }
    }
    std::sort(t.begin(), t.end(), [](const Schema& a, const Schema& b) { return a.function < b.function; });
    return t;
  }();
  return table;
}

const Schema& schema(Function f) { return schemas()[static_cast<std::size_t>(f)]; }

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Splits off the next comma-separated field.
std::string_view next_field(std::string_view& s, bool& more) {
  const std::size_t c = s.find(',');
  std::string_view f = s.substr(0, c);
  more = c != std::string_view::npos;
  s = more ? s.substr(c + 1) : std::string_view{};
  return f;
}

bool parse_dec(std::string_view f, std::uint64_t& out) {
  if (f.empty()) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

// MSVC's %p (16 upper-case digits), glibc's (0x..., "(nil)"), 8-digit 32-bit.
bool parse_ptr(std::string_view f, std::uint64_t& out) {
  if (f == "(nil)") {
    out = 0;
    return true;
  }
  if (f.size() > 2 && f[0] == '0' && (f[1] == 'x' || f[1] == 'X')) f.remove_prefix(2);
  if (f.empty() || f.size() > 16) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out, 16);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

bool parse_time(std::string_view f, double& out) {
  if (f.empty()) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

}  // namespace

std::string_view function_name(Function f) { return schema(f).name; }

std::optional<Function> function_from_name(std::string_view name) {
  static const auto index = [] {
    std::unordered_map<std::string_view, Function> m;
    for (const Schema& s : schemas()) m.emplace(s.name, s.function);
    return m;
  }();
  auto it = index.find(name);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

std::pair<Version, Version> function_versions(Function f) { return {schema(f).first, schema(f).last}; }

std::vector<Param> params(const Call& call) {
  const Schema& s = schema(call.function);
  const bool six_column_pool = call.function == Function::CreatePool && call.num.size() == 6;
  std::vector<Param> out;
  std::size_t n = 0, l = 0;
  for (std::size_t i = 0; i < s.cols.size(); ++i) {
    if (six_column_pool && i == 5) continue;  // no frameInUseCount
    Param p;
    p.name = s.arg_names[i];
    switch (s.cols[i]) {
      case Col::u32:
      case Col::u64: p.kind = ParamKind::number; p.value = call.num[n++]; break;
      case Col::boolean: p.kind = ParamKind::boolean; p.value = call.num[n++]; break;
      case Col::ptr: p.kind = ParamKind::pointer; p.value = call.num[n++]; break;
      case Col::ptr_list: p.kind = ParamKind::pointer_list; p.list = &call.lists[l++]; break;
      case Col::text:
        if (!call.has_text) return out;
        p.kind = ParamKind::text;
        break;
    }
    out.push_back(p);
  }
  return out;
}

bool looks_like_recording(std::string_view first) { return first.rfind("Vulkan Memory Allocator", 0) == 0; }

Reader::Reader(std::unique_ptr<Decoder> decoder, std::string name, ReaderOptions opt)
    : decoder_(std::move(decoder)), name_(std::move(name)), opt_(std::move(opt)) {
  parse_header();
}

Reader::~Reader() = default;

void Reader::fail(const std::string& why) const {
  throw Error(Errc::bad_record, name_ + ": line " + std::to_string(line_no_), why);
}

void Reader::warn(const std::string& why) {
  ++warnings_;
  if (opt_.warnings) opt_.warnings(name_ + ": line " + std::to_string(line_no_), why);
}

// One line without its end; false at the end of the data. A last line with
// no newline is what a crashed recorder leaves: it is dropped with a warning.
bool Reader::read_line(std::string_view& line) {
  carry_.clear();
  for (;;) {
    if (pos_ < block_.size()) {
      const auto* start = block_.data() + pos_;
      const auto* nl = static_cast<const std::uint8_t*>(std::memchr(start, '\n', block_.size() - pos_));
      if (nl) {
        const std::size_t n = static_cast<std::size_t>(nl - start);
        pos_ += n + 1;
        bytes_ += n + 1;
        ++line_no_;
        if (carry_.empty()) {
          line = std::string_view(reinterpret_cast<const char*>(start), n);
        } else {
          carry_.append(reinterpret_cast<const char*>(start), n);
          line = carry_;
        }
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        return true;
      }
      carry_.append(reinterpret_cast<const char*>(start), block_.size() - pos_);
      bytes_ += block_.size() - pos_;
      if (carry_.size() > (64u << 20)) fail("line longer than 64 MiB (not a recording?)");
      pos_ = block_.size();
    }
    if (eof_ || !decoder_->next(block_)) {
      eof_ = true;
      if (!carry_.empty()) {
        ++line_no_;
        warn("last line has no line end (the recording was cut off); dropped");
      }
      return false;
    }
    pos_ = 0;
  }
}

void Reader::parse_header() {
  std::string_view line;
  if (!read_line(line)) throw Error(Errc::truncated, name_ + ": line 1", "empty recording");
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
  if (!read_line(line) || trim_right(line) != "Config,Begin")
    fail("format 1.3 and later must start with a Config section (\"Config,Begin\")");
  for (;;) {
    if (!read_line(line)) throw Error(Errc::truncated, name_ + ": line " + std::to_string(line_no_), "recording ends inside the Config section");
    line = trim_right(line);
    if (line == "Config,End") return;
    parse_config_line(line);
  }
}

void Reader::parse_config_line(std::string_view line) {
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
      if (what == "HeapCount") c.heaps.resize(n);
      else c.types.resize(n);
    } else if (what == "Heap" || what == "Type") {
      const std::uint64_t i = number(next_field(rest, more));
      const std::string_view field = next_field(rest, more);
      const std::uint64_t v = number(rest);
      if (what == "Heap") {
        if (i >= c.heaps.size()) fail("heap index " + std::to_string(i) + " beyond HeapCount");
        if (field == "size") c.heaps[i].size = v;
        else if (field == "flags") c.heaps[i].flags = static_cast<std::uint32_t>(v);
      } else {
        if (i >= c.types.size()) fail("memory type index " + std::to_string(i) + " beyond TypeCount");
        if (field == "heapIndex") c.types[i].heap = static_cast<std::uint32_t>(v);
        else if (field == "propertyFlags") c.types[i].property_flags = static_cast<std::uint32_t>(v);
      }
    }
  } else {
    warn("unknown Config option '" + std::string(key) + "' kept as is");
  }
}

bool Reader::parse_call(std::string_view line, Call& call) {
  auto bad = [&](const std::string& why) {
    if (!opt_.keep_going) fail(why);
    warn(why + "; line skipped");
    return false;
  };
  bool more = false;
  std::uint64_t v = 0;
  std::string_view rest = line;
  if (!parse_dec(next_field(rest, more), v) || !more || v > UINT32_MAX) return bad("bad thread id");
  call.thread = static_cast<std::uint32_t>(v);
  if (!parse_time(next_field(rest, more), call.time) || !more) return bad("bad time");
  if (!parse_dec(next_field(rest, more), v) || !more || v > UINT32_MAX) return bad("bad frame index");
  call.frame = static_cast<std::uint32_t>(v);
  const std::string_view fname = next_field(rest, more);
  const auto f = function_from_name(fname);
  if (!f) return bad("unknown function '" + std::string(fname) + "'");
  call.function = *f;
  const Schema& s = schema(*f);
  if (header_.version < s.first || header_.version > s.last)
    return bad(std::string(fname) + " is not recorded by format " + header_.version.str() + " (only " + s.first.str() +
               " to " + s.last.str() + ")");
  call.num.clear();
  call.lists.clear();
  call.text.clear();
  call.has_text = false;
  const std::vector<Col>* cols_ptr = &s.cols;
  if (*f == Function::CreatePool && header_.version == Version{1, 8}) {
    // The last 1.8 recorder (1e97603) dropped frameInUseCount: 6 columns.
    static const std::vector<Col> six = {Col::u32, Col::u32, Col::u64, Col::u64, Col::u64, Col::ptr};
    if (more && std::count(rest.begin(), rest.end(), ',') == 5) cols_ptr = &six;
  }
  const std::vector<Col>& cols = *cols_ptr;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i] == Col::text) {
      call.has_text = more;
      call.text = std::string(rest);  // everything left, commas included
      rest = {};
      more = false;
      break;
    }
    if (!more) return bad(std::string(fname) + ": too few columns (" + std::to_string(i) + " of " + std::to_string(cols.size()) + ")");
    const std::string_view field = next_field(rest, more);
    switch (cols[i]) {
      case Col::u32:
      case Col::u64:
      case Col::boolean:
        if (!parse_dec(field, v)) return bad(std::string(fname) + ": bad number '" + std::string(field) + "' in column " + std::to_string(i + 5));
        if (cols[i] == Col::u32 && v > UINT32_MAX) return bad(std::string(fname) + ": value out of range in column " + std::to_string(i + 5));
        if (cols[i] == Col::boolean && v > 1) return bad(std::string(fname) + ": expected 0 or 1 in column " + std::to_string(i + 5));
        call.num.push_back(v);
        break;
      case Col::ptr:
        if (!parse_ptr(field, v)) return bad(std::string(fname) + ": bad pointer '" + std::string(field) + "' in column " + std::to_string(i + 5));
        call.num.push_back(v);
        break;
      case Col::ptr_list: {
        std::vector<std::uint64_t> list;
        std::string_view items = field;
        while (!items.empty()) {
          const std::size_t sp = items.find(' ');
          const std::string_view item = items.substr(0, sp);
          items = sp == std::string_view::npos ? std::string_view{} : items.substr(sp + 1);
          if (item.empty()) continue;
          if (!parse_ptr(item, v)) return bad(std::string(fname) + ": bad pointer '" + std::string(item) + "' in a list");
          list.push_back(v);
        }
        call.lists.push_back(std::move(list));
        break;
      }
      case Col::text:
        break;
    }
  }
  // A fixed-arity line must end here; an empty trailing field (the comma the
  // recorder leaves before empty user data) is tolerated.
  if (more && !trim_right(rest).empty()) return bad(std::string(fname) + ": too many columns");
  return true;
}

const Call* Reader::next() {
  std::string_view line;
  while (read_line(line)) {
    if (trim_right(line).empty()) continue;
    call_.line = line_no_;
    if (parse_call(line, call_)) return &call_;
  }
  return nullptr;
}

}  // namespace libtrace::vma
