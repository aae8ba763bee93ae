// SPDX-License-Identifier: MIT
// Suballocation of one device memory object, as trak-replay does it for VMA
// recordings. VMA 2.x has three algorithms, one per block, behind one
// interface here (Suballocator): the default free list (BlockMetadata below:
// ranges ordered by offset covering the whole block, free ranges indexed by
// size for best fit, neighbours coalesced on free), the linear one of custom
// pools with VMA_POOL_CREATE_LINEAR_ALGORITHM_BIT (libtrace/alloc/linear.hpp) and the
// buddy one of VMA_POOL_CREATE_BUDDY_ALGORITHM_BIT (libtrace/alloc/buddy.hpp).
// Alignment, bufferImageGranularity and VMA_DEBUG_MARGIN are handled as VMA
// 2.x does. Pure bookkeeping: the device memory itself is the caller's
// (libtrace/src/vk/device_alloc.cpp); trak-replay --simulate uses the same
// linear and buddy blocks (libtrace/src/vma/sim.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace libtrace::alloc {

// What occupies a range, in VMA's VmaSuballocationType order: buffers and
// linear images must not share a bufferImageGranularity page with optimal
// images; unknown contents conflict with everything.
enum class Kind : std::uint8_t { free, unknown, buffer, image_unknown, image_linear, image_optimal };

bool granularity_conflict(Kind a, Kind b);

inline std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return a > 1 ? (v + a - 1) & ~(a - 1) : v; }
inline std::uint64_t align_down(std::uint64_t v, std::uint64_t a) { return a > 1 ? v & ~(a - 1) : v; }
inline bool is_pow2(std::uint64_t v) { return v && !(v & (v - 1)); }
// Whether the last byte of A and the first byte of B fall on one page.
inline bool same_page(std::uint64_t a_offset, std::uint64_t a_size, std::uint64_t b_offset, std::uint64_t page) {
  return align_down(a_offset + a_size - 1, page) == align_down(b_offset, page);
}
// Whether [offset, offset + size) and a margin after it end by `end`,
// without overflow.
inline bool fits_before(std::uint64_t offset, std::uint64_t size, std::uint64_t margin, std::uint64_t end) {
  return offset <= end && size <= end - offset && margin <= end - offset - size;
}

// VMA_DEBUG_MARGIN is taken as at most this: already more than any block
// holds, and small enough that offset sums never wrap.
inline constexpr std::uint64_t kMaxDebugMargin = 1ull << 40;

// The placement algorithm of a block: VMA's default, or the one a custom
// pool's flags ask for.
enum class Algorithm : std::uint8_t { free_list, linear, buddy };
// From VmaPoolCreateFlags: LINEAR_ALGORITHM_BIT (0x4) or BUDDY_ALGORITHM_BIT
// (0x8); with both (invalid for VMA), linear.
Algorithm pool_algorithm(std::uint64_t pool_flags);
std::string_view algorithm_name(Algorithm a);  // "free list", "linear", "buddy"

// The unused memory of some blocks: its ranges, the largest usable one
// (largest_free_range()), and how fragmented it is: the share of the unused
// bytes that lie outside each block's largest usable range (0 when every
// block's unused memory is one range, however many blocks; near 1 when it is
// scattered in small holes, or in holes the algorithm never reuses).
struct UnusedSpace {
  std::uint64_t ranges = 0, largest = 0, bytes = 0, in_largest = 0;
  // One block: its size, the bytes its allocations asked for, and what
  // free_range_count() and largest_free_range() say.
  void add(std::uint64_t block_size, std::uint64_t used, std::uint64_t free_ranges, std::uint64_t largest_free);
  double fragmentation() const;
};

// What one allocation asks of a block.
struct Request {
  std::uint64_t size = 0;
  std::uint64_t alignment = 1;  // a power of two
  Kind kind = Kind::unknown;
  bool upper = false;  // VMA_ALLOCATION_CREATE_UPPER_ADDRESS_BIT: linear blocks only
};

// The bookkeeping of one block, whatever its algorithm. `user` tags are the
// caller's, handed back by for_each_allocation() and find_evicting().
class Suballocator {
 public:
  virtual ~Suballocator() = default;
  virtual Algorithm algorithm() const = 0;

