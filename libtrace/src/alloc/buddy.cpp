// SPDX-License-Identifier: MIT
// VMA 2.x's buddy block algorithm: power-of-two nodes, split and merged.
#include "libtrace/alloc/buddy.hpp"

#include <algorithm>
#include <bit>
#include <cassert>

namespace libtrace::alloc {

BuddyMetadata::BuddyMetadata(std::uint64_t size, std::uint64_t granularity)
    : Suballocator(size),
      granularity_(is_pow2(granularity) ? granularity : 1),
      usable_(size ? std::bit_floor(size) : 0),
      levels_(1) {
  while (levels_ < kMaxLevels && node_size(levels_) >= kMinNodeSize) ++levels_;
  free_.resize(levels_);
  free_where_.resize(levels_);
  if (usable_) push_free(0, 0);
}

Request BuddyMetadata::effective(const Request& r) const {
  Request e = r;
  if (e.alignment == 0) e.alignment = 1;
  if (granularity_ > 1 && (r.kind == Kind::unknown || r.kind == Kind::image_unknown || r.kind == Kind::image_optimal)) {
    e.alignment = std::max(e.alignment, granularity_);
    e.size = std::max(e.size, granularity_);
  }
  return e;
}

unsigned BuddyMetadata::level_for(std::uint64_t size) const {
  unsigned level = 0;
  while (level + 1 < levels_ && size <= node_size(level + 1)) ++level;
  return level;
}

std::uint64_t BuddyMetadata::node_size_for(const Request& r) const {
  const Request e = effective(r);
  return e.size == 0 || e.size > usable_ ? 0 : node_size(level_for(r.size));
}

void BuddyMetadata::push_free(unsigned level, std::uint64_t offset) {
  free_[level].push_front(offset);
  free_where_[level][offset] = free_[level].begin();
  ++free_nodes_;
}

void BuddyMetadata::erase_free(unsigned level, std::uint64_t offset) {
  const auto w = free_where_[level].find(offset);
  assert(w != free_where_[level].end());
  free_[level].erase(w->second);
  free_where_[level].erase(w);
  --free_nodes_;
}

std::uint64_t BuddyMetadata::largest_free_range() const {
  for (unsigned level = 0; level < levels_; ++level)
    if (!free_[level].empty()) return node_size(level);
  return 0;
}

std::optional<std::uint64_t> BuddyMetadata::find(const Request& r) const {
  const Request e = effective(r);
  if (e.size == 0 || r.upper || e.size > usable_) return std::nullopt;
  // The node size that holds it first, then ever larger ones; in each
  // level the first aligned free node in list order.
  for (unsigned level = level_for(e.size) + 1; level-- > 0;)
    for (const std::uint64_t offset : free_[level])
      if (offset % e.alignment == 0) return offset;
  return std::nullopt;
}

void BuddyMetadata::allocate(std::uint64_t offset, const Request& r, void* user) {
  // The node found for the granularity-sized request is split down to the
  // allocation's own size, as VMA 2.x does: the rest of that page stays free
  // for others.
  const unsigned target = level_for(r.size);
  // Free nodes never overlap, so one level at most has a free node here.
  unsigned level = 0;
  while (level <= target && !free_where_[level].count(offset)) ++level;
  assert(level <= target);
  erase_free(level, offset);
  // Split down to the target: each time the right half goes to the front
  // of its level's free list and the left half is split on (VMA adds both
  // halves to the front and takes the left one).
  for (; level < target; ++level) push_free(level + 1, offset + node_size(level + 1));
  allocated_.emplace(offset, Node{level, r.size, r.kind, user});
  used_ += r.size;
  ++allocations_;
}

void BuddyMetadata::free(std::uint64_t offset) {
  const auto it = allocated_.find(offset);
  assert(it != allocated_.end());
  unsigned level = it->second.level;
  used_ -= it->second.size;
  --allocations_;
  allocated_.erase(it);
  // Merge with the buddy while it is free: the parent is free instead.
  for (; level > 0; --level) {
    const std::uint64_t buddy = offset ^ node_size(level);
    if (!free_where_[level].count(buddy)) break;
    erase_free(level, buddy);
    offset = std::min(offset, buddy);
  }
  push_free(level, offset);
}

void BuddyMetadata::for_each_allocation(const std::function<void(std::uint64_t, std::uint64_t, Kind, void*)>& f) const {
  for (const auto& [offset, n] : allocated_) f(offset, n.size, n.kind, n.user);
}

std::string BuddyMetadata::validate() const {
  struct Seen {
    unsigned level;
    bool is_free;
  };
  std::map<std::uint64_t, Seen> nodes;
  std::size_t listed = 0;
  for (unsigned level = 0; level < levels_; ++level) {
    if (free_[level].size() != free_where_[level].size()) return "free list and its index disagree";
    for (auto it = free_[level].begin(); it != free_[level].end(); ++it) {
      const auto w = free_where_[level].find(*it);
      if (w == free_where_[level].end() || w->second != it) return "free node not indexed at " + std::to_string(*it);
      if (!nodes.emplace(*it, Seen{level, true}).second) return "two nodes at " + std::to_string(*it);
      // Two free buddies would have been merged.
      if (level > 0 && free_where_[level].count(*it ^ node_size(level)))
        return "unmerged buddies at " + std::to_string(*it);
      ++listed;
    }
  }
  if (listed != free_nodes_) return "free node count is off";
  std::uint64_t used = 0;
  for (const auto& [offset, n] : allocated_) {
    if (!nodes.emplace(offset, Seen{n.level, false}).second) return "two nodes at " + std::to_string(offset);
    if (n.level != level_for(n.size)) return "allocation at " + std::to_string(offset) + " in a node of the wrong size";
    used += n.size;
  }
  // The nodes tile the usable size, each aligned to its own size.
  std::uint64_t expect = 0;
  for (const auto& [offset, s] : nodes) {
    if (offset != expect) return "gap or overlap at " + std::to_string(offset);
    if (offset % node_size(s.level)) return "misaligned node at " + std::to_string(offset);
    expect = offset + node_size(s.level);
  }
  if (expect != usable_) return "nodes end at " + std::to_string(expect);
  if (used != used_ || allocated_.size() != allocations_) return "counters out of step";
  return {};
}

}  // namespace libtrace::alloc
