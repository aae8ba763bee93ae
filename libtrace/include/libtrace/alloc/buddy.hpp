// SPDX-License-Identifier: MIT
// VMA 2.x's buddy algorithm, for custom pools created with
// VMA_POOL_CREATE_BUDDY_ALGORITHM_BIT. The block's size is taken down to a
// power of two (the rest is never used); that is the tree's root node, each
// level's nodes half their parent's size, down to VMA's 32-byte minimum node
// (and 30 levels at most). An allocation takes a whole node, its size rounded
// up to one: the first free node, in a level's free list, of the smallest
// size that holds it and is aligned, or else a larger one split in halves
// ("buddies") down to that size. A freed node merges with its buddy while
// that one is free too. Free lists are kept in VMA's order (a split's left
// half first, freed nodes at the front), which decides where the next
// allocation goes. VMA_DEBUG_MARGIN does not apply (VMA's documentation), and
// allocations never become lost in such pools.
#pragma once

#include <list>
#include <unordered_map>

#include "libtrace/alloc/suballoc.hpp"

namespace libtrace::alloc {

class BuddyMetadata final : public Suballocator {
 public:
  static constexpr std::uint64_t kMinNodeSize = 32;
  static constexpr unsigned kMaxLevels = 30;

  // `granularity` is bufferImageGranularity (1 = none).
  BuddyMetadata(std::uint64_t size, std::uint64_t granularity);

  Algorithm algorithm() const override { return Algorithm::buddy; }
  std::optional<std::uint64_t> find(const Request& r) const override;
  void allocate(std::uint64_t offset, const Request& r, void* user) override;
  void free(std::uint64_t offset) override;
  void for_each_allocation(const std::function<void(std::uint64_t, std::uint64_t, Kind, void*)>& f) const override;
  // Free nodes, and the unusable rest of a block that is not a power of two.
  std::size_t free_range_count() const override { return free_nodes_ + (size_ > usable_); }
  // The largest free node (the rest past a power of two is never used).
  std::uint64_t largest_free_range() const override;
  std::string validate() const override;

  std::uint64_t usable_size() const { return usable_; }
  unsigned level_count() const { return levels_; }
  // The node size an allocation of `r` takes (0: it cannot fit at all).
  std::uint64_t node_size_for(const Request& r) const;

 private:
  struct Node {
    unsigned level = 0;
    std::uint64_t size = 0;  // as asked
    Kind kind = Kind::unknown;
    void* user = nullptr;
  };
  using FreeList = std::list<std::uint64_t>;  // node offsets, front first

  std::uint64_t node_size(unsigned level) const { return usable_ >> level; }
  // VMA's rule for bufferImageGranularity: whatever might be an optimal
  // image is looked for as at least a granularity page, aligned to one
  // (it then takes a node of its own size there).
  Request effective(const Request& r) const;
  unsigned level_for(std::uint64_t size) const;
  void push_free(unsigned level, std::uint64_t offset);
  void erase_free(unsigned level, std::uint64_t offset);

  std::uint64_t granularity_, usable_;
  unsigned levels_;
  std::vector<FreeList> free_;                                                     // per level
  std::vector<std::unordered_map<std::uint64_t, FreeList::iterator>> free_where_;  // per level
  std::map<std::uint64_t, Node> allocated_;                                        // offset -> node
  std::size_t free_nodes_ = 0;
};

}  // namespace libtrace::alloc
