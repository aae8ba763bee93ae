// SPDX-License-Identifier: MIT
// What one replay run does: the archives seen as one, and the ordered list of
// pipelines to create (types, ranges, shard, minus those already done).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libtrace/foz/archive.hpp"
#include "libtrace/replay/foz/replay.hpp"

namespace libtrace::foz::detail {

// The inputs of a run. An object is looked up in each archive in turn and the
// first one holding it wins, as in Fossilize's concurrent database. Lookups
// and reads are thread-safe.
class Sources {
 public:
  Sources(const std::vector<std::string>& paths, const WarningSink& warnings);
  ~Sources();
  Sources(const Sources&) = delete;
  Sources& operator=(const Sources&) = delete;

  struct Found {
    const ArchiveReader* reader = nullptr;
    const Entry* entry = nullptr;
    explicit operator bool() const { return entry != nullptr; }
  };
  Found find(Tag tag, std::uint64_t hash) const;
  // The decoded payload (Error naming the file and entry when it is bad).
  void read(const Found& f, std::vector<std::uint8_t>& out) const;
  // The same without a copy where it can: a payload stored plain is viewed
  // in the mapped file; a compressed one is inflated into `scratch`. Valid
  // until the next call with the same scratch.
  std::string_view payload(const Found& f, std::vector<std::uint8_t>& scratch) const;
  // Every hash of a tag over all archives, ascending, without repeats.
  std::vector<std::uint64_t> hashes(Tag tag) const;
  std::size_t count(Tag tag) const;  // unique over all archives
  const std::vector<std::unique_ptr<ArchiveReader>>& readers() const { return readers_; }

 private:
  std::vector<std::unique_ptr<ArchiveReader>> readers_;
  // Each archive mapped read-only (null where mapping failed: then read by
  // pread); the replay reads a few hundred bytes per pipeline, and a system
  // call and a copy for each cost more than parsing them.
  struct Mapping {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
  };
  std::vector<Mapping> maps_;
};

struct WorkItem {
  std::uint64_t hash = 0;
  std::uint32_t index = 0;  // position in its type's ascending hash list
  PipelineType type = PipelineType::graphics;
};

struct Plan {
  // Graphics, then compute, then raytracing; ascending hashes within each.
  std::vector<WorkItem> items;
  // total (selected) and already_done per type; the rest is counted later.
  std::array<TypeCounts, kPipelineTypes> counts{};
  std::array<std::uint64_t, kPipelineTypes> in_archives{};
};

// Something that knows which pipelines were replayed before (--skip-done).
class DoneSet {
 public:
  virtual ~DoneSet() = default;
  virtual bool contains(Tag tag, std::uint64_t hash) const = 0;
};

// Ranges select positions per type (several ranges for one type add up; no
// range for a type selects all of it); the shard then takes its contiguous
// part of the selected positions; pipelines in `done` are left out of items
// but counted as already_done.
// `only`, when given, selects the pipelines of these hashes instead of
// ranges.
Plan make_plan(const Sources& sources, const std::vector<RangeSpec>& ranges, Shard shard, const DoneSet* done,
               const std::vector<std::uint64_t>* only = nullptr);

// Part `s` of `n` selected positions: [begin, end).
std::pair<std::uint64_t, std::uint64_t> shard_bounds(Shard s, std::uint64_t n);

}  // namespace libtrace::foz::detail
