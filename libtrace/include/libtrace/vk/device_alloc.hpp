// SPDX-License-Identifier: MIT
// trak's own VMA 2.x-like allocator over real device memory, which
// trak-replay drives with a recording: a block list per memory type (block
// sizes, empty-block retention and "smaller first blocks" as VMA 2.3),
// dedicated allocations, custom pools with their block size and block count
// limits and their algorithm (free list, linear or buddy), VMA_DEBUG_MARGIN,
// lost allocations, mapping, flush/invalidate and defragmentation.
// Device memory comes from vkAllocateMemory and stays under each heap's size
// (or VK_EXT_memory_budget budget); failures are returned, never thrown.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "libtrace/alloc/suballoc.hpp"
#include "libtrace/vk/device.hpp"

namespace libtrace::vk {

// Why an allocation failed on the replay device.
enum class Failure : std::uint8_t {
  none,
  heap_budget,        // the heap's size or budget would be exceeded
  allocation_count,   // maxMemoryAllocationCount device memory objects exist
  too_large,          // over maxMemoryAllocationSize, or a custom pool's block size
  device,             // vkAllocateMemory itself failed
  pool_full,          // a custom pool at its maxBlockCount
  never_allocate,     // VMA_ALLOCATION_CREATE_NEVER_ALLOCATE_BIT and no room
  dedicated_in_pool,  // dedicated memory asked for or required with a custom pool
  no_memory_type,     // no memory type of the replay device fits
  invalid,            // size 0 and the like: VMA refuses them too
};
inline constexpr std::size_t kFailureCount = 10;
std::string_view failure_name(Failure f);  // "heap budget exceeded", ...

// VMA's compile-time settings, from the recording's Config section.
struct AllocatorSettings {
  std::uint64_t large_heap_block_size = 256ull << 20;  // VMA_DEFAULT_LARGE_HEAP_BLOCK_SIZE
  std::uint64_t small_heap_max = 1ull << 30;           // VMA_SMALL_HEAP_MAX_SIZE
  std::uint64_t min_alignment = 1;                     // VMA_DEBUG_ALIGNMENT / VMA_MIN_ALIGNMENT
  std::uint64_t min_granularity = 1;                   // VMA_DEBUG_MIN_BUFFER_IMAGE_GRANULARITY
  std::uint64_t debug_margin = 0;                      // VMA_DEBUG_MARGIN
  bool always_dedicated = false;                       // VMA_DEBUG_ALWAYS_DEDICATED_MEMORY
  bool enforce_heap_budget = true;
  // Device memory objects at most, besides the device's
  // maxMemoryAllocationCount (0: only that).
  std::uint64_t max_memory_objects = 0;
};

class Pool;
struct Block;

struct Allocation {
  std::uint32_t type = 0;    // replay memory type
  std::uint64_t offset = 0;  // in `memory`
  std::uint64_t size = 0;
  std::uint64_t alignment = 1;
  VkDeviceMemory memory = VK_NULL_HANDLE;  // null while lost
  alloc::Kind kind = alloc::Kind::unknown;
  bool dedicated = false, lost = false, can_become_lost = false, persistent_map = false;
  std::uint32_t last_use_frame = 0;
  std::uint32_t map_count = 0;
  Pool* pool = nullptr;
  void* user = nullptr;  // the caller's (trak-replay: its resource)

