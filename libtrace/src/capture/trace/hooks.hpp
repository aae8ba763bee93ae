// SPDX-License-Identifier: MIT
// What the trace's hand-written hooks share.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

#include "capture/trace/call.hpp"
#include "capture/trace/device.hpp"

namespace libtrace::capture::trace {

template <typename T>
inline T& arg(Call& c, std::size_t i) {
  return c.arg<T>(i);
}
inline DeviceTrace* trace_of(Call& c) { return c.dev ? c.dev->trace.get() : nullptr; }
template <typename T>
inline std::uint64_t handle_bits(T* h) {
  return reinterpret_cast<std::uintptr_t>(h);
}
inline bool ok(const Call& c) { return c.result() == VK_SUCCESS; }

// The hooks of hooks_commands.cpp (submits, what command buffers
// name, descriptor sets and templates), or null.
const Hooks* find_command_hooks(const char* name);
// Those of hooks_trim.cpp (what a trimmed capture's state needs), or null.
const Hooks* find_trim_hooks(const char* name);
void trim_buffer_before(Call& c);  // vkCreateBuffer's
// At a submit: the image layouts the submitted command buffers leave.
void apply_layouts(DeviceTrace& dt, const std::vector<VkCommandBuffer>& submitted);

}  // namespace libtrace::capture::trace
