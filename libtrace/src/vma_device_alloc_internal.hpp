// SPDX-License-Identifier: MIT
// The allocator's blocks, block lists and pools, shared by its two sources.
#pragma once

#include "libtrace/vma_device_alloc.hpp"

namespace libtrace::vma {

struct Block {
  Block(VkDeviceMemory m, std::uint64_t size, std::uint64_t granularity) : memory(m), meta(size, granularity) {}
  VkDeviceMemory memory;
  BlockMetadata meta;
  std::uint32_t map_count = 0;
  void* data = nullptr;
  std::uint64_t free_bytes() const { return meta.size() - meta.used(); }
};

// The blocks of one memory type, or of one custom pool.
struct DeviceAllocator::List {
  std::uint32_t type = 0;
  std::uint64_t block_size = 0;  // preferred, or the pool's
  bool explicit_size = false;
  std::uint64_t min_blocks = 0, max_blocks = UINT64_MAX;
  std::uint64_t granularity = 1;
  std::uint32_t frame_in_use = 0;
  Pool* pool = nullptr;
  std::vector<std::unique_ptr<Block>> blocks;  // roughly by free bytes, fewest first
};

class Pool {
 public:
  std::unique_ptr<DeviceAllocator::List> list;
  std::uint64_t flags = 0;
};

}  // namespace libtrace::vma