 private:
  friend class DeviceAllocator;
  Block* block = nullptr;                       // null: dedicated or lost
  void* dedicated_data = nullptr;               // a mapped dedicated allocation's pointer
  Allocation *prev = nullptr, *next = nullptr;  // every live allocation
};

struct AllocRequest {
  std::uint64_t size = 0, alignment = 1;
  std::uint32_t type = 0;  // replay memory type, chosen by the caller
  alloc::Kind kind = alloc::Kind::unknown;
  Pool* pool = nullptr;
  bool dedicated = false;                                      // VMA_ALLOCATION_CREATE_DEDICATED_MEMORY_BIT
  bool prefers_dedicated = false, requires_dedicated = false;  // VK_KHR_dedicated_allocation
  bool never_allocate = false, mapped = false, can_become_lost = false, can_make_other_lost = false;
  bool upper_address = false;  // VMA_ALLOCATION_CREATE_UPPER_ADDRESS_BIT
  std::uint32_t frame = 0;
};

// One heap's numbers now, and the peak of each (peaks taken separately, as
// VmaReplay's --MemStats does).
struct HeapUsage {
  std::uint64_t budget = 0;
  std::uint64_t committed = 0, blocks = 0, allocations = 0, used = 0, free_ranges = 0;
  std::uint64_t peak_committed = 0, peak_blocks = 0, peak_allocations = 0, peak_used = 0, peak_free_ranges = 0;
  std::uint64_t peak_unused = 0;  // committed - used
  // The blocks' unused memory when committed peaked (UnusedSpace).
  std::uint64_t unused_ranges_at_peak = 0, largest_usable_at_peak = 0;
  double fragmentation_at_peak = 0;
};

struct DefragLimits {
  std::uint64_t max_bytes = UINT64_MAX, max_allocations = UINT64_MAX;          // host-visible memory
  std::uint64_t max_gpu_bytes = UINT64_MAX, max_gpu_allocations = UINT64_MAX;  // the rest
};
struct DefragStats {
  std::uint64_t bytes_moved = 0, allocations_moved = 0, blocks_freed = 0, bytes_freed = 0;
};

enum class MapResult { ok, not_host_visible, lost, failed };
enum class SyncResult { done, not_mapped, lost, nothing };

class DeviceAllocator {
 public:
  DeviceAllocator(const vk::Device& device, const AllocatorSettings& settings);
  ~DeviceAllocator();  // frees every allocation, block and pool left
  DeviceAllocator(const DeviceAllocator&) = delete;
  DeviceAllocator& operator=(const DeviceAllocator&) = delete;

  // A custom pool over `type` (a replay memory type): `block_size` 0 means
  // VMA's preferred size, `max_blocks` 0 no limit; `flags` (VmaPoolCreateFlags)
  // choose the algorithm and whether bufferImageGranularity is ignored; its
  // `min_blocks` are allocated now (null and `why` when that fails).
  Pool* create_pool(std::uint32_t type, std::uint64_t flags, std::uint64_t block_size, std::uint64_t min_blocks,
                    std::uint64_t max_blocks, std::uint32_t frame_in_use, Failure& why);
  // Frees what is still allocated from it, then its blocks.
  void destroy_pool(Pool* pool);
  std::uint32_t pool_type(const Pool* pool) const;
  alloc::Algorithm pool_algorithm(const Pool* pool) const;

  // UPPER_ADDRESS is refused (`invalid`) but in a linear pool of one block,
  // as VMA refuses it; a default pool then falls back to dedicated memory.
  Allocation* allocate(const AllocRequest& r, Failure& why);
  Allocation* create_lost();  // vmaCreateLostAllocation
  void free(Allocation* a);
  // vmaTouchAllocation / vmaGetAllocationInfo: false if lost.
  bool touch(Allocation* a, std::uint32_t frame);
  // vmaMakePoolAllocationsLost: how many became lost (none in a buddy pool).
  std::size_t make_lost(Pool* pool, std::uint32_t frame);
  bool resize(Allocation* a, std::uint64_t new_size);

  // Maps the allocation's device memory (the whole block, counted).
  MapResult map(Allocation* a, void** data = nullptr);
  // False if the application had not mapped it (a persistent mapping
  // does not count).
  bool unmap(Allocation* a);
  // vkFlushMappedMemoryRanges / vkInvalidateMappedMemoryRanges over the
  // range, rounded to nonCoherentAtomSize as VMA does.
  SyncResult sync(Allocation* a, std::uint64_t offset, std::uint64_t size, bool invalidate);

