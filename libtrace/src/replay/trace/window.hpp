// SPDX-License-Identifier: MIT
// --present window: the replay's offscreen frames shown in an X11 window
// (xcb), blitted into a real swapchain of the window's surface.
#pragma once

#include <vulkan/vulkan_core.h>

#include <memory>

namespace libtrace::replay_trace {

class Window {
 public:
  // Throws Error when there is no X display or no way to present to it.
  Window(VkInstance instance, VkPhysicalDevice gpu, VkDevice device, VkQueue queue, std::uint32_t family,
         VkExtent2D extent);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Shows `image` (in PRESENT_SRC layout, its work done) and leaves it so.
  void show(VkImage image, VkExtent2D extent);
  VkDevice device() const { return device_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  VkDevice device_;
};

}  // namespace libtrace::replay_trace
