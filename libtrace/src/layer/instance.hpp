// SPDX-License-Identifier: MIT
// What every trak layer keeps of an instance, and the instance calls they
// all answer the same way.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <string>

#include "layer/dispatch_tables.hpp"
#include "layer/layer.hpp"

namespace libtrace::layer {

struct Instance {
  VkInstance handle = VK_NULL_HANDLE;
  InstanceTable t;
  PFN_vkGetInstanceProcAddr next_gipa = nullptr;
  std::uint32_t api_version = VK_API_VERSION_1_0;  // what the application asked for
  bool has_app = false;
  VkApplicationInfo app{};  // pNext dropped; the names point into the strings below
  std::string app_name, engine_name;
};

// vkCreateInstance down the chain; on success the instance is in `instances`.
VkResult create_instance(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc, VkInstance* out,
                         KeyedState<Instance>& instances);
// vkDestroyInstance down the chain, after forgetting it.
void destroy_instance(VkInstance instance, const VkAllocationCallbacks* alloc, KeyedState<Instance>& instances);

// A layer's own entry points by name.
struct Hook {
  const char* name;
  PFN_vkVoidFunction fn;
};
template <typename F>
PFN_vkVoidFunction hook_fn(F f) {
  return reinterpret_cast<PFN_vkVoidFunction>(f);
}
PFN_vkVoidFunction find_hook(std::span<const Hook> hooks, const char* name);

// What a layer answers for `name` given the next layer's answer: its own
// entry point where `hooks` has one, else `next`. A command the next layer
// lacks stays absent: a hook for it would tell the application it is there.
inline PFN_vkVoidFunction hooked_or_next(PFN_vkVoidFunction next, std::span<const Hook> hooks, const char* name) {
  if (!next) return nullptr;
  const PFN_vkVoidFunction hook = find_hook(hooks, name);
  return hook ? hook : next;
}

// The next layer's vkGetInstanceProcAddr answer for an instance this layer
// knows; null for one it does not (or a null instance).
PFN_vkVoidFunction next_instance_proc(const KeyedState<Instance>& instances, VkInstance instance, const char* name);

}  // namespace libtrace::layer
