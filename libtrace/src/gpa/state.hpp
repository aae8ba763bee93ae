// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_gpa's state and the hooks its two halves share: the
// instance-level calls (instance_hooks.cpp: extension list, features,
// properties) and the device-level ones (device_hooks.cpp: the extension's
// entry points, device creation, the proc-address lookups).
#pragma once

#include <vulkan/vulkan_core.h>

#include <memory>

#include "gpa/emulation.hpp"
#include "gpa/profiler.hpp"
#include "layer/instance.hpp"
#include "layer/layer.hpp"
#include "libtrace/gpa/layer.hpp"

namespace libtrace::gpa {

inline constexpr const char* kExtension = VK_AMD_GPA_INTERFACE_EXTENSION_NAME;

struct Device {
  VkDevice handle = VK_NULL_HANDLE;
  layer::DeviceTable t;
  std::unique_ptr<Emulation> emulation;  // null where the driver has the extension or it is not enabled
  std::unique_ptr<Profiler> profiler;    // trak-gpa profile's mode
};

struct Global {
  layer::KeyedState<layer::Instance> instances;
  layer::KeyedState<Device> devices;
};
// Never destroyed: a hook may run while the process exits. Its locks are
// held across fork() (pthread_atfork), so that a child's copy is whole.
Global& global();

std::shared_ptr<layer::Instance> instance_of(const void* dispatchable);
std::shared_ptr<Device> device_of(const void* dispatchable);

// What a physical device allows.
struct Support {
  bool native = false;                           // its driver has the extension
  bool offered = false;                          // the emulation can run: timestamps and host query reset
  bool host_reset_extension = false;             // host query reset needs VK_EXT_host_query_reset (a 1.1 device)
  VkQueryPipelineStatisticFlags statistics = 0;  // the counters (0: no pipeline statistics queries)
  VkPhysicalDeviceProperties properties{};
};
Support support_of(const layer::Instance& inst, VkPhysicalDevice pd);

// The instance-level entry points (instance_hooks.cpp).
VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc,
                                              VkInstance* out);
VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* alloc);
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char* layer_name,
                                                                  std::uint32_t* count, VkExtensionProperties* out);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2* f);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2KHR(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2* f);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2* p);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2KHR(VkPhysicalDevice pd, VkPhysicalDeviceProperties2* p);

}  // namespace libtrace::gpa
