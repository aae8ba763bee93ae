// SPDX-License-Identifier: MIT
// Replays a VMA recording on a real Vulkan device: real VkBuffers and
// VkImages from the recorded create-infos, their memory requirements
// re-queried on this device, recorded memory types mapped to this device's
// by property flags, and trak's own allocator (libtrace/vk/device_alloc.hpp) doing
// what VMA did. Reports VmaReplay's summary and more: per-heap peaks, time
// per function, and where the replay had to compromise.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libtrace/vk/device.hpp"
#include "libtrace/vk/device_alloc.hpp"
#include "libtrace/vma/recording.hpp"

namespace libtrace::vma {

struct ReplayOptions : ReplayLines {
  // The first `max_warnings` replay warnings go to the sink.
  std::size_t max_warnings = 10;
  bool enforce_heap_budget = true;
  // Device memory objects at most (0: no limit but the devices'). The
  // recorded device's maxMemoryAllocationCount applies as well as this
  // device's: the recording cannot have held more.
  std::uint64_t max_memory_objects = 0;
};

// Where the replay could not do exactly what the recording did.
enum class Compromise : std::uint8_t {
  missing_flags,           // the replay type lacks property flags the recorded type had
  required_flags_unmet,    // no allowed type has the required flags: the closest one was used
  type_fallback,           // the chosen type was out of memory: another allowed type was used
  pool_type_incompatible,  // the resource cannot live in the pool's type here: allocated outside the pool
  pool_unknown,            // the pool is not live in this replay: default pools used
  pool_type_unrecorded,    // a pool's memory type that the recording does not describe
  buffer_adjusted,         // buffer create-info changed (flags, usage, sharing mode)
  image_adjusted,          // image create-info changed (flags, usage, extent, mips, layers, samples, layout)
  image_unsupported,       // no such image here: plain memory of its estimated size instead
  alignment_rounded,       // a recorded alignment that is not a power of two
  recorded_requirements,   // vmaAllocateMemory*: size and alignment as recorded (no resource to ask)
};
inline constexpr std::size_t kCompromiseCount = 11;
std::string_view compromise_name(Compromise c);

// Allocations of one recorded memory type that went to one replay type.
struct TypeMapping {
  int recorded_type = -1;  // -1: the recording has no memory types (format < 1.3)
  std::uint32_t recorded_flags = 0;
  std::uint32_t replay_type = 0;
  std::uint32_t replay_flags = 0;
  std::uint64_t allocations = 0;
  std::uint32_t missing_flags = 0;  // recorded_flags & ~replay_flags
};

struct FunctionStats {
  std::uint64_t calls = 0;
  double seconds = 0;
};

struct ReplayResult {
  // The replay device.
  std::string device_name, device_type, driver;
  std::uint32_t api_version = 0, vendor_id = 0, device_id = 0;
  std::vector<VkMemoryHeap> device_heaps;
  std::vector<VkMemoryType> device_types;
  // "bufferImageGranularity: recorded 65536, here 64" and the like.
  std::vector<std::string> device_differences;

  Version version;
  std::uint64_t calls = 0, replayed_calls = 0;
  std::array<FunctionStats, kFunctionCount> functions{};
  double playback_seconds = 0;

  // VmaReplay's statistics.
  std::uint64_t buffers = 0, images = 0, memory_allocations = 0, pages = 0, lost_allocations = 0, pools = 0;
  double recording_time = 0, duration = 0;  // last replayed line's time; last - first
  std::uint64_t threads = 0;
  double busiest_thread_percent = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> device_allocations;  // per type: count, bytes

  // Outcomes here.
  std::array<std::uint64_t, vk::kFailureCount> failed{};  // failed here, succeeded in the recording
  std::uint64_t failed_also_originally = 0, succeeded_originally_failed = 0, originally_failed = 0;
  std::uint64_t resource_failures = 0;  // vkCreateBuffer/Image refused a sanitised create-info
  std::uint64_t pool_failures = 0;
  std::uint64_t dedicated_allocations = 0;  // made during the replay

  std::vector<vk::HeapUsage> heaps;
  vk::HeapUsage total;

  std::vector<TypeMapping> mappings;
  std::array<std::uint64_t, kCompromiseCount> compromises{};

  struct Operations {
    std::uint64_t maps = 0, map_failures = 0, unmaps = 0, unmatched_unmaps = 0;
    std::uint64_t flushes = 0, invalidates = 0, syncs_unmapped = 0;
    std::uint64_t touches = 0, touches_lost = 0, made_lost = 0;
    std::uint64_t resizes = 0, resize_failures = 0;
    std::uint64_t defragmentations = 0, defrag_moves = 0, defrag_bytes_moved = 0, defrag_blocks_freed = 0;
    std::uint64_t rebinds = 0;
  } ops;

  // Objects the recording never freed (destroyed at the end anyway).
  std::uint64_t leaked_allocations = 0, leaked_bytes = 0, leaked_pools = 0, leaked_defrag_contexts = 0;
  std::uint64_t unknown_objects = 0;  // references to pointers not live here
  std::uint64_t warnings = 0;
  std::optional<Error> error;
};

// The device options a replay wants: VK_KHR_dedicated_allocation,
// VK_KHR_get_memory_requirements2, VK_KHR_bind_memory2 and
// VK_EXT_memory_budget where present, and bufferDeviceAddress.
vk::DeviceOptions replay_device_options();

// Replays in file order; memory stays flat (one call at a time). A format
// error stops the replay and is returned in `error` with what was done.
ReplayResult replay(std::unique_ptr<Decoder> decoder, const std::string& name, const vk::Device& device,
                    const ReplayOptions& opt = {});

std::string report_table(const ReplayResult& r);
std::string report_json(const ReplayResult& r);

}  // namespace libtrace::vma