  // The offset where an allocation would go, or nothing. Changes nothing.
  virtual std::optional<std::uint64_t> find(const Request& r) const = 0;
  // Places an allocation at an offset that find() returned for `r`.
  virtual void allocate(std::uint64_t offset, const Request& r, void* user) = 0;
  // Frees the allocation that starts at `offset`.
  virtual void free(std::uint64_t offset) = 0;
  // Grows or shrinks an allocation in place (VMA 2.2's vmaResizeAllocation);
  // only the free list can.
  virtual bool resize(std::uint64_t offset, std::uint64_t new_size);
  // Like find(), but allocations that `evictable(user)` approves may go
  // (VMA's CAN_MAKE_OTHER_LOST): the place that costs the fewest evicted
  // bytes, those allocations' tags in `victims`. Granularity is left to
  // the find() that follows the eviction. Buddy blocks never evict: VMA
  // 2.x's buddy allocations never become lost.
  virtual std::optional<std::uint64_t> find_evicting(const Request& r, const std::function<bool(void*)>& evictable,
                                                     std::vector<void*>& victims, std::uint64_t& cost) const;
  // f(offset, size, kind, user) for every allocation, in offset order.
  virtual void for_each_allocation(const std::function<void(std::uint64_t, std::uint64_t, Kind, void*)>& f) const = 0;
  // Unused ranges, as VMA's statistics count them.
  virtual std::size_t free_range_count() const = 0;
  // The largest unused range the next allocation could go into (margins
  // included): a free list's largest range, a buddy block's largest free
  // node, a linear block's space at its end or in its ring. Space that the
  // algorithm cannot reuse (a linear block's holes) is unused, not free.
  virtual std::uint64_t largest_free_range() const = 0;
  // Every invariant; "" when all hold.
  virtual std::string validate() const = 0;

  std::uint64_t size() const { return size_; }
  std::uint64_t used() const { return used_; }
  std::size_t allocation_count() const { return allocations_; }
  bool empty() const { return allocations_ == 0; }

 protected:
  explicit Suballocator(std::uint64_t size) : size_(size) {}
  std::uint64_t size_;
  std::uint64_t used_ = 0;  // the sizes asked for, not what rounding took
  std::size_t allocations_ = 0;
};

// A block of `algorithm`: `granularity` is bufferImageGranularity (a power
// of two; 1 = none), `margin` VMA_DEBUG_MARGIN (VMA 2.x applies none in
// buddy blocks).
std::unique_ptr<Suballocator> make_suballocator(Algorithm algorithm, std::uint64_t size, std::uint64_t granularity,
                                                std::uint64_t margin);

// VMA's default algorithm: best fit over a free list.
class BlockMetadata final : public Suballocator {
 public:
  // `granularity` is bufferImageGranularity (a power of two; 1 = none);
  // `margin` bytes stay free before and after every allocation (VMA 2.x's
  // VMA_DEBUG_MARGIN: also before the first and after the last, once
  // between neighbours).
  BlockMetadata(std::uint64_t size, std::uint64_t granularity, std::uint64_t margin = 0);

  Algorithm algorithm() const override { return Algorithm::free_list; }
  // The smallest free range that fits once aligned (and moved off a
  // conflicting granularity page). `upper` is not for this algorithm: VMA
  // refuses it before a block is asked.
  std::optional<std::uint64_t> find(const Request& r) const override;
  std::optional<std::uint64_t> find(std::uint64_t size, std::uint64_t alignment, Kind kind) const {
    return find(Request{size, alignment, kind, false});
  }
  void allocate(std::uint64_t offset, const Request& r, void* user) override;
  void allocate(std::uint64_t offset, std::uint64_t size, Kind kind, void* user) {
    allocate(offset, Request{size, 1, kind, false}, user);
  }
  void free(std::uint64_t offset) override;
  // False if the next range is not free and large enough.
  bool resize(std::uint64_t offset, std::uint64_t new_size) override;
  std::optional<std::uint64_t> find_evicting(const Request& r, const std::function<bool(void*)>& evictable,
                                             std::vector<void*>& victims, std::uint64_t& cost) const override;
  void for_each_allocation(const std::function<void(std::uint64_t, std::uint64_t, Kind, void*)>& f) const override;
  std::size_t free_range_count() const override { return free_.size(); }
  std::uint64_t largest_free_range() const override { return largest_free(); }
  // Ranges contiguous and covering the block, free ranges indexed and never
  // adjacent, margins kept, counters right.
  std::string validate() const override;

  std::uint64_t granularity() const { return granularity_; }
  std::uint64_t margin() const { return margin_; }
  std::uint64_t largest_free() const { return free_.empty() ? 0 : free_.rbegin()->first; }

 private:
  struct Range {
    std::uint64_t size = 0;
    Kind kind = Kind::free;
    void* user = nullptr;
  };
  using Ranges = std::map<std::uint64_t, Range>;
  std::optional<std::uint64_t> place(Ranges::const_iterator range, std::uint64_t size, std::uint64_t alignment,
                                     Kind kind) const;

  std::uint64_t granularity_, margin_;
  Ranges ranges_;                                           // offset -> range
  std::set<std::pair<std::uint64_t, std::uint64_t>> free_;  // (size, offset)
};

}  // namespace libtrace::alloc
