// SPDX-License-Identifier: MIT
// The device a replay worker creates pipelines on: a real VkDevice set up
// from the archive's application info (replay/foz/features.hpp), or the null
// device, whose entry points create nothing (--null-device), so that the
// same code path measures trak's own cost.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "libtrace/vk/device.hpp"
#include "replay/foz/features.hpp"
#include "replay/foz/worker.hpp"

namespace libtrace::foz::detail {

class ReplayDevice {
 public:
  // `archive_features`: the VkPhysicalDeviceFeatures2 chain of the archive's
  // application info, or null.
  ReplayDevice(const std::string& spec, const VkPhysicalDeviceFeatures2* archive_features);
  // The null device: volk's entry points are pointed at stand-ins.
  ReplayDevice();
  ~ReplayDevice();
  ReplayDevice(const ReplayDevice&) = delete;
  ReplayDevice& operator=(const ReplayDevice&) = delete;

  bool is_null() const { return !device_; }
  VkDevice handle() const { return handle_; }
  const Capabilities& caps() const { return caps_; }
  // Name, ids, what the archive asked for that the device lacks.
  DeviceReport report() const { return report_; }

  // A pipeline cache seeded with `initial` (empty: none).
  VkPipelineCache create_cache(std::span<const std::uint8_t> initial) const;
  std::vector<std::uint8_t> cache_data(VkPipelineCache cache) const;
  // One blob holding `seed` and every blob of `parts`; blobs of another
  // device are left out (their reason in `skipped`).
  std::vector<std::uint8_t> merge_caches(std::span<const std::uint8_t> seed,
                                         const std::vector<std::vector<std::uint8_t>>& parts,
                                         std::vector<std::string>& skipped) const;
  // "" when a blob was made by this device, else why not.
  std::string cache_mismatch(std::span<const std::uint8_t> blob) const;

 private:
  std::unique_ptr<vk::Instance> instance_;
  std::unique_ptr<vk::Device> device_;
  VkDevice handle_ = VK_NULL_HANDLE;
  Capabilities caps_;
  DeviceReport report_;
};

}  // namespace libtrace::foz::detail
