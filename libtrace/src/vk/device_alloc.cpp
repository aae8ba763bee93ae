// SPDX-License-Identifier: MIT
// Device memory, blocks, pools, allocation and free, and the accounting of
// every heap (see vk/device_alloc_ops.cpp for mapping, lost allocations,
// resizing and defragmentation).
#include <algorithm>
#include <bit>

#include "vk/device_alloc_internal.hpp"

namespace libtrace::vk {

std::string_view failure_name(Failure f) {
  switch (f) {
    case Failure::none: return "none";
    case Failure::heap_budget: return "heap budget exceeded";
    case Failure::allocation_count: return "maxMemoryAllocationCount reached";
    case Failure::too_large: return "larger than the device or pool allows";
    case Failure::device: return "vkAllocateMemory failed";
    case Failure::pool_full: return "custom pool at maxBlockCount";
    case Failure::never_allocate: return "NEVER_ALLOCATE and no room";
    case Failure::dedicated_in_pool: return "dedicated memory in a custom pool";
    case Failure::no_memory_type: return "no suitable memory type";
    case Failure::invalid: return "invalid parameters";
  }
  return "?";
}

DeviceAllocator::DeviceAllocator(const vk::Device& device, const AllocatorSettings& settings)
    : dev_(device), settings_(settings) {
  const auto& limits = dev_.limits();
  granularity_ = std::max<std::uint64_t>(limits.bufferImageGranularity, settings_.min_granularity);
  if (!alloc::is_pow2(granularity_)) granularity_ = std::bit_ceil(granularity_);
  atom_ = alloc::is_pow2(limits.nonCoherentAtomSize) ? limits.nonCoherentAtomSize : 1;
  max_allocation_size_ = dev_.info().max_memory_allocation_size;
  max_allocation_count_ = limits.maxMemoryAllocationCount;
  if (settings.max_memory_objects) max_allocation_count_ = std::min(max_allocation_count_, settings.max_memory_objects);
  const auto& mem = dev_.memory();
  const auto budgets = dev_.heap_budgets();
  heaps_.resize(mem.memoryHeapCount);
  peaked_.assign(mem.memoryHeapCount, false);
  space_.resize(mem.memoryHeapCount);
  for (std::uint32_t h = 0; h < mem.memoryHeapCount; ++h) {
    heaps_[h].budget = budgets[h];
    total_.budget += budgets[h];
  }
  device_allocs_.assign(mem.memoryTypeCount, {0, 0});
  for (std::uint32_t t = 0; t < mem.memoryTypeCount; ++t) {
    auto l = std::make_unique<List>();
    l->type = t;
    l->block_size = preferred_block_size(t);
    l->granularity = granularity_;
    l->margin = settings_.debug_margin;
    default_.push_back(std::move(l));
  }
}

DeviceAllocator::~DeviceAllocator() {
  while (live_) free(live_);
  for (auto& p : pools_)
    while (!p->list->blocks.empty()) destroy_block(*p->list, p->list->blocks.back().get());
  for (auto& l : default_)
    while (!l->blocks.empty()) destroy_block(*l, l->blocks.back().get());
}

std::uint64_t DeviceAllocator::preferred_block_size(std::uint32_t type) const {
  const auto& mem = dev_.memory();
  const std::uint64_t heap = mem.memoryHeaps[mem.memoryTypes[type].heapIndex].size;
  const std::uint64_t size = heap <= settings_.small_heap_max ? heap / 8 : settings_.large_heap_block_size;
  return std::max<std::uint64_t>(alloc::align_up(size, 32), 32);
}

std::uint64_t DeviceAllocator::min_alignment(std::uint32_t type) const {
  const VkMemoryPropertyFlags f = dev_.memory().memoryTypes[type].propertyFlags;
  const bool non_coherent = (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && !(f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  return std::max(settings_.min_alignment, non_coherent ? atom_ : 1);
}

void DeviceAllocator::account(std::uint32_t type, std::int64_t committed, std::int64_t blocks, std::int64_t allocations,
                              std::int64_t used, std::int64_t free_ranges) {
  auto apply = [&](HeapUsage& h) {
    h.committed += static_cast<std::uint64_t>(committed);
    const bool peaked = h.committed > h.peak_committed;
    h.blocks += static_cast<std::uint64_t>(blocks);
    h.allocations += static_cast<std::uint64_t>(allocations);
    h.used += static_cast<std::uint64_t>(used);
    h.free_ranges += static_cast<std::uint64_t>(free_ranges);
    h.peak_committed = std::max(h.peak_committed, h.committed);
    h.peak_blocks = std::max(h.peak_blocks, h.blocks);
    h.peak_allocations = std::max(h.peak_allocations, h.allocations);
    h.peak_used = std::max(h.peak_used, h.used);
    h.peak_free_ranges = std::max(h.peak_free_ranges, h.free_ranges);
    h.peak_unused = std::max(h.peak_unused, h.committed - std::min(h.committed, h.used));
    return peaked;
  };
  const std::uint32_t heap = dev_.memory().memoryTypes[type].heapIndex;
  if (apply(heaps_[heap])) peaked_any_ = peaked_[heap] = true;
  if (apply(total_)) peaked_any_ = total_peaked_ = true;
}

void DeviceAllocator::settle() {
  if (!peaked_any_) return;
  peaked_any_ = false;
  // Nothing allocated here: it runs in a destructor (Settle).
  std::fill(space_.begin(), space_.end(), alloc::UnusedSpace{});
  alloc::UnusedSpace all;
  auto add = [&](const List& l) {
    alloc::UnusedSpace& s = space_[dev_.memory().memoryTypes[l.type].heapIndex];
    for (const auto& b : l.blocks) {
      const alloc::Suballocator& m = *b->meta;
      const std::uint64_t ranges = m.free_range_count(), largest = m.largest_free_range();
      s.add(m.size(), m.used(), ranges, largest);
      all.add(m.size(), m.used(), ranges, largest);
    }
  };
  for (const auto& l : default_) add(*l);
  for (const auto& p : pools_) add(*p->list);
  auto keep = [](HeapUsage& h, const alloc::UnusedSpace& s) {
    h.unused_ranges_at_peak = s.ranges;
    h.largest_usable_at_peak = s.largest;
    h.fragmentation_at_peak = s.fragmentation();
  };
  for (std::size_t h = 0; h < heaps_.size(); ++h) {
    if (peaked_[h]) keep(heaps_[h], space_[h]);
    peaked_[h] = false;
  }
  if (total_peaked_) keep(total_, all);
  total_peaked_ = false;
}

VkDeviceMemory DeviceAllocator::allocate_memory(std::uint32_t type, std::uint64_t size, Failure& why) {
  const HeapUsage& heap = heaps_[dev_.memory().memoryTypes[type].heapIndex];
  if (max_allocation_size_ && size > max_allocation_size_) {
    why = Failure::too_large;
    return VK_NULL_HANDLE;
  }
  if (settings_.enforce_heap_budget && (size > heap.budget || heap.committed > heap.budget - size)) {
    why = Failure::heap_budget;
    return VK_NULL_HANDLE;
  }
  if (memory_objects_ >= max_allocation_count_) {
    why = Failure::allocation_count;
    return VK_NULL_HANDLE;
  }
  VkMemoryAllocateInfo ai{};
  ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  ai.allocationSize = size;
  ai.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (vkAllocateMemory(dev_.handle(), &ai, nullptr, &memory) != VK_SUCCESS) {
    why = Failure::device;
    return VK_NULL_HANDLE;
  }
  ++memory_objects_;
  ++device_allocs_[type].first;
  device_allocs_[type].second += size;
  account(type, static_cast<std::int64_t>(size), 1, 0, 0, 0);
  return memory;
}

void DeviceAllocator::free_memory(std::uint32_t type, VkDeviceMemory memory, std::uint64_t size) {
  vkFreeMemory(dev_.handle(), memory, nullptr);
  --memory_objects_;
  account(type, -static_cast<std::int64_t>(size), -1, 0, 0, 0);
}

Block* DeviceAllocator::create_block(List& list, std::uint64_t size, Failure& why) {
  VkDeviceMemory memory = allocate_memory(list.type, size, why);
  if (!memory) return nullptr;
  list.blocks.push_back(
      std::make_unique<Block>(memory, alloc::make_suballocator(list.algorithm, size, list.granularity, list.margin)));
  account(list.type, 0, 0, 0, 0, static_cast<std::int64_t>(list.blocks.back()->meta->free_range_count()));
  return list.blocks.back().get();
}

void DeviceAllocator::destroy_block(List& list, Block* block) {
  if (block->map_count) vkUnmapMemory(dev_.handle(), block->memory);
  account(list.type, 0, 0, 0, 0, -static_cast<std::int64_t>(block->meta->free_range_count()));
  free_memory(list.type, block->memory, block->meta->size());
  // Looked for from the end: pools and the allocator's teardown destroy
  // their last block each time (a pool of 60,000 minimum blocks took
  // seconds to go when each search began at the front).
  auto& bl = list.blocks;
  const auto it = std::find_if(bl.rbegin(), bl.rend(), [&](const auto& b) { return b.get() == block; });
  bl.erase(std::next(it).base());
}

void DeviceAllocator::sort_blocks(List& list) {
  // One swap per change, as VMA's IncrementallySortBlocks: the order only
  // steers the search, so a rough one is enough. A linear pool's order is
  // its blocks' age: VMA allocates from the newest only.
  if (list.algorithm == alloc::Algorithm::linear) return;
  auto& bl = list.blocks;
  for (std::size_t i = 1; i < bl.size(); ++i)
    if (bl[i - 1]->free_bytes() > bl[i]->free_bytes()) {
      std::swap(bl[i - 1], bl[i]);
      return;
    }
}

Pool* DeviceAllocator::create_pool(std::uint32_t type, std::uint64_t flags, std::uint64_t block_size,
                                   std::uint64_t min_blocks, std::uint64_t max_blocks, std::uint32_t frame_in_use,
                                   Failure& why) {
  const Settle settle{*this};
  why = Failure::none;
  if (type >= default_.size()) {
    why = Failure::no_memory_type;
    return nullptr;
  }
  if (max_blocks && min_blocks > max_blocks) {
    why = Failure::invalid;
    return nullptr;
  }
  auto pool = std::make_unique<Pool>();
  pool->flags = flags;
  pool->list = std::make_unique<List>();
  List& l = *pool->list;
  l.type = type;
  l.explicit_size = block_size != 0;
  l.block_size = block_size ? block_size : preferred_block_size(type);
  l.min_blocks = min_blocks;
  l.max_blocks = max_blocks ? max_blocks : UINT64_MAX;
  l.frame_in_use = frame_in_use;
  l.pool = pool.get();
  l.algorithm = alloc::pool_algorithm(flags);
  l.margin = settings_.debug_margin;                 // buddy blocks leave it out themselves
  constexpr std::uint64_t kIgnoreGranularity = 0x2;  // VMA_POOL_CREATE_IGNORE_BUFFER_IMAGE_GRANULARITY_BIT
  l.granularity = flags & kIgnoreGranularity ? 1 : granularity_;
  for (std::uint64_t i = 0; i < min_blocks; ++i) {
    if (!create_block(l, l.block_size, why)) {
      while (!l.blocks.empty()) destroy_block(l, l.blocks.back().get());
      return nullptr;
    }
  }
  pools_.push_back(std::move(pool));
  return pools_.back().get();
}

void DeviceAllocator::destroy_pool(Pool* pool) {
  for (Allocation* a = live_; a;) {
    Allocation* next = a->next;
    if (a->pool == pool) free(a);
    a = next;
  }
  List& l = *pool->list;
  while (!l.blocks.empty()) destroy_block(l, l.blocks.back().get());
  pools_.erase(std::find_if(pools_.begin(), pools_.end(), [&](const auto& p) { return p.get() == pool; }));
}

std::uint32_t DeviceAllocator::pool_type(const Pool* pool) const { return pool->list->type; }

alloc::Algorithm DeviceAllocator::pool_algorithm(const Pool* pool) const { return pool->list->algorithm; }

DeviceAllocator::List& DeviceAllocator::list_of(const Allocation* a) {
  return a->pool ? *a->pool->list : *default_[a->type];
}

void DeviceAllocator::link(Allocation* a) {
  a->next = live_;
  if (live_) live_->prev = a;
  live_ = a;
  ++live_count_;
}

void DeviceAllocator::unlink(Allocation* a) {
  if (a->prev)
    a->prev->next = a->next;
  else
    live_ = a->next;
  if (a->next) a->next->prev = a->prev;
  --live_count_;
}

alloc::Request DeviceAllocator::block_request(const AllocRequest& r, std::uint64_t alignment) {
  return alloc::Request{r.size, alignment, r.kind, r.upper_address};
}

Allocation* DeviceAllocator::place(List& list, Block& block, std::uint64_t offset, const AllocRequest& r,
                                   std::uint64_t alignment) {
  auto* a = new Allocation;
  a->alignment = alignment;
  a->type = list.type;
  a->offset = offset;
  a->size = r.size;
  a->memory = block.memory;
  a->kind = r.kind;
  a->block = &block;
  a->pool = list.pool;
  a->can_become_lost = r.can_become_lost;
  a->last_use_frame = r.frame;
  const auto ranges = static_cast<std::int64_t>(block.meta->free_range_count());
  block.meta->allocate(offset, block_request(r, alignment), a);
  account(list.type, 0, 0, 1, static_cast<std::int64_t>(r.size),
          static_cast<std::int64_t>(block.meta->free_range_count()) - ranges);
  link(a);
  sort_blocks(list);
  if (r.mapped && map(a) == MapResult::ok) a->persistent_map = true;
  return a;
}

Allocation* DeviceAllocator::allocate_in_list(List& l, const AllocRequest& r, std::uint64_t alignment, Failure& why) {
  // VMA answers UPPER_ADDRESS outside a one-block linear pool with
  // VK_ERROR_FEATURE_NOT_PRESENT.
  if (r.upper_address && !l.double_stack_allowed()) {
    why = Failure::invalid;
    return nullptr;
  }
  const alloc::Request q = block_request(r, alignment);
  // A linear pool allocates from its last block only (VMA 2.x): the older
  // ones wait to be emptied.
  const std::size_t from = l.algorithm == alloc::Algorithm::linear && !l.blocks.empty() ? l.blocks.size() - 1 : 0;
  for (std::size_t i = from; i < l.blocks.size(); ++i)
    if (auto offset = l.blocks[i]->meta->find(q)) return place(l, *l.blocks[i], *offset, r, alignment);
  if (r.never_allocate) {
    why = Failure::never_allocate;
  } else if (l.blocks.size() >= l.max_blocks) {
    why = Failure::pool_full;
  } else {
    // VMA 2.3: without an explicit block size the first blocks are smaller
    // (down to an eighth), and a failed block is retried at half the size.
    std::uint64_t size = l.block_size;
    int shift = 0;
    if (!l.explicit_size) {
      std::uint64_t largest = 0;
      for (const auto& b : l.blocks) largest = std::max(largest, b->meta->size());
      while (shift < 3 && size / 2 > largest && size / 2 >= r.size * 2) size /= 2, ++shift;
    }
    Block* block = create_block(l, size, why);
    while (!block && !l.explicit_size && shift < 3 && size / 2 >= r.size) {
      size /= 2;
      ++shift;
      block = create_block(l, size, why);
    }
    if (block) {
      if (auto offset = block->meta->find(q)) return place(l, *block, *offset, r, alignment);
      // Not even in a new block (alignment, margins, a buddy's usable size):
      // VMA gives up there, without making others lost.
      why = Failure::too_large;
      return nullptr;
    }
  }
  // A linear pool makes others lost only as a ring buffer, which VMA
  // allows in a pool of one block only.
  if (r.can_make_other_lost && (l.algorithm != alloc::Algorithm::linear || l.max_blocks == 1))
    if (Allocation* a = make_others_lost(l, r, alignment)) return a;
  return nullptr;
}

Allocation* DeviceAllocator::allocate_dedicated(const AllocRequest& r, Failure& why) {
  VkDeviceMemory memory = allocate_memory(r.type, r.size, why);
  if (!memory) return nullptr;
  auto* a = new Allocation;
  a->type = r.type;
  a->size = r.size;
  a->memory = memory;
  a->kind = r.kind;
  a->dedicated = true;
  a->can_become_lost = r.can_become_lost;
  a->last_use_frame = r.frame;
  account(r.type, 0, 0, 1, static_cast<std::int64_t>(r.size), 0);
  ++dedicated_count_;
  link(a);
  if (r.mapped && map(a) == MapResult::ok) a->persistent_map = true;
  return a;
}

Allocation* DeviceAllocator::allocate(const AllocRequest& r, Failure& why) {
  const Settle settle{*this};
  why = Failure::none;
  if (r.size == 0) {
    why = Failure::invalid;
    return nullptr;
  }
  if (r.type >= default_.size() || (r.pool && r.pool->list->type != r.type)) {
    why = Failure::no_memory_type;
    return nullptr;
  }
  std::uint64_t alignment = std::max({r.alignment, std::uint64_t{1}, min_alignment(r.type)});
  if (!alloc::is_pow2(alignment)) alignment = std::bit_ceil(alignment);
  if (r.requires_dedicated && r.never_allocate) {
    why = Failure::never_allocate;
    return nullptr;
  }
  if (r.pool) {
    List& l = *r.pool->list;
    if (r.dedicated || r.requires_dedicated) {
      why = Failure::dedicated_in_pool;
      return nullptr;
    }
    // With its margins before and after, as VMA 2.x checks (in a buddy pool
    // too, where no margin is kept).
    if (!alloc::fits_before(0, r.size, 2 * l.margin, l.block_size)) {
      why = Failure::too_large;
      return nullptr;
    }
    return allocate_in_list(l, r, alignment, why);
  }
  List& l = *default_[r.type];
  const bool prefer =
      settings_.always_dedicated || r.requires_dedicated || r.prefers_dedicated || r.size > l.block_size / 2;
  if (r.dedicated || (prefer && !r.never_allocate)) {
    if (r.never_allocate) {
      why = Failure::never_allocate;
      return nullptr;
    }
    return allocate_dedicated(r, why);
  }
  if (Allocation* a = allocate_in_list(l, r, alignment, why)) return a;
  if (r.never_allocate) return nullptr;
  const Failure block_failure = why;
  Allocation* a = allocate_dedicated(r, why);
  if (!a && block_failure != Failure::none && why == Failure::none) why = block_failure;
  return a;
}

void DeviceAllocator::release(Allocation* a, bool tidy) {
  if (a->lost) return;
  while (a->map_count) unmap_one(a);
  if (a->dedicated) {
    free_memory(a->type, a->memory, a->size);
    account(a->type, 0, 0, -1, -static_cast<std::int64_t>(a->size), 0);
    --dedicated_count_;
  } else {
    Block* b = a->block;
    const auto ranges = static_cast<std::int64_t>(b->meta->free_range_count());
    b->meta->free(a->offset);
    account(a->type, 0, 0, -1, -static_cast<std::int64_t>(a->size),
            static_cast<std::int64_t>(b->meta->free_range_count()) - ranges);
    if (tidy) after_free(list_of(a), b);
  }
  a->block = nullptr;
  a->memory = VK_NULL_HANDLE;
}

void DeviceAllocator::after_free(List& l, Block* b) {
  // As VMA 2.3: an emptied block stays unless another empty one exists (or
  // the heap is over budget); freeing elsewhere drops an empty last block.
  // Never below the pool's minBlockCount.
  const HeapUsage& heap = heaps_[dev_.memory().memoryTypes[l.type].heapIndex];
  const bool over_budget = heap.committed >= heap.budget;
  const bool can_delete = l.blocks.size() > l.min_blocks;
  if (b->meta->empty()) {
    const bool other_empty =
        std::any_of(l.blocks.begin(), l.blocks.end(), [&](const auto& x) { return x.get() != b && x->meta->empty(); });
    if ((other_empty || over_budget) && can_delete) {
      destroy_block(l, b);
      return;
    }
  } else if (can_delete && l.blocks.back().get() != b && l.blocks.back()->meta->empty()) {
    destroy_block(l, l.blocks.back().get());
  }
  sort_blocks(l);
}

void DeviceAllocator::free(Allocation* a) {
  if (!a) return;
  release(a);
  unlink(a);
  delete a;
}

Allocation* DeviceAllocator::create_lost() {
  auto* a = new Allocation;
  a->lost = true;
  a->can_become_lost = true;
  link(a);
  return a;
}

std::string DeviceAllocator::validate() const {
  std::vector<HeapUsage> sum(heaps_.size());
  auto add_list = [&](const List& l) -> std::string {
    HeapUsage& h = sum[dev_.memory().memoryTypes[l.type].heapIndex];
    for (const auto& b : l.blocks) {
      if (b->meta->algorithm() != l.algorithm) return "a block of another algorithm than its list's";
      if (auto e = b->meta->validate(); !e.empty()) return e;
      h.committed += b->meta->size();
      ++h.blocks;
      h.allocations += b->meta->allocation_count();
      h.used += b->meta->used();
      h.free_ranges += b->meta->free_range_count();
    }
    if (l.blocks.size() < l.min_blocks) return "fewer blocks than minBlockCount";
    if (l.blocks.size() > l.max_blocks) return "more blocks than maxBlockCount";
    return {};
  };
  for (const auto& l : default_)
    if (auto e = add_list(*l); !e.empty()) return e;
  for (const auto& p : pools_)
    if (auto e = add_list(*p->list); !e.empty()) return e;
  std::uint64_t n = 0;
  for (const Allocation* a = live_; a; a = a->next, ++n)
    if (a->dedicated && !a->lost) {
      HeapUsage& h = sum[dev_.memory().memoryTypes[a->type].heapIndex];
      h.committed += a->size;
      ++h.blocks;
      ++h.allocations;
      h.used += a->size;
    }
  if (n != live_count_) return "live list and count disagree";
  for (std::size_t h = 0; h < heaps_.size(); ++h) {
    const HeapUsage &s = sum[h], &k = heaps_[h];
    if (s.committed != k.committed || s.blocks != k.blocks || s.allocations != k.allocations || s.used != k.used ||
        s.free_ranges != k.free_ranges)
      return "heap " + std::to_string(h) + " accounting is off";
  }
  return {};
}

}  // namespace libtrace::vk
