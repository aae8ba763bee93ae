// SPDX-License-Identifier: MIT
// The archives of a run as one, and the ordered pipeline list (ranges,
// shards, already-done pipelines).
#include "replay/foz/plan.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>

namespace libtrace::foz {

std::string_view pipeline_type_name(PipelineType t) {
  switch (t) {
    case PipelineType::graphics: return "graphics";
    case PipelineType::compute: return "compute";
    case PipelineType::raytracing: return "raytracing";
  }
  return "?";
}

Tag pipeline_type_tag(PipelineType t) {
  switch (t) {
    case PipelineType::graphics: return Tag::graphics_pipeline;
    case PipelineType::compute: return Tag::compute_pipeline;
    case PipelineType::raytracing: return Tag::raytracing_pipeline;
  }
  return Tag::graphics_pipeline;
}

std::optional<PipelineType> parse_pipeline_type(std::string_view name) {
  for (std::size_t i = 0; i < kPipelineTypes; ++i) {
    const auto t = static_cast<PipelineType>(i);
    if (name == pipeline_type_name(t)) return t;
  }
  return std::nullopt;
}

std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::pending: return "pending";
    case Outcome::ok: return "ok";
    case Outcome::failed: return "failed";
    case Outcome::unsupported: return "unsupported";
    case Outcome::crashed: return "crashed";
    case Outcome::timed_out: return "timed_out";
    case Outcome::ok_cache_miss: return "ok_cache_miss";
    case Outcome::cache_miss: return "cache_miss";
  }
  return "?";
}

