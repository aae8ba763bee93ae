// SPDX-License-Identifier: MIT
// What a VMA application does to live allocations: map and unmap, flush and
// invalidate, lost allocations, resizing and defragmentation.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "vk/device_alloc_internal.hpp"

namespace libtrace::vk {

void DeviceAllocator::block_map(Block& b, std::uint32_t count) {
  if (b.map_count == 0) {
    if (vkMapMemory(dev_.handle(), b.memory, 0, VK_WHOLE_SIZE, 0, &b.data) != VK_SUCCESS) return;
  }
  b.map_count += count;
}

void DeviceAllocator::block_unmap(Block& b, std::uint32_t count) {
  if (b.map_count == 0) return;
  b.map_count -= std::min(count, b.map_count);
  if (b.map_count == 0) {
    vkUnmapMemory(dev_.handle(), b.memory);
    b.data = nullptr;
  }
}

MapResult DeviceAllocator::map(Allocation* a, void** data) {
  if (a->lost) return MapResult::lost;
  if (!(dev_.memory().memoryTypes[a->type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
    return MapResult::not_host_visible;
  if (a->dedicated) {
    if (a->map_count == 0 &&
        vkMapMemory(dev_.handle(), a->memory, 0, VK_WHOLE_SIZE, 0, &a->dedicated_data) != VK_SUCCESS)
      return MapResult::failed;
    if (data) *data = a->dedicated_data;
  } else {
    block_map(*a->block, 1);
    if (a->block->map_count == 0) return MapResult::failed;
    if (data) *data = static_cast<char*>(a->block->data) + a->offset;
  }
  ++a->map_count;
  return MapResult::ok;
}

bool DeviceAllocator::unmap(Allocation* a) {
  // A persistent mapping (VMA_ALLOCATION_CREATE_MAPPED_BIT) is not the
  // application's to undo: VMA asserts on such an unmap.
  if (a->map_count <= (a->persistent_map ? 1u : 0u)) return false;
  unmap_one(a);
  return true;
}

void DeviceAllocator::unmap_one(Allocation* a) {
  --a->map_count;
  if (a->dedicated) {
    if (a->map_count == 0) {
      vkUnmapMemory(dev_.handle(), a->memory);
      a->dedicated_data = nullptr;
    }
  } else {
    block_unmap(*a->block, 1);
  }
}

SyncResult DeviceAllocator::sync(Allocation* a, std::uint64_t offset, std::uint64_t size, bool invalidate) {
  if (a->lost) return SyncResult::lost;
  const bool mapped = a->dedicated ? a->map_count > 0 : a->block->map_count > 0;
  if (!mapped) return SyncResult::not_mapped;
  if (size == 0 || offset >= a->size) return SyncResult::nothing;
  const std::uint64_t len = size == VK_WHOLE_SIZE || size > a->size - offset ? a->size - offset : size;
  const std::uint64_t memory_size = a->dedicated ? a->size : a->block->meta->size();
  const std::uint64_t start = alloc::align_down(a->offset + offset, atom_);
  const std::uint64_t end = alloc::align_up(a->offset + offset + len, atom_);
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = a->memory;
  range.offset = start;
  // A range must be whole atoms or reach the end of the memory object.
  range.size = end >= memory_size ? VK_WHOLE_SIZE : end - start;
  const VkResult r = invalidate ? vkInvalidateMappedMemoryRanges(dev_.handle(), 1, &range)
                                : vkFlushMappedMemoryRanges(dev_.handle(), 1, &range);
  return r == VK_SUCCESS ? SyncResult::done : SyncResult::nothing;
}

bool DeviceAllocator::touch(Allocation* a, std::uint32_t frame) {
  if (a->lost) return false;
  if (a->can_become_lost) a->last_use_frame = std::max(a->last_use_frame, frame);
  return true;
}

std::size_t DeviceAllocator::make_lost(Pool* pool, std::uint32_t frame) {
  List& l = *pool->list;
  // VMA 2.x's buddy pools never make their allocations lost.
  if (l.algorithm == alloc::Algorithm::buddy) return 0;
  std::vector<Allocation*> victims;
  for (const auto& b : l.blocks)
    b->meta->for_each_allocation([&](std::uint64_t, std::uint64_t, alloc::Kind, void* user) {
      auto* a = static_cast<Allocation*>(user);
      // VMA: unused for more than frameInUseCount frames; mapped ones stay.
      if (a->can_become_lost && a->map_count == 0 && std::uint64_t{a->last_use_frame} + l.frame_in_use < frame)
        victims.push_back(a);
    });
  for (Allocation* a : victims) {
    release(a);
    a->lost = true;
  }
  return victims.size();
}

Allocation* DeviceAllocator::make_others_lost(List& l, const AllocRequest& r, std::uint64_t alignment) {
  auto evictable = [&](void* user) {
    const auto* a = static_cast<const Allocation*>(user);
    return a->can_become_lost && a->map_count == 0 && std::uint64_t{a->last_use_frame} + l.frame_in_use < r.frame;
  };
  Block* best = nullptr;
  std::uint64_t best_cost = UINT64_MAX;
  std::vector<void*> victims, best_victims;
  const alloc::Request q = block_request(r, alignment);
  for (const auto& b : l.blocks) {
    std::uint64_t cost = 0;
    if (b->meta->find_evicting(q, evictable, victims, cost) && cost < best_cost) {
      best = b.get();
      best_cost = cost;
      best_victims = victims;
    }
  }
  if (!best) return nullptr;
  for (void* v : best_victims) {
    auto* a = static_cast<Allocation*>(v);
    release(a, false);
    a->lost = true;
  }
  if (auto offset = best->meta->find(q)) return place(l, *best, *offset, r, alignment);
  after_free(l, best);
  return nullptr;
}

bool DeviceAllocator::resize(Allocation* a, std::uint64_t new_size) {
  if (a->lost || a->dedicated || !a->block || new_size == 0) return false;
  if (new_size == a->size) return true;  // VMA succeeds before asking the block
  Block& b = *a->block;
  const auto ranges = static_cast<std::int64_t>(b.meta->free_range_count());
  if (!b.meta->resize(a->offset, new_size)) return false;
  account(a->type, 0, 0, 0, static_cast<std::int64_t>(new_size) - static_cast<std::int64_t>(a->size),
          static_cast<std::int64_t>(b.meta->free_range_count()) - ranges);
  a->size = new_size;
  sort_blocks(list_of(a));
  return true;
}

DefragStats DeviceAllocator::defragment(const std::vector<Allocation*>& allocations, const std::vector<Pool*>& pools,
                                        const DefragLimits& limits, const std::function<void(Allocation&)>& moved) {
  DefragStats st;
  std::vector<List*> lists;
  std::unordered_map<List*, std::vector<Allocation*>> work;
  std::unordered_set<Allocation*> seen;
  auto add = [&](Allocation* a) {
    if (!a || a->lost || a->dedicated || !a->block || !seen.insert(a).second) return;
    List* l = &list_of(a);
    if (l->algorithm != alloc::Algorithm::free_list) return;  // VMA 2.x moves nothing in linear or buddy pools
    auto& v = work[l];
    if (v.empty()) lists.push_back(l);
    v.push_back(a);
  };
  for (Allocation* a : allocations) add(a);
  for (Pool* p : pools)
    for (const auto& b : p->list->blocks)
      b->meta->for_each_allocation(
          [&](std::uint64_t, std::uint64_t, alloc::Kind, void* user) { add(static_cast<Allocation*>(user)); });

  for (List* l : lists) {
    const bool host = dev_.memory().memoryTypes[l->type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    const std::uint64_t max_bytes = host ? limits.max_bytes : limits.max_gpu_bytes;
    const std::uint64_t max_moves = host ? limits.max_allocations : limits.max_gpu_allocations;
    // Destinations from the fullest block; sources from the emptiest, the
    // largest allocations first (VMA's generic algorithm).
    std::vector<Block*> order;
    for (const auto& b : l->blocks) order.push_back(b.get());
    std::stable_sort(order.begin(), order.end(), [](Block* x, Block* y) { return x->meta->used() > y->meta->used(); });
    std::unordered_map<Block*, std::size_t> rank;
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    auto& cands = work[l];
    std::stable_sort(cands.begin(), cands.end(), [&](Allocation* x, Allocation* y) {
      if (rank[x->block] != rank[y->block]) return rank[x->block] > rank[y->block];
      return x->size > y->size;
    });
    bool stop = false;
    for (Allocation* a : cands) {
      if (stop) break;
      Block* src = a->block;
      for (std::size_t d = 0; d <= rank[src]; ++d) {
        Block* dst = order[d];
        const alloc::Request q{a->size, a->alignment, a->kind, false};
        auto offset = dst->meta->find(q);
        if (!offset || (dst == src && *offset >= a->offset)) continue;
        if (st.allocations_moved + 1 > max_moves || a->size > max_bytes - std::min(max_bytes, st.bytes_moved)) {
          stop = true;
          break;
        }
        const auto src_ranges = static_cast<std::int64_t>(src->meta->free_range_count());
        const auto dst_ranges = static_cast<std::int64_t>(dst->meta->free_range_count());
        dst->meta->allocate(*offset, q, a);
        const auto dst_mid = static_cast<std::int64_t>(dst->meta->free_range_count());
        const auto src_mid = static_cast<std::int64_t>(src->meta->free_range_count());
        src->meta->free(a->offset);
        account(l->type, 0, 0, 0, 0,
                dst == src
                    ? static_cast<std::int64_t>(src->meta->free_range_count()) - src_ranges
                    : (dst_mid - dst_ranges) + (static_cast<std::int64_t>(src->meta->free_range_count()) - src_mid));
        if (a->map_count && dst != src) {
          block_map(*dst, a->map_count);
          block_unmap(*src, a->map_count);
        }
        a->block = dst;
        a->offset = *offset;
        a->memory = dst->memory;
        st.bytes_moved += a->size;
        ++st.allocations_moved;
        if (moved) moved(*a);
        break;
      }
    }
    // Empty blocks go, down to minBlockCount (VMA's FreeEmptyBlocks).
    for (std::size_t i = l->blocks.size(); i-- > 0;) {
      Block* b = l->blocks[i].get();
      if (!b->meta->empty() || l->blocks.size() <= l->min_blocks) continue;
      ++st.blocks_freed;
      st.bytes_freed += b->meta->size();
      destroy_block(*l, b);
    }
    sort_blocks(*l);
  }
  return st;
}

}  // namespace libtrace::vk
