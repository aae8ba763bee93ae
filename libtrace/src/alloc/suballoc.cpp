// SPDX-License-Identifier: MIT
// Best-fit free-list suballocation of one device memory object (VMA's
// default algorithm), and what every block algorithm shares.
#include "libtrace/alloc/suballoc.hpp"

#include <algorithm>
#include <cassert>

#include "libtrace/alloc/buddy.hpp"
#include "libtrace/alloc/linear.hpp"

namespace libtrace::alloc {

bool granularity_conflict(Kind a, Kind b) {
  if (a > b) std::swap(a, b);
  switch (a) {
    case Kind::free: return false;
    case Kind::unknown: return true;
    case Kind::buffer: return b == Kind::image_unknown || b == Kind::image_optimal;
    case Kind::image_unknown: return b == Kind::image_unknown || b == Kind::image_linear || b == Kind::image_optimal;
    case Kind::image_linear: return b == Kind::image_optimal;
    case Kind::image_optimal: return false;
  }
  return true;
}

void UnusedSpace::add(std::uint64_t block_size, std::uint64_t used, std::uint64_t free_ranges,
                      std::uint64_t largest_free) {
  const std::uint64_t unused = block_size - std::min(block_size, used);
  const std::uint64_t top = std::min(largest_free, unused);
  ranges += free_ranges;
  largest = std::max(largest, top);
  bytes += unused;
  in_largest += top;
}

double UnusedSpace::fragmentation() const {
  return bytes ? 1.0 - static_cast<double>(in_largest) / static_cast<double>(bytes) : 0.0;
}

Algorithm pool_algorithm(std::uint64_t pool_flags) {
  constexpr std::uint64_t kLinear = 0x4, kBuddy = 0x8;
  if (pool_flags & kLinear) return Algorithm::linear;
  if (pool_flags & kBuddy) return Algorithm::buddy;
  return Algorithm::free_list;
}

std::string_view algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::free_list: return "free list";
    case Algorithm::linear: return "linear";
    case Algorithm::buddy: return "buddy";
  }
  return "?";
}

bool Suballocator::resize(std::uint64_t, std::uint64_t) { return false; }

std::optional<std::uint64_t> Suballocator::find_evicting(const Request&, const std::function<bool(void*)>&,
                                                         std::vector<void*>& victims, std::uint64_t& cost) const {
  victims.clear();
  cost = 0;
  return std::nullopt;
}

std::unique_ptr<Suballocator> make_suballocator(Algorithm algorithm, std::uint64_t size, std::uint64_t granularity,
                                                std::uint64_t margin) {
  switch (algorithm) {
    case Algorithm::linear: return std::make_unique<LinearMetadata>(size, granularity, margin);
    case Algorithm::buddy: return std::make_unique<BuddyMetadata>(size, granularity);
    case Algorithm::free_list: break;
  }
  return std::make_unique<BlockMetadata>(size, granularity, margin);
}

BlockMetadata::BlockMetadata(std::uint64_t size, std::uint64_t granularity, std::uint64_t margin)
    : Suballocator(size), granularity_(is_pow2(granularity) ? granularity : 1), margin_(margin) {
  if (size_) {
    ranges_.emplace(0, Range{size_, Kind::free, nullptr});
    free_.emplace(size_, 0);
  }
}

std::optional<std::uint64_t> BlockMetadata::place(Ranges::const_iterator range, std::uint64_t size,
                                                  std::uint64_t alignment, Kind kind) const {
  // Free ranges are never adjacent, so a range's neighbours are allocations:
  // the margin goes inside the free range, at both ends (VMA 2.x).
  const std::uint64_t start = range->first, end = range->first + range->second.size;
  if (margin_ > end - start) return std::nullopt;
  std::uint64_t offset = align_up(start + margin_, alignment);
  const std::uint64_t g = granularity_;
  if (g > 1) {
    // A conflicting resource ending on the page where this one would start
    // pushes it to the next page.
    for (auto prev = range; prev != ranges_.begin();) {
      --prev;
      if (!same_page(prev->first, prev->second.size, offset, g)) break;
      if (granularity_conflict(prev->second.kind, kind)) {
        offset = align_up(offset, g);
        break;
      }
    }
  }
  if (offset < start || !fits_before(offset, size, margin_, end)) return std::nullopt;
  if (g > 1) {
    // A conflicting resource starting on the page where this one ends rules
    // the place out.
    for (auto next = std::next(range); next != ranges_.end(); ++next) {
      if (!same_page(offset, size, next->first, g)) break;
      if (granularity_conflict(next->second.kind, kind)) return std::nullopt;
    }
  }
  return offset;
}

std::optional<std::uint64_t> BlockMetadata::find(const Request& r) const {
  const std::uint64_t largest = largest_free();
  if (r.size == 0 || r.upper || r.size > largest || margin_ > (largest - r.size) / 2) return std::nullopt;
  // Only offset 0 is aligned to more than the block's size.
  if (r.alignment >= size_) {
    const auto first = ranges_.begin();
    return first->second.kind == Kind::free ? place(first, r.size, r.alignment, r.kind) : std::nullopt;
  }
  for (auto it = free_.lower_bound({r.size + 2 * margin_, 0}); it != free_.end(); ++it) {
    const auto range = ranges_.find(it->second);
    if (auto offset = place(range, r.size, r.alignment, r.kind)) return offset;
  }
  return std::nullopt;
}