namespace {

bool parse_u64(std::string_view s, std::uint64_t& v) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

RangeSpec parse_range(std::string_view text) {
  RangeSpec out;
  std::string_view spec = text;
  if (const auto colon = spec.find(':'); colon != std::string_view::npos) {
    out.type = parse_pipeline_type(spec.substr(0, colon));
    if (!out.type)
      throw Error(Errc::usage, "--range",
                  "unknown pipeline type '" + std::string(spec.substr(0, colon)) + "' (graphics, compute, raytracing)");
    spec = spec.substr(colon + 1);
  }
  const auto bad = [&] {
    return Error(Errc::usage, "--range",
                 "want [TYPE:]A-B, A-, -B or N (positions in ascending hash order), not '" + std::string(text) + "'");
  };
  const auto dash = spec.find('-');
  if (dash == std::string_view::npos) {
    if (!parse_u64(spec, out.range.first)) throw bad();
    out.range.last = out.range.first;
  } else {
    const auto a = spec.substr(0, dash), b = spec.substr(dash + 1);
    if (a.empty() && b.empty()) throw bad();
    if (!a.empty() && !parse_u64(a, out.range.first)) throw bad();
    if (!b.empty() && !parse_u64(b, out.range.last)) throw bad();
  }
  if (out.range.first > out.range.last)
    throw Error(Errc::usage, "--range", "the range '" + std::string(text) + "' is empty");
  return out;
}

Shard parse_shard(std::string_view text) {
  Shard s;
  const auto slash = text.find('/');
  if (slash == std::string_view::npos || !parse_u64(text.substr(0, slash), s.index) ||
      !parse_u64(text.substr(slash + 1), s.count))
    throw Error(Errc::usage, "--shard", "want I/N (part I of N, counted from 0), not '" + std::string(text) + "'");
  if (s.count == 0 || s.index >= s.count)
    throw Error(Errc::usage, "--shard", "'" + std::string(text) + "': I must be at least 0 and less than N");
  return s;
}

namespace detail {

Sources::Sources(const std::vector<std::string>& paths, const WarningSink& warnings) {
  if (paths.empty()) throw Error(Errc::usage, "", "no archive given");
  ReadOptions ro;
  ro.warnings = warnings;
  for (const std::string& p : paths) {
    readers_.push_back(std::make_unique<ArchiveReader>(p, ro));
    Mapping m;
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd >= 0 && ::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* at = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (at != MAP_FAILED) {
        m.data = static_cast<const std::uint8_t*>(at);
        m.size = static_cast<std::size_t>(st.st_size);
      }
    }
    if (fd >= 0) ::close(fd);
    maps_.push_back(m);
  }
}

Sources::~Sources() {
  for (const Mapping& m : maps_)
    if (m.data) ::munmap(const_cast<std::uint8_t*>(m.data), m.size);
}

void Sources::read(const Found& f, std::vector<std::uint8_t>& out) const {
  const std::string_view p = payload(f, out);
  if (p.data() != reinterpret_cast<const char*>(out.data())) out.assign(p.begin(), p.end());
}

std::string_view Sources::payload(const Found& f, std::vector<std::uint8_t>& scratch) const {
  const auto i = static_cast<std::size_t>(
      std::find_if(readers_.begin(), readers_.end(), [&](const auto& r) { return r.get() == f.reader; }) -
      readers_.begin());
  const Mapping& m = maps_[i];
  const Entry& e = *f.entry;
  const std::uint64_t at = e.offset + kEntryHeaderSize;
  if (!m.data || at + e.header.stored_size > m.size) {  // not mapped, or the file shrank: the reader says why
    f.reader->read_payload(e, scratch);
    return {reinterpret_cast<const char*>(scratch.data()), scratch.size()};
  }
  const std::span<const std::uint8_t> stored(m.data + at, e.header.stored_size);
  // The full position is made only for an error: it costs allocations.
  try {
    if (e.header.format == static_cast<std::uint32_t>(PayloadFormat::none) &&
        e.header.uncompressed_size == e.header.stored_size) {
      if (e.header.crc) check_crc(e.header, stored, f.reader->name());
      return {reinterpret_cast<const char*>(stored.data()), stored.size()};
    }
    decode_payload(e.header, stored, scratch, f.reader->name());
  } catch (const Error& err) {
    throw Error(err.code(), f.reader->where(e), err.message());
  }
  return {reinterpret_cast<const char*>(scratch.data()), scratch.size()};
}

Sources::Found Sources::find(Tag tag, std::uint64_t hash) const {
  for (const auto& r : readers_)
    if (const Entry* e = r->find(tag, hash)) return Found{r.get(), e};
  return {};
}

std::vector<std::uint64_t> Sources::hashes(Tag tag) const {
  if (readers_.size() == 1) return readers_.front()->hashes(tag);
  std::vector<std::uint64_t> all;
  for (const auto& r : readers_) {
    const auto h = r->hashes(tag);
    all.insert(all.end(), h.begin(), h.end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

std::size_t Sources::count(Tag tag) const {
  return readers_.size() == 1 ? readers_.front()->count(tag) : hashes(tag).size();
}

std::pair<std::uint64_t, std::uint64_t> shard_bounds(Shard s, std::uint64_t n) {
  // n * i / count without a 128-bit product: n = q * count + rem.
  const auto at = [&](std::uint64_t i) {
    const std::uint64_t q = n / s.count, rem = n % s.count;
    if (s.count <= 0xffffffffu) return q * i + rem * i / s.count;  // rem * i < count^2 fits
    return q * i + static_cast<std::uint64_t>(static_cast<long double>(rem) * static_cast<long double>(i) /
                                              static_cast<long double>(s.count));
  };
  return {at(s.index), at(s.index + 1)};
}

Plan make_plan(const Sources& sources, const std::vector<RangeSpec>& ranges, Shard shard, const DoneSet* done,
               const std::vector<std::uint64_t>* only) {
  Plan plan;
  for (std::size_t t = 0; t < kPipelineTypes; ++t) {
    const auto type = static_cast<PipelineType>(t);
    const Tag tag = pipeline_type_tag(type);
    const std::vector<std::uint64_t> hashes = sources.hashes(tag);
    plan.in_archives[t] = hashes.size();

    std::vector<std::uint32_t> selected;
    bool ranged = false;
    std::vector<bool> pick;
    for (const RangeSpec& r : ranges) {
      if (r.type && *r.type != type) continue;
      if (!ranged) pick.assign(hashes.size(), false);
      ranged = true;
      for (std::uint64_t i = r.range.first; i < hashes.size() && i <= r.range.last; ++i) pick[i] = true;
    }
    if (only) {
      ranged = true;
      pick.assign(hashes.size(), false);
      for (std::uint64_t h : *only)
        if (const auto it = std::lower_bound(hashes.begin(), hashes.end(), h); it != hashes.end() && *it == h)
          pick[static_cast<std::size_t>(it - hashes.begin())] = true;
    }
    for (std::uint32_t i = 0; i < hashes.size(); ++i)
      if (!ranged || pick[i]) selected.push_back(i);

    const auto [begin, end] = shard_bounds(shard, selected.size());
    TypeCounts& c = plan.counts[t];
    for (std::uint64_t k = begin; k < end; ++k) {
      const std::uint32_t i = selected[k];
      ++c.total;
      if (done && done->contains(tag, hashes[i])) {
        ++c.already_done;
        continue;
      }
      plan.items.push_back(WorkItem{hashes[i], i, type});
    }
  }
  return plan;
}

}  // namespace detail
}  // namespace libtrace::foz
