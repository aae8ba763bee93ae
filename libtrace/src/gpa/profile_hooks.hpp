// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_gpa's profiling mode, for `trak-gpa profile`: the hooks a
// profiled device hands out (command buffers, render passes, submits,
// presents, and every draw and dispatch), each telling the device's Profiler
// around the next layer's call.
#pragma once

#include <vulkan/vulkan_core.h>

#include <memory>
#include <span>

#include "gpa/state.hpp"

namespace libtrace::gpa {

// A draw or dispatch bracketed by a sample (--per draw): the sample begins
// when this is made and ends when it goes, around the next layer's command.
class DrawScope {
 public:
  explicit DrawScope(VkCommandBuffer cb);
  ~DrawScope();
  DrawScope(const DrawScope&) = delete;
  DrawScope& operator=(const DrawScope&) = delete;
  const layer::DeviceTable& next() const { return device_->t; }

 private:
  VkCommandBuffer cb_;
  std::shared_ptr<Device> device_;
};

// The hook a profiled device hands out for `name`, or null. Draws and
// dispatches are hooked only where samples bracket them.
PFN_vkVoidFunction profiling_hook(const char* name, ProfileOptions::Per per);

// Every draw and dispatch command of the registry (draw_hooks.cpp, generated
// by gen_draws.py).
std::span<const layer::Hook> draw_hooks();

}  // namespace libtrace::gpa
