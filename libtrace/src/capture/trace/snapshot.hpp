// SPDX-License-Identifier: MIT
// --snapshot: at the presents asked for, the presented image is read back
// and written as a PNG, so that a replay can later be compared with what the
// application showed. The read-back is one submit of the layer's own on the
// presenting queue: it waits for what the present would have waited for,
// and the present then waits for it.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace libtrace::capture::trace {

struct DeviceTrace;

class Snapshots {
 public:
  Snapshots(std::set<std::uint64_t> frames, std::string dir);
  ~Snapshots();
  Snapshots(const Snapshots&) = delete;
  Snapshots& operator=(const Snapshots&) = delete;

  bool wanted(std::uint64_t frame) const { return frames_.count(frame) != 0; }
  // Reads back the first swapchain image `present` shows and writes its PNG.
  // On success the present must wait for the returned semaphore instead of
  // its own; VK_NULL_HANDLE when nothing was submitted (the reason is logged).
  VkSemaphore take(DeviceTrace& dt, VkQueue queue, const VkPresentInfoKHR& present, std::uint64_t frame);
  // Before the device goes: the layer's own objects (the device is idle then).
  void release(DeviceTrace& dt);

 private:
  std::set<std::uint64_t> frames_;
  std::string dir_;
  std::mutex mu_;
  std::unordered_map<std::uint32_t, VkCommandPool> pools_;  // by queue family
  std::vector<VkSemaphore> semaphores_;                     // until the device is idle
};

}  // namespace libtrace::capture::trace
