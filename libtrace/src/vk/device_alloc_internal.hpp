// SPDX-License-Identifier: MIT
// The allocator's blocks, block lists and pools, shared by its two sources.
#pragma once

#include "libtrace/vk/device_alloc.hpp"

namespace libtrace::vk {

struct Block {
  Block(VkDeviceMemory m, std::unique_ptr<alloc::Suballocator> s) : memory(m), meta(std::move(s)) {}
  VkDeviceMemory memory;
  std::unique_ptr<alloc::Suballocator> meta;  // the list's algorithm
  std::uint32_t map_count = 0;
  void* data = nullptr;
  std::uint64_t free_bytes() const { return meta->size() - meta->used(); }
};

// The blocks of one memory type, or of one custom pool.
struct DeviceAllocator::List {
  std::uint32_t type = 0;
  std::uint64_t block_size = 0;  // preferred, or the pool's
  bool explicit_size = false;
  std::uint64_t min_blocks = 0, max_blocks = UINT64_MAX;
  std::uint64_t granularity = 1;
  std::uint64_t margin = 0;  // VMA_DEBUG_MARGIN
  std::uint32_t frame_in_use = 0;
  alloc::Algorithm algorithm = alloc::Algorithm::free_list;
  Pool* pool = nullptr;
  // Roughly by free bytes, fewest first; a linear pool's in creation order,
  // as VMA allocates only from the last one.
  std::vector<std::unique_ptr<Block>> blocks;
  // VMA allows UPPER_ADDRESS only in a linear pool of one block.
  bool double_stack_allowed() const { return algorithm == alloc::Algorithm::linear && max_blocks == 1; }
};

class Pool {
 public:
  std::unique_ptr<DeviceAllocator::List> list;
  std::uint64_t flags = 0;
};

}  // namespace libtrace::vk
