// SPDX-License-Identifier: MIT
// VMA 2.x's linear algorithm, for custom pools created with
// VMA_POOL_CREATE_LINEAR_ALGORITHM_BIT, as VMA's documentation describes it:
// allocations go after the last one and space freed in the middle is not
// reused. That gives free-at-once, stack (freeing the last allocations makes
// room at the end), ring buffer (once the first allocations are freed and the
// end is full, new ones wrap to the start of the block, up to the oldest live
// one) and double stack (VMA_ALLOCATION_CREATE_UPPER_ADDRESS_BIT allocations
// grow down from the end; not once the block is a ring buffer). A block is
// kept like VMA's two suballocation vectors: the first holds allocations in
// placement order, the second either the ring's wrapped ones (below the
// first's) or the upper stack (above them). Only live allocations are kept:
// the freed placeholders VMA keeps never change where the next one goes.
#pragma once

#include "libtrace/alloc/suballoc.hpp"

namespace libtrace::alloc {

class LinearMetadata final : public Suballocator {
 public:
  // What the second vector is now.
  enum class Mode : std::uint8_t { single, ring_buffer, double_stack };

  // `granularity` is bufferImageGranularity (1 = none); `margin` is
  // VMA_DEBUG_MARGIN, kept before and after every allocation.
  LinearMetadata(std::uint64_t size, std::uint64_t granularity, std::uint64_t margin);

  Algorithm algorithm() const override { return Algorithm::linear; }
  // Lower allocations: after the first vector's last one (the upper stack,
  // if any, is the limit); failing that, unless the block is a double
  // stack, wrapped after the ring's last one, up to the first vector's
  // oldest live allocation. Upper ones: below the upper stack's top, above
  // the first vector's end; never in a ring buffer.
  std::optional<std::uint64_t> find(const Request& r) const override;
  void allocate(std::uint64_t offset, const Request& r, void* user) override;
  // Once the first vector is empty a ring's wrapped allocations become it,
  // as in VMA; an empty second vector makes the block single again.
  void free(std::uint64_t offset) override;
  // A ring buffer's lost allocations (VMA's CAN_MAKE_OTHER_LOST in linear
  // pools): the wrapped place, evicting the first vector's oldest
  // allocations that overlap it, all of which must be evictable.
  std::optional<std::uint64_t> find_evicting(const Request& r, const std::function<bool(void*)>& evictable,
                                             std::vector<void*>& victims, std::uint64_t& cost) const override;
  void for_each_allocation(const std::function<void(std::uint64_t, std::uint64_t, Kind, void*)>& f) const override;
  std::size_t free_range_count() const override { return free_ranges_; }
  std::uint64_t largest_free_range() const override;
  std::string validate() const override;

  Mode mode() const { return mode_; }

 private:
  struct Entry {
    std::uint64_t size = 0;
    Kind kind = Kind::unknown;
    void* user = nullptr;
  };
  using Entries = std::map<std::uint64_t, Entry>;  // offset -> allocation

  static std::uint64_t end_of(const Entries& e) { return e.empty() ? 0 : e.rbegin()->first + e.rbegin()->second.size; }
  std::optional<std::uint64_t> find_after_first(const Request& r) const;
  std::optional<std::uint64_t> find_wrapped(const Request& r) const;
  std::optional<std::uint64_t> find_upper(const Request& r) const;
  // Granularity: whether an allocation of `kind` at `offset` shares a page
  // with a conflicting one among `e` below it, or above it.
  bool conflict_below(const Entries& e, std::uint64_t offset, Kind kind) const;
  bool conflict_above(const Entries& e, std::uint64_t offset, std::uint64_t size, Kind kind) const;
  // Keeps free_ranges_ right as [offset, offset + size) comes (+1) or goes (-1).
  void count_ranges(std::uint64_t offset, std::uint64_t size, int sign);

  std::uint64_t granularity_, margin_;
  Entries first_, second_;
  Mode mode_ = Mode::single;
  std::size_t free_ranges_;
};

}  // namespace libtrace::alloc
