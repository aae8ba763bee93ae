// SPDX-License-Identifier: MIT
// Best-fit free-list suballocation of one device memory object.
#include "libtrace/vma_suballoc.hpp"

#include <cassert>

namespace libtrace::vma {

namespace {

// Whether the last byte of A and the first byte of B fall on one page.
bool same_page(std::uint64_t a_offset, std::uint64_t a_size, std::uint64_t b_offset, std::uint64_t page) {
  return align_down(a_offset + a_size - 1, page) == align_down(b_offset, page);
}

}  // namespace

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

BlockMetadata::BlockMetadata(std::uint64_t size, std::uint64_t granularity)
    : size_(size), granularity_(is_pow2(granularity) ? granularity : 1) {
  if (size_) {
    ranges_.emplace(0, Range{size_, Kind::free, nullptr});
    free_.emplace(size_, 0);
  }
}

std::optional<std::uint64_t> BlockMetadata::place(Ranges::const_iterator range, std::uint64_t size,
                                                  std::uint64_t alignment, Kind kind) const {
  const std::uint64_t start = range->first, end = range->first + range->second.size;
  std::uint64_t offset = align_up(start, alignment);
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
  if (offset < start || offset > end || size > end - offset) return std::nullopt;
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

std::optional<std::uint64_t> BlockMetadata::find(std::uint64_t size, std::uint64_t alignment, Kind kind) const {
  if (size == 0 || size > largest_free()) return std::nullopt;
  // Only offset 0 is aligned to more than the block's size.
  if (alignment >= size_) {
    const auto first = ranges_.begin();
    return first->second.kind == Kind::free ? place(first, size, alignment, kind) : std::nullopt;
  }
  for (auto it = free_.lower_bound({size, 0}); it != free_.end(); ++it) {
    const auto range = ranges_.find(it->second);
    if (auto offset = place(range, size, alignment, kind)) return offset;
  }
  return std::nullopt;
}

void BlockMetadata::allocate(std::uint64_t offset, std::uint64_t size, Kind kind, void* user) {
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
  it->second = Range{size, kind, user};
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
  if (new_size > room) return false;
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

std::string BlockMetadata::validate() const {
  std::uint64_t expect = 0, used = 0;
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
      ++allocations;
      used += r.size;
    }
    prev_free = is_free;
    expect = offset + r.size;
  }
  if (expect != size_) return "ranges end at " + std::to_string(expect) + ", block size " + std::to_string(size_);
  if (frees != free_.size()) return "stale free index entries";
  if (used != used_ || allocations != allocations_) return "counters out of step";
  return {};
}

}  // namespace libtrace::vma
