// SPDX-License-Identifier: MIT
// VMA 2.x's linear block algorithm: stack, ring buffer and double stack.
#include "libtrace/alloc/linear.hpp"

#include <algorithm>
#include <cassert>

namespace libtrace::alloc {

namespace {

// `v` rounded up to `a`; an alignment beyond the block leaves only offset 0
// (and keeps the sum from overflowing).
std::optional<std::uint64_t> aligned_up(std::uint64_t v, std::uint64_t a, std::uint64_t block) {
  if (a > block) return v == 0 ? std::optional<std::uint64_t>(0) : std::nullopt;
  return align_up(v, a);
}

}  // namespace

LinearMetadata::LinearMetadata(std::uint64_t size, std::uint64_t granularity, std::uint64_t margin)
    : Suballocator(size),
      granularity_(is_pow2(granularity) ? granularity : 1),
      margin_(margin),
      free_ranges_(size > 0) {}

bool LinearMetadata::conflict_below(const Entries& e, std::uint64_t offset, Kind kind) const {
  for (auto it = e.lower_bound(offset); it != e.begin();) {
    --it;
    if (!same_page(it->first, it->second.size, offset, granularity_)) break;
    if (granularity_conflict(it->second.kind, kind)) return true;
  }
  return false;
}

bool LinearMetadata::conflict_above(const Entries& e, std::uint64_t offset, std::uint64_t size, Kind kind) const {
  for (auto it = e.lower_bound(offset); it != e.end(); ++it) {
    if (!same_page(offset, size, it->first, granularity_)) break;
    if (granularity_conflict(it->second.kind, kind)) return true;
  }
  return false;
}

std::optional<std::uint64_t> LinearMetadata::find_after_first(const Request& r) const {
  auto offset = aligned_up(end_of(first_) + margin_, r.alignment, size_);
  if (!offset) return std::nullopt;
  // A conflicting neighbour below moves the allocation to the next page;
  // one above (the upper stack) rules the place out, as in VMA.
  if (granularity_ > 1 && conflict_below(first_, *offset, r.kind)) offset = align_up(*offset, granularity_);
  const std::uint64_t limit = mode_ == Mode::double_stack ? second_.begin()->first : size_;
  if (!fits_before(*offset, r.size, margin_, limit)) return std::nullopt;
  if (granularity_ > 1 && mode_ == Mode::double_stack && conflict_above(second_, *offset, r.size, r.kind))
    return std::nullopt;
  return offset;
}

std::optional<std::uint64_t> LinearMetadata::find_wrapped(const Request& r) const {
  // After the ring's last allocation (the block's start if none yet), up
  // to the first vector's oldest live one.
  auto offset = aligned_up(end_of(second_) + margin_, r.alignment, size_);
  if (!offset) return std::nullopt;
  if (granularity_ > 1 && conflict_below(second_, *offset, r.kind)) offset = align_up(*offset, granularity_);
  if (!fits_before(*offset, r.size, margin_, first_.begin()->first)) return std::nullopt;
  if (granularity_ > 1 && conflict_above(first_, *offset, r.size, r.kind)) return std::nullopt;
  return offset;
}

std::optional<std::uint64_t> LinearMetadata::find_upper(const Request& r) const {
  // Below the upper stack's top (the block's end if none yet), its margin
  // after it; the first vector's end and a margin below it.
  const std::uint64_t top = second_.empty() ? size_ : second_.begin()->first;
  if (!fits_before(0, r.size, margin_, top)) return std::nullopt;
  std::uint64_t offset = align_down(top - r.size - margin_, r.alignment);
  // A conflicting neighbour above moves the offset down to a page's start.
  // That is VMA 2.x's rule, kept for the same placements, though an
  // allocation smaller than a page then still ends on the neighbour's page.
  if (granularity_ > 1 && conflict_above(second_, offset, r.size, r.kind)) offset = align_down(offset, granularity_);
  const std::uint64_t lower = end_of(first_);
  if (offset < lower || offset - lower < margin_) return std::nullopt;
  if (granularity_ > 1 && conflict_below(first_, offset, r.kind)) return std::nullopt;
  return offset;
}

std::optional<std::uint64_t> LinearMetadata::find(const Request& r) const {
  if (r.size == 0 || r.size > size_) return std::nullopt;
  // VMA refuses an upper allocation in a ring buffer (and a lower one never
  // goes after the first vector there: that space is behind the ring).
  if (r.upper) return mode_ == Mode::ring_buffer ? std::nullopt : find_upper(r);
  if (mode_ != Mode::ring_buffer)
    if (auto offset = find_after_first(r)) return offset;
  if (mode_ != Mode::double_stack && !first_.empty()) return find_wrapped(r);
  return std::nullopt;
}

void LinearMetadata::allocate(std::uint64_t offset, const Request& r, void* user) {
  const Entry e{r.size, r.kind, user};
  if (r.upper) {
    assert(mode_ != Mode::ring_buffer);
    second_.emplace(offset, e);
    mode_ = Mode::double_stack;
  } else if (!first_.empty() && offset < first_.begin()->first) {
    assert(mode_ != Mode::double_stack);
    second_.emplace(offset, e);
    mode_ = Mode::ring_buffer;
  } else {
    first_.emplace(offset, e);
  }
  count_ranges(offset, r.size, +1);
  used_ += r.size;
  ++allocations_;
}

void LinearMetadata::free(std::uint64_t offset) {
  Entries* from = &first_;
  auto it = first_.find(offset);
  if (it == first_.end()) {
    from = &second_;
    it = second_.find(offset);
  }
  assert(it != from->end());
  used_ -= it->second.size;
  --allocations_;
  count_ranges(offset, it->second.size, -1);
  from->erase(it);
  if (first_.empty() && mode_ == Mode::ring_buffer) std::swap(first_, second_);
  if (second_.empty()) mode_ = Mode::single;
}

std::uint64_t LinearMetadata::largest_free_range() const {
  // Where find() looks: after the first vector (up to the upper stack) and,
  // unless the block is a double stack, before the first vector's oldest
  // allocation (from the ring's end).
  switch (mode_) {
    case Mode::double_stack: return second_.begin()->first - end_of(first_);
    case Mode::ring_buffer: return first_.begin()->first - end_of(second_);
    case Mode::single: break;
  }
  return std::max(size_ - end_of(first_), first_.empty() ? 0 : first_.begin()->first);
}

void LinearMetadata::count_ranges(std::uint64_t offset, std::uint64_t size, int sign) {
  // The neighbours in either vector, the allocation itself left out: one
  // free range between them becomes up to two, or the other way round.
  std::uint64_t prev_end = 0, next_start = size_;
  for (const Entries* e : {&first_, &second_}) {
    const auto it = e->lower_bound(offset);
    const auto next = it != e->end() && it->first == offset ? std::next(it) : it;
    if (next != e->end()) next_start = std::min(next_start, next->first);
    if (it != e->begin()) {
      const auto prev = std::prev(it);
      prev_end = std::max(prev_end, prev->first + prev->second.size);
    }
  }
  const std::size_t whole = next_start > prev_end;
  const std::size_t split = std::size_t{offset > prev_end} + std::size_t{next_start > offset + size};
  free_ranges_ = sign > 0 ? free_ranges_ + split - whole : free_ranges_ + whole - split;
}

std::optional<std::uint64_t> LinearMetadata::find_evicting(const Request& r,
                                                           const std::function<bool(void*)>& evictable,
                                                           std::vector<void*>& victims, std::uint64_t& cost) const {
  victims.clear();
  cost = 0;
  if (r.size == 0 || r.size > size_ || r.upper || mode_ == Mode::double_stack || first_.empty()) return std::nullopt;
  const auto offset = aligned_up(end_of(second_) + margin_, r.alignment, size_);
  if (!offset) return std::nullopt;
  // The oldest allocations in the way go, in order; one that cannot stops it.
  std::uint64_t evicted = 0;
  auto it = first_.begin();
  for (; it != first_.end() && it->first < *offset + r.size + margin_; ++it) {
    if (!evictable(it->second.user)) {
      victims.clear();
      return std::nullopt;
    }
    victims.push_back(it->second.user);
    evicted += it->second.size;
  }
  if (!fits_before(*offset, r.size, margin_, it == first_.end() ? size_ : it->first)) {
    victims.clear();
    return std::nullopt;
  }
  cost = evicted;
  return offset;
}

void LinearMetadata::for_each_allocation(
    const std::function<void(std::uint64_t, std::uint64_t, Kind, void*)>& f) const {
  const Entries& low = mode_ == Mode::ring_buffer ? second_ : first_;
  const Entries& high = mode_ == Mode::ring_buffer ? first_ : second_;
  for (const Entries* e : {&low, &high})
    for (const auto& [offset, x] : *e) f(offset, x.size, x.kind, x.user);
}

std::string LinearMetadata::validate() const {
  if (second_.empty() != (mode_ == Mode::single)) return "second vector and mode disagree";
  if (mode_ == Mode::ring_buffer && first_.empty()) return "a ring buffer without a first vector";
  if (mode_ == Mode::ring_buffer && end_of(second_) > first_.begin()->first) return "ring overlaps the first vector";
  if (mode_ == Mode::double_stack && end_of(first_) > second_.begin()->first) return "stacks overlap";
  std::uint64_t last_end = 0, used = 0;
  std::size_t count = 0, ranges = 0;
  std::string error;
  for_each_allocation([&](std::uint64_t offset, std::uint64_t size, Kind, void*) {
    if (!error.empty()) return;
    if (size == 0)
      error = "empty allocation at " + std::to_string(offset);
    else if (offset < last_end + margin_)
      error = "overlap or margin missing at " + std::to_string(offset);
    else if (!fits_before(offset, size, 0, size_))
      error = "allocation past the block at " + std::to_string(offset);
    ranges += offset > last_end;
    last_end = offset + size;
    used += size;
    ++count;
  });
  if (!error.empty()) return error;
  if (count && !fits_before(last_end, 0, margin_, size_)) return "margin missing at the block's end";
  ranges += size_ > last_end;
  if (ranges != free_ranges_) return "free range count is off";
  if (used != used_ || count != allocations_) return "counters out of step";
  return {};
}

}  // namespace libtrace::alloc
