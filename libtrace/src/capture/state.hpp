// SPDX-License-Identifier: MIT
// What the capture layer keeps per device, shared by its two recorders: the
// pipeline archive (foz) and the call stream (trace).
#pragma once

#include <vulkan/vulkan_core.h>

#include <memory>

#include "layer/dispatch_tables.hpp"
#include "layer/instance.hpp"

namespace libtrace::capture {

class FozCapture;
namespace trace {
struct DeviceTrace;
}

struct Device {
  VkDevice handle = VK_NULL_HANDLE;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  layer::DeviceTable t;                       // the next layer's
  std::shared_ptr<FozCapture> capture;        // null: no archive for it
  std::shared_ptr<trace::DeviceTrace> trace;  // null: not traced
};

// By any dispatchable handle of the device (or instance); null if unknown.
std::shared_ptr<Device> find_device(const void* dispatchable);
// The same for every traced call: a cache per thread, so that threads
// calling at once share no lock and no reference count. The pointer stays
// valid until this thread's next lookup (the cache holds a reference), so a
// device's own vkDestroyDevice call may use it to the end.
Device* device_for_call(const void* dispatchable);
std::shared_ptr<layer::Instance> find_instance(const void* dispatchable);

// The foz recorder's own entry point for a device command, or null: the
// trace calls down through it, so that both record in one run.
PFN_vkVoidFunction foz_hook(const char* name);

}  // namespace libtrace::capture
