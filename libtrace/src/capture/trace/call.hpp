// SPDX-License-Identifier: MIT
// One traced Vulkan call, as every generated entry point (gen_trace.py) runs
// it: Call's constructor runs the command's hand-written hooks and writes the
// enter event, the entry point calls the next layer, leave() runs the hooks
// for after and writes the leave event. A hook never fails the application's
// call: what throws is logged once and the call goes on.
#pragma once

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "capture/state.hpp"
#include "capture/trace/trim.hpp"
#include "layer/dispatch_tables.hpp"
#include "layer/instance.hpp"
#include "registry/registry.hpp"

namespace libtrace::capture::trace {

enum class Level : std::uint8_t { global, instance, device };

class Call;

// The hand-written parts of a command (hooks.cpp), each optional:
//   before_enter  runs before the enter event (memory updates before a submit)
//   before_call   may change the arguments the next layer gets (the
//                 recorded ones are the application's)
//   after_call    sees the results before the leave event records them
struct Hooks {
  void (*before_enter)(Call&) = nullptr;
  void (*before_call)(Call&) = nullptr;
  void (*after_call)(Call&) = nullptr;
};

enum class Ret : std::uint8_t { none, result, boolean, uint };

struct CommandInfo {
  const registry::Command* cmd = nullptr;  // null: vk.xml and the headers disagree; not recorded
  std::uint32_t id = 0;
  Level level = Level::device;
  Ret ret = Ret::none;
  std::uint8_t ret_size = 0;
  std::span<const registry::Member> params;
  std::vector<const char*> param_names;
  std::vector<std::uint8_t> outputs;  // indexes of the parameters recorded at leave
  bool records_commands = false;      // dispatched on a command buffer: what it names is kept
  // A vkCmd* command with no output and no return value: its leave event
  // says nothing but "returned", so it is appended with the enter event (one
  // lock, not two, for most of an application's calls).
  bool whole = false;
  bool flushes = false;    // a submit or present: Stream::nudge() after it
  bool presents = false;   // vkQueuePresentKHR: a frame ends after it
  Keep keep = Keep::none;  // how a trimmed capture keeps it before its range
  const Hooks* hooks = nullptr;
};

// A call's enter event, and its leave event's details after the call number.
void put_enter(Event& e, std::uint32_t thread, const CommandInfo& info, void* const* args);
void put_leave_details(Event& e, const CommandInfo& info, void* const* args, const void* ret);

// Built on first use of each name.
const CommandInfo& command_info(const char* name, Level level);
const Hooks* find_hooks(const char* name);  // hooks.cpp

class Call {
 public:
  Call(const CommandInfo& info, void** args);
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // Whether the next layer can be called (the handle's instance or device is known).
  bool can_call() const { return level_ok_; }
  layer::InstanceTable& instance_table() { return inst->t; }
  layer::DeviceTable& device_table();
  template <typename T>
  T failed() const {
    if constexpr (std::is_same_v<T, VkResult>)
      return VK_ERROR_INITIALIZATION_FAILED;
    else
      return T{};
  }
  void leave(const void* ret);

  template <typename T>
  T& arg(std::size_t i) {
    return *static_cast<T*>(args[i]);
  }
  VkResult result() const { return ret ? *static_cast<const VkResult*>(ret) : VK_SUCCESS; }

  const CommandInfo& info;
  void** args;
  const void* ret = nullptr;
  std::shared_ptr<layer::Instance> inst;
  Device* dev = nullptr;  // kept alive by this thread's lookup cache (state.hpp)
  // What a before_call hook made for the next layer and must outlive the call.
  std::shared_ptr<void> keep;

 private:
  std::uint64_t no_ = 0;
  std::uint64_t kept_ = 0;  // its place among a trimmed capture's kept calls
  bool entered_ = false;
  bool level_ok_ = false;
};

struct EntryPoint {
  const char* name;
  PFN_vkVoidFunction fn;
};
extern const EntryPoint kEntryPoints[];  // sorted by name
extern const std::size_t kEntryPointCount;

// The next step down for the four commands that make and end instances and
// devices: the layer's bookkeeping (hooks.cpp), not a dispatch table.
VkResult down_vkCreateInstance(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc, VkInstance* out);
void down_vkDestroyInstance(VkInstance instance, const VkAllocationCallbacks* alloc);
VkResult down_vkCreateDevice(VkPhysicalDevice gpu, const VkDeviceCreateInfo* ci, const VkAllocationCallbacks* alloc,
                             VkDevice* out);
void down_vkDestroyDevice(VkDevice device, const VkAllocationCallbacks* alloc);

// The entry named `name` of a table sorted by name (strcmp order), or null.
template <typename T>
const T* find_named(std::span<const T> table, const char* name) {
  const auto it = std::lower_bound(table.begin(), table.end(), name,
                                   [](const T& e, const char* n) { return std::strcmp(e.name, n) < 0; });
  return it != table.end() && std::strcmp(it->name, name) == 0 ? &*it : nullptr;
}

// The traced entry point for a command, or null.
PFN_vkVoidFunction find_entry_point(const char* name);

}  // namespace libtrace::capture::trace
