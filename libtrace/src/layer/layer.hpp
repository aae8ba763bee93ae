// SPDX-License-Identifier: MIT
// The parts every trak Vulkan layer shares: the loader-layer interface
// (negotiation, the chain links in the create infos), state found from any
// dispatchable handle, and the layer's log.
//
// A layer has no caller to throw to: every hook catches what the library
// throws, logs it once through log_once() and lets the application's call
// through. That is the one place in libtrace that writes to stderr.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "layer/dispatch_tables.hpp"

namespace libtrace::layer {

// The loader's dispatch table pointer, the first word of every dispatchable
// handle: an instance and its physical devices share one, a device, its
// queues and command buffers another. Layers key their state by it.
inline const void* dispatch_key(const void* handle) { return *static_cast<const void* const*>(handle); }

// Answers the loader's vkNegotiateLoaderLayerInterfaceVersion (interface
// version 2: the loader takes the two entry points from the struct).
VkResult negotiate(VkNegotiateLayerInterface* v, PFN_vkGetInstanceProcAddr gipa, PFN_vkGetDeviceProcAddr gdpa);

// The next layer's entry point from the loader's link in a create info's
// pNext chain, which is then advanced for the next layer down (the struct is
// the loader's to change). Null when the loader put no link there.
PFN_vkGetInstanceProcAddr take_instance_link(const VkInstanceCreateInfo* ci);
struct DeviceLink {
  PFN_vkGetInstanceProcAddr gipa = nullptr;
  PFN_vkGetDeviceProcAddr gdpa = nullptr;
};
DeviceLink take_device_link(const VkDeviceCreateInfo* ci);

// State of type T per dispatch key: an instance's, a device's. Readers
// (every hooked call) share a lock; create and destroy take it alone.
template <typename T>
class KeyedState {
 public:
  void insert(const void* key, std::shared_ptr<T> state) {
    const std::unique_lock lock(mu_);
    map_[key] = std::move(state);
  }
  std::shared_ptr<T> find(const void* key) const {
    const std::shared_lock lock(mu_);
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  std::shared_ptr<T> erase(const void* key) {
    const std::unique_lock lock(mu_);
    const auto it = map_.find(key);
    if (it == map_.end()) return nullptr;
    auto out = std::move(it->second);
    map_.erase(it);
    return out;
  }
  template <typename Fn>
  void for_each(Fn&& fn) const {
    const std::shared_lock lock(mu_);
    for (const auto& [key, state] : map_) fn(*state);
  }
  // pthread_atfork: held across fork() so that the child's copy is whole;
  // the child gets a new lock (a lock word copied mid-use belongs to a
  // thread the child does not have).
  void before_fork() { mu_.lock(); }
  void after_fork_in_parent() { mu_.unlock(); }
  void after_fork_in_child() { new (&mu_) std::shared_mutex; }

 private:
  mutable std::shared_mutex mu_;
  std::unordered_map<const void*, std::shared_ptr<T>> map_;
};

// One line "<layer>: <message>" on stderr, written in one system call so
// that lines of several threads and processes do not interleave.
void log(std::string_view layer, std::string_view message);
// log() the first time `what` comes (per process, across threads); later
// ones are dropped. An application that trips one problem on
// every frame must not drown in it.
void log_once(std::string_view layer, std::string_view what, std::string_view detail);

// pthread_atfork for log_once()'s lock.
void log_before_fork();
void log_after_fork_in_parent();
void log_after_fork_in_child();

// The environment variable's value, "" when unset.
std::string env(const char* name);

}  // namespace libtrace::layer