void BlockMetadata::allocate(std::uint64_t offset, const Request& r, void* user) {
  const std::uint64_t size = r.size;
  auto it = ranges_.upper_bound(offset);
  assert(it != ranges_.begin());
  --it;
  const std::uint64_t start = it->first, end = it->first + it->second.size;
  assert(it->second.kind == Kind::free && offset + size <= end);
  free_.erase({it->second.size, start});
  if (offset > start) {
    it->second.size = offset - start;
    free_.emplace(offset - start, start);
    it = ranges_.emplace_hint(std::next(it), offset, Range{});
  }
  it->second = Range{size, r.kind, user};
  if (offset + size < end) {
    ranges_.emplace_hint(std::next(it), offset + size, Range{end - offset - size, Kind::free, nullptr});
    free_.emplace(end - offset - size, offset + size);
  }
  used_ += size;
  ++allocations_;
}

void BlockMetadata::free(std::uint64_t offset) {
  auto it = ranges_.find(offset);
  assert(it != ranges_.end() && it->second.kind != Kind::free);
  used_ -= it->second.size;
  --allocations_;
  it->second.kind = Kind::free;
  it->second.user = nullptr;
  if (auto next = std::next(it); next != ranges_.end() && next->second.kind == Kind::free) {
    free_.erase({next->second.size, next->first});
    it->second.size += next->second.size;
    ranges_.erase(next);
  }
  if (it != ranges_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.kind == Kind::free) {
      free_.erase({prev->second.size, prev->first});
      prev->second.size += it->second.size;
      ranges_.erase(it);
      it = prev;
    }
  }
  free_.emplace(it->second.size, it->first);
}

bool BlockMetadata::resize(std::uint64_t offset, std::uint64_t new_size) {
  auto it = ranges_.find(offset);
  if (it == ranges_.end() || it->second.kind == Kind::free || new_size == 0) return false;
  const std::uint64_t old_size = it->second.size;
  if (new_size == old_size) return true;
  auto next = std::next(it);
  const bool next_free = next != ranges_.end() && next->second.kind == Kind::free;
  const std::uint64_t room = old_size + (next_free ? next->second.size : 0);
  // Growing keeps the margin before whatever follows (or the block's end).
  if (new_size > old_size && !fits_before(0, new_size, margin_, room)) return false;
  if (next_free) {
    free_.erase({next->second.size, next->first});
    ranges_.erase(next);
  }
  it->second.size = new_size;
  if (room > new_size) {
    ranges_.emplace_hint(std::next(it), offset + new_size, Range{room - new_size, Kind::free, nullptr});
    free_.emplace(room - new_size, offset + new_size);
  }
  used_ = used_ - old_size + new_size;
  return true;
}

std::optional<std::uint64_t> BlockMetadata::find_evicting(const Request& r, const std::function<bool(void*)>& evictable,
                                                          std::vector<void*>& victims, std::uint64_t& cost) const {
  // One pass with a window [it, j) of ranges: both ends only move forward,
  // so a block of n ranges costs O(n), whatever the input. The margins are
  // counted at both ends of the window, as if its neighbours stayed.
  const std::uint64_t size = r.size;
  auto usable = [&](const Range& x) { return x.kind == Kind::free || evictable(x.user); };
  std::optional<std::uint64_t> best;
  Ranges::const_iterator best_it;
  cost = UINT64_MAX;
  victims.clear();
  if (size == 0 || r.upper || !fits_before(0, size, 2 * margin_, size_)) return std::nullopt;
  std::uint64_t window = 0;  // evicted bytes in [it, j)
  auto j = ranges_.begin();
  for (auto it = ranges_.begin(); it != ranges_.end(); ++it) {
    if (j == it) window = 0;
    if (!usable(it->second)) {
      j = std::next(it);
      window = 0;
      continue;
    }
    const std::uint64_t offset = align_up(it->first + margin_, r.alignment);
    if (offset < it->first || !fits_before(offset, size, margin_, size_)) break;
    bool blocked = false;
    while (j != ranges_.end() && j->first < offset + size + margin_) {
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
  if (best)
    for (auto k = best_it; k != ranges_.end() && k->first < *best + size + margin_; ++k)
      if (k->second.kind != Kind::free) victims.push_back(k->second.user);
  return best;
}

void BlockMetadata::for_each_allocation(const std::function<void(std::uint64_t, std::uint64_t, Kind, void*)>& f) const {
  for (const auto& [offset, r] : ranges_)
    if (r.kind != Kind::free) f(offset, r.size, r.kind, r.user);
}

std::string BlockMetadata::validate() const {
  std::uint64_t expect = 0, used = 0, last_end = 0;
  std::size_t allocations = 0, frees = 0;
  bool prev_free = false;
  for (const auto& [offset, r] : ranges_) {
    if (offset != expect) return "gap or overlap at " + std::to_string(offset);
    if (r.size == 0) return "empty range at " + std::to_string(offset);
    const bool is_free = r.kind == Kind::free;
    if (is_free && prev_free) return "adjacent free ranges at " + std::to_string(offset);
    if (is_free) {
      ++frees;
      if (!free_.count({r.size, offset})) return "free range not indexed at " + std::to_string(offset);
    } else {
      if (offset < last_end + margin_) return "margin missing before " + std::to_string(offset);
      last_end = offset + r.size;
      ++allocations;
      used += r.size;
    }
    prev_free = is_free;
    expect = offset + r.size;
  }
  if (expect != size_) return "ranges end at " + std::to_string(expect) + ", block size " + std::to_string(size_);
  if (allocations && !fits_before(last_end, 0, margin_, size_)) return "margin missing at the block's end";
  if (frees != free_.size()) return "stale free index entries";
  if (used != used_ || allocations != allocations_) return "counters out of step";
  return {};
}

}  // namespace libtrace::alloc
