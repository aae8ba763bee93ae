// SPDX-License-Identifier: MIT
// Suballocation of one device memory object, as trak-replay does it for VMA
// recordings: ranges ordered by offset covering the whole block, free ranges
// indexed by size (best fit), neighbours coalesced on free, alignment and
// bufferImageGranularity handled as VMA 2.x does. Pure bookkeeping: the
// device memory itself is the caller's (libtrace/src/vma_device_alloc.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace libtrace::vma {

// What occupies a range, in VMA's VmaSuballocationType order: buffers and
// linear images must not share a bufferImageGranularity page with optimal
// images; unknown contents conflict with everything.
enum class Kind : std::uint8_t { free, unknown, buffer, image_unknown, image_linear, image_optimal };

bool granularity_conflict(Kind a, Kind b);

inline std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return a > 1 ? (v + a - 1) & ~(a - 1) : v; }
inline std::uint64_t align_down(std::uint64_t v, std::uint64_t a) { return a > 1 ? v & ~(a - 1) : v; }
inline bool is_pow2(std::uint64_t v) { return v && !(v & (v - 1)); }

class BlockMetadata {
 public:
  // `granularity` is bufferImageGranularity (a power of two; 1 = none).
  BlockMetadata(std::uint64_t size, std::uint64_t granularity);

  // The offset where an allocation would go: the smallest free range that
  // fits once aligned (and moved off a conflicting granularity page), or
  // nothing. `alignment` must be a power of two. Changes nothing.
  std::optional<std::uint64_t> find(std::uint64_t size, std::uint64_t alignment, Kind kind) const;
  // Places an allocation at an offset that find() returned. `user` is the
  // caller's tag, handed back by for_each_allocation().
  void allocate(std::uint64_t offset, std::uint64_t size, Kind kind, void* user);
  // Frees the allocation that starts at `offset`, merging free neighbours.
  void free(std::uint64_t offset);
  // Grows or shrinks an allocation in place; false if the next range is not
  // free and large enough (VMA 2.2's vmaResizeAllocation).
  bool resize(std::uint64_t offset, std::uint64_t new_size);

  std::uint64_t size() const { return size_; }
  std::uint64_t used() const { return used_; }
  std::uint64_t granularity() const { return granularity_; }
  std::size_t allocation_count() const { return allocations_; }
  std::size_t free_range_count() const { return free_.size(); }
  std::uint64_t largest_free() const { return free_.empty() ? 0 : free_.rbegin()->first; }
  bool empty() const { return allocations_ == 0; }

  // f(offset, size, kind, user) for every allocation, in offset order.
  template <typename F>
  void for_each_allocation(F&& f) const {
    for (const auto& [offset, r] : ranges_)
      if (r.kind != Kind::free) f(offset, r.size, r.kind, r.user);
  }

  // Like find(), but allocations that `evictable(user)` approves count as
  // free (VMA's CAN_MAKE_OTHER_LOST): the offset that needs the fewest
  // evicted bytes, with those allocations' tags in `victims`. Granularity
  // is left to the find() that follows the eviction.
  template <typename Pred>
  std::optional<std::uint64_t> find_evicting(std::uint64_t size, std::uint64_t alignment, Pred&& evictable,
                                             std::vector<void*>& victims, std::uint64_t& cost) const {
    // One pass with a window [it, j) of ranges: both ends only move
    // forward, so a block of n ranges costs O(n), whatever the input.
    auto usable = [&](const Range& r) { return r.kind == Kind::free || evictable(r.user); };
    std::optional<std::uint64_t> best;
    Ranges::const_iterator best_it;
    cost = UINT64_MAX;
    std::uint64_t window = 0;  // evicted bytes in [it, j)
    auto j = ranges_.begin();
    for (auto it = ranges_.begin(); it != ranges_.end(); ++it) {
      if (j == it) window = 0;
      if (!usable(it->second)) {
        j = std::next(it);
        window = 0;
        continue;
      }
      const std::uint64_t offset = align_up(it->first, alignment);
      if (offset < it->first || offset >= size_ || size > size_ - offset) break;
      bool blocked = false;
      while (j != ranges_.end() && j->first < offset + size) {
        if (!usable(j->second)) {
          blocked = true;
          break;
        }
        if (j->second.kind != Kind::free) window += j->second.size;
        ++j;
      }
      if (blocked) {
        // No start before j can get past it.
        it = j;
        j = std::next(j);
        window = 0;
        if (it == ranges_.end()) break;
        continue;
      }
      if (window < cost) {
        cost = window;
        best = offset;
        best_it = it;
      }
      if (it->second.kind != Kind::free) window -= it->second.size;
    }
    victims.clear();
    if (best)
      for (auto k = best_it; k != ranges_.end() && k->first < *best + size; ++k)
        if (k->second.kind != Kind::free) victims.push_back(k->second.user);
    return best;
  }

  // Every invariant (ranges contiguous and covering the block, free ranges
  // indexed and never adjacent, counters right); "" when all hold.
  std::string validate() const;

 private:
  struct Range {
    std::uint64_t size = 0;
    Kind kind = Kind::free;
    void* user = nullptr;
  };
  using Ranges = std::map<std::uint64_t, Range>;
  std::optional<std::uint64_t> place(Ranges::const_iterator range, std::uint64_t size, std::uint64_t alignment,
                                     Kind kind) const;

  std::uint64_t size_, granularity_;
  std::uint64_t used_ = 0;
  std::size_t allocations_ = 0;
  Ranges ranges_;                                           // offset -> range
  std::set<std::pair<std::uint64_t, std::uint64_t>> free_;  // (size, offset)
};

}  // namespace libtrace::vma