  // Compacts the block lists holding `allocations` and every allocation of
  // `pools`: moves toward fuller blocks and lower offsets within the limits,
  // then frees empty blocks. Linear and buddy pools are left alone, as VMA
  // 2.x defragments only its default algorithm. `moved` is called for each
  // moved allocation (its memory and offset already new) so the caller can
  // rebind.
  DefragStats defragment(const std::vector<Allocation*>& allocations, const std::vector<Pool*>& pools,
                         const DefragLimits& limits, const std::function<void(Allocation&)>& moved);

  const std::vector<HeapUsage>& heaps() const { return heaps_; }
  const HeapUsage& total() const { return total_; }
  // Successful vkAllocateMemory calls and their bytes, per memory type.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>>& device_allocations() const { return device_allocs_; }
  std::uint64_t live_allocations() const { return live_count_; }
  std::uint64_t dedicated_allocations() const { return dedicated_count_; }
  std::uint64_t preferred_block_size(std::uint32_t type) const;
  const vk::Device& device() const { return dev_; }

  // Every internal invariant; "" when all hold (tests).
  std::string validate() const;

 private:
  struct List;
  friend class Pool;
  std::uint64_t min_alignment(std::uint32_t type) const;
  VkDeviceMemory allocate_memory(std::uint32_t type, std::uint64_t size, Failure& why);
  void free_memory(std::uint32_t type, VkDeviceMemory memory, std::uint64_t size);
  Block* create_block(List& list, std::uint64_t size, Failure& why);
  void destroy_block(List& list, Block* block);
  Allocation* allocate_in_list(List& list, const AllocRequest& r, std::uint64_t alignment, Failure& why);
  Allocation* allocate_dedicated(const AllocRequest& r, Failure& why);
  Allocation* place(List& list, Block& block, std::uint64_t offset, const AllocRequest& r, std::uint64_t alignment);
  static alloc::Request block_request(const AllocRequest& r, std::uint64_t alignment);
  Allocation* make_others_lost(List& list, const AllocRequest& r, std::uint64_t alignment);
  // Gives the memory back, keeps the object; `tidy` lets an emptied block go.
  void release(Allocation* a, bool tidy = true);
  void after_free(List& list, Block* block);
  void sort_blocks(List& list);
  void unmap_one(Allocation* a);
  void block_map(Block& b, std::uint32_t count);
  void block_unmap(Block& b, std::uint32_t count);
  void account(std::uint32_t type, std::int64_t committed, std::int64_t blocks, std::int64_t allocations,
               std::int64_t used, std::int64_t free_ranges);
  // The unused space of the heaps whose committed memory peaked during the
  // operation now ending (a new block is committed before the allocation
  // that needed it is placed, so it is looked at afterwards).
  void settle();
  struct Settle {
    DeviceAllocator& a;
    ~Settle() { a.settle(); }
  };
  void link(Allocation* a);
  void unlink(Allocation* a);
  List& list_of(const Allocation* a);

  const vk::Device& dev_;
  AllocatorSettings settings_;
  std::uint64_t granularity_ = 1, atom_ = 1, max_allocation_size_ = 0, max_allocation_count_ = 0;
  std::uint64_t memory_objects_ = 0;
  std::vector<std::unique_ptr<List>> default_;  // per memory type
  std::vector<std::unique_ptr<Pool>> pools_;
  std::vector<HeapUsage> heaps_;
  HeapUsage total_;
  std::vector<bool> peaked_;               // per heap, for settle()
  std::vector<alloc::UnusedSpace> space_;  //   and its scratch
  bool total_peaked_ = false, peaked_any_ = false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> device_allocs_;
  Allocation* live_ = nullptr;
  std::uint64_t live_count_ = 0, dedicated_count_ = 0;
};

}  // namespace libtrace::vk
