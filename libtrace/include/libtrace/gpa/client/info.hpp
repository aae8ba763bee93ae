// SPDX-License-Identifier: MIT
// What `trak-gpa info` shows: a device's VK_AMD_gpa_interface, the driver's
// own or VK_LAYER_TRAK_gpa's, asked through the extension itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "libtrace/gpa/vk_amd_gpa_interface.h"

namespace libtrace::gpa::client {

struct CounterInfo {
  std::uint32_t event = 0;
  std::string name, meaning;
};

struct BlockInfo {
  VkGpaPerfBlockPropertiesAMD properties{};
  std::vector<CounterInfo> counters;  // documented ones (the emulation's); empty for a driver's own
};

struct Info {
  std::string device, driver, api_version;
  bool listed = false;  // the device lists the extension
  bool native = false;  // ... without the layer: the driver's own
  std::uint32_t spec_version = 0;
  VkPhysicalDeviceGpaFeaturesAMD features{};
  std::uint32_t revision_id = 0;
  std::uint32_t shader_engines = 0;
  std::vector<BlockInfo> blocks;
  float timestamp_period = 0;              // ns per tick of TIMING results
  std::uint32_t timestamp_valid_bits = 0;  // of the queue family samples run on
  // vkSetGpaDeviceClockModeAMD(QUERY) and vkGetGpaDeviceClockInfoAMD.
  int clock_query_result = 0, clock_info_result = 0;
  float memory_clock_ratio = 0, engine_clock_ratio = 0;
  std::uint32_t memory_clock_mhz = 0, engine_clock_mhz = 0;
  int set_profiling_result = 0;  // what setting the PROFILING clock mode says
};

// `device` as trak-replay's --device: "" for the first, an index, or part
// of the name. The layer must be findable by the loader (VK_ADD_LAYER_PATH)
// for an emulated extension to show. Throws Error on Vulkan failures.
Info query_info(const std::string& device);

std::string report_table(const Info& info);
std::string report_json(const Info& info);

}  // namespace libtrace::gpa::client
