// SPDX-License-Identifier: MIT
// The blocks of trak-replay --simulate (internal to libtrace): VMA's default
// algorithm modelled by first fit over free ranges; linear and buddy blocks
// are the device replay's own.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "libtrace/alloc/suballoc.hpp"

namespace libtrace::vma::detail {

// Any alignment a recording has, not only powers of two.
inline std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return a ? (v + a - 1) / a * a : v; }

// A block's free ranges in offset order, as two arrays: first fit reads the
// sizes, contiguous, and passes over those too small at a load and a compare
// each. (As a std::map, walking a fragmented block's ranges node by node was
// most of --simulate's time: 80 ranges per allocation on a long recording.)
// Inserting or erasing moves the ranges after it, a few hundred bytes.
class FreeRanges {
 public:
  std::size_t size() const { return offset_.size(); }
  std::uint64_t offset(std::size_t i) const { return offset_[i]; }
  std::uint64_t bytes(std::size_t i) const { return bytes_[i]; }
  const std::uint64_t* all_bytes() const { return bytes_.data(); }

  void insert(std::size_t i, std::uint64_t offset, std::uint64_t bytes) {
    offset_.insert(offset_.begin() + static_cast<std::ptrdiff_t>(i), offset);
    bytes_.insert(bytes_.begin() + static_cast<std::ptrdiff_t>(i), bytes);
  }
  void erase(std::size_t i) {
    offset_.erase(offset_.begin() + static_cast<std::ptrdiff_t>(i));
    bytes_.erase(bytes_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  void set(std::size_t i, std::uint64_t offset, std::uint64_t bytes) {
    offset_[i] = offset;
    bytes_[i] = bytes;
  }
  // The first range at or after `offset`.
  std::size_t lower_bound(std::uint64_t offset) const {
    return static_cast<std::size_t>(std::lower_bound(offset_.begin(), offset_.end(), offset) - offset_.begin());
  }

 private:
  std::vector<std::uint64_t> offset_, bytes_;
};

// One device memory object. The default algorithm is modelled here by first
// fit over free ranges; the blocks of linear and buddy pools are the device
// replay's own (libtrace/alloc/linear.hpp, libtrace/alloc/buddy.hpp), so both replays place their
// allocations alike.
struct Block {
  std::uint64_t size = 0;
  std::uint64_t used = 0;
  std::uint64_t margin = 0;       // VMA_DEBUG_MARGIN, before and after every allocation
  std::uint64_t granularity = 1;  // bufferImageGranularity, a power of two
  FreeRanges free;
  // The allocations, kept only with a granularity: where two of them of
  // conflicting kinds would share a page, VMA moves the later one to the
  // next page (or elsewhere).
  struct Taken {
    std::uint64_t size;
    alloc::Kind kind;
  };
  std::map<std::uint64_t, Taken> taken;  // offset -> allocation
  // The largest free range: blocks that cannot hold an allocation are passed
  // over without walking their ranges (on a long, fragmented recording that
  // walk was most of --simulate's time), and the fragmentation at the peak
  // is read from it.
  std::uint64_t largest = 0;
  std::unique_ptr<alloc::Suballocator> other;  // linear or buddy; null: first fit

  Block(std::uint64_t s, std::uint64_t m, std::uint64_t g, alloc::Algorithm a)
      : size(s), margin(m), granularity(g), largest(s) {
    if (a == alloc::Algorithm::free_list)
      free.insert(0, 0, s);
    else
      other = alloc::make_suballocator(a, s, g, m);
  }

  bool allocate(std::uint64_t bytes, std::uint64_t align, bool upper, alloc::Kind kind, std::uint64_t& offset) {
    if (other) {
      // Their alignments are powers of two, as a device's are.
      const std::uint64_t a = align <= 1 ? 1 : align > (1ull << 62) ? 1ull << 62 : std::bit_ceil(align);
      const alloc::Request r{bytes, a, kind, upper};
      const auto place = other->find(r);
      if (!place) return false;
      other->allocate(*place, r, nullptr);
      offset = *place;
      used += bytes;
      return true;
    }
    if (bytes > largest || margin > (largest - bytes) / 2) return false;
    // A range smaller than this cannot hold the allocation and its margins
    // (both at most 2^40 and below largest, so no overflow).
    const std::uint64_t least = bytes + 2 * margin;
    const std::uint64_t* sizes = free.all_bytes();
    for (std::size_t i = 0, n = free.size(); i < n; ++i) {
      if (sizes[i] < least) continue;
      // The margins stay inside the free range, at both ends.
      const std::uint64_t range_start = free.offset(i);
      std::uint64_t start = round_up(range_start + margin, align);
      const std::uint64_t end = range_start + sizes[i];
      if (start < range_start || !alloc::fits_before(start, bytes, margin, end)) continue;
      // Looked at only where the allocation fits (first fit passes over many
      // ranges that are too small).
      if (granularity > 1) {
        if (conflict_below(range_start, start, kind)) {
          start = alloc::align_up(start, granularity);
          if (!alloc::fits_before(start, bytes, margin, end)) continue;
        }
        if (conflict_above(end, start, bytes, kind)) continue;
      }
      // What is left of the range before and after the allocation.
      const bool before = start > range_start, after = start + bytes < end;
      const bool was_largest = sizes[i] == largest;
      if (before) free.set(i, range_start, start - range_start);
      if (after && before)
        free.insert(i + 1, start + bytes, end - start - bytes);
      else if (after)
        free.set(i, start + bytes, end - start - bytes);
      else if (!before)
        free.erase(i);
      if (was_largest) largest = largest_range();
      offset = start;
      used += bytes;
      if (granularity > 1) taken.emplace(start, Taken{bytes, kind});
      return true;
    }
    return false;
  }

  std::uint64_t largest_range() const {
    const std::uint64_t* sizes = free.all_bytes();
    std::uint64_t most = 0;
    for (std::size_t i = 0, n = free.size(); i < n; ++i) most = std::max(most, sizes[i]);
    return most;
  }

  // As VMA 2.x checks a place: the allocations before the free range that
  // `at` starts, as far back as they end on the page of `start`...
  bool conflict_below(std::uint64_t at, std::uint64_t start, alloc::Kind kind) const {
    for (auto it = taken.lower_bound(at); it != taken.begin();) {
      --it;
      if (!alloc::same_page(it->first, it->second.size, start, granularity)) break;
      if (alloc::granularity_conflict(it->second.kind, kind)) return true;
    }
    return false;
  }

  // ...and those after it (from `end`, the range's end) that start on the
  // page where the new allocation ends: a conflict there rules the place out.
  bool conflict_above(std::uint64_t end, std::uint64_t start, std::uint64_t bytes, alloc::Kind kind) const {
    for (auto it = taken.lower_bound(end); it != taken.end(); ++it) {
      if (!alloc::same_page(start, bytes, it->first, granularity)) break;
      if (alloc::granularity_conflict(kind, it->second.kind)) return true;
    }
    return false;
  }

  void release(std::uint64_t offset, std::uint64_t bytes) {
    used -= bytes;
    if (other) {
      other->free(offset);
      return;
    }
    if (granularity > 1) taken.erase(offset);
    // Joined with the free ranges right before and after it.
    std::size_t i = free.lower_bound(offset);
    const bool joins_next = i < free.size() && offset + bytes == free.offset(i);
    const bool joins_prev = i > 0 && free.offset(i - 1) + free.bytes(i - 1) == offset;
    if (joins_prev && joins_next) {
      free.set(i - 1, free.offset(i - 1), free.bytes(i - 1) + bytes + free.bytes(i));
      free.erase(i);
      --i;
    } else if (joins_prev) {
      --i;
      free.set(i, free.offset(i), free.bytes(i) + bytes);
    } else if (joins_next) {
      free.set(i, offset, bytes + free.bytes(i));
    } else {
      free.insert(i, offset, bytes);
    }
    largest = std::max(largest, free.bytes(i));
  }

  // Unused ranges as VMA's statistics count them, and the largest one that
  // the next allocation could take.
  std::size_t free_ranges() const { return other ? other->free_range_count() : free.size(); }
  std::uint64_t largest_free() const { return other ? other->largest_free_range() : largest; }
};

}  // namespace libtrace::vma::detail
