// SPDX-License-Identifier: MIT
// The counters VK_LAYER_TRAK_gpa offers where the driver has no
// VK_AMD_gpa_interface: the device's pipeline statistics, published as one
// perf block. Event IDs are hardware-defined in the extension; these are the
// emulation's own, documented here and by `trak-gpa info`.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <string_view>

#include "libtrace/gpa/vk_amd_gpa_interface.h"

namespace libtrace::gpa {

// The block every emulated counter lives in: GRBM, AMD's global block, as
// these count over the whole device. One instance.
inline constexpr VkGpaPerfBlockAMD kStatsBlock = VK_GPA_PERF_BLOCK_GRBM_AMD;

struct Counter {
  std::uint32_t event;  // eventID in kStatsBlock, instance 0
  VkQueryPipelineStatisticFlagBits statistic;
  const char* name;     // short, for tables and --counters
  const char* meaning;  // what one count is
};

// What `trak-gpa profile` samples when no counters are named.
inline constexpr const char* kDefaultCounters = "vs_invocations,fs_invocations,cs_invocations";

// Event N is the pipeline statistic 1 << N: the order of
// VkQueryPipelineStatisticFlagBits.
std::span<const Counter> counters();
const Counter* find_counter(std::uint32_t event);
const Counter* find_counter(std::string_view name);

}  // namespace libtrace::gpa
