// SPDX-License-Identifier: MIT
// A Vulkan device for the tools that replay on real hardware (VMA recordings
// today; .foz pipelines and GPU counters next): the loader through volk,
// instance and physical-device listing, device selection, a logical device
// with the features and extensions a caller asks for (enabled where present,
// reported where missing), and RAII for every handle.
//
// Part of the separate `trak-vk` library (libtrace/meson.build): only tools
// that call Vulkan link it and volk. Errors are libtrace::Error with the
// Vulkan call and its VkResult in the message.
#pragma once

#include <volk.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "libtrace/core/error.hpp"

namespace libtrace::vk {

// A handle (a pointer when dispatchable, an integer otherwise) or a smaller
// value as the 64 bits the replays keep it in, and back.
template <typename T>
std::uint64_t to_u64(T v) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  return bits;
}
template <typename T>
T from_u64(std::uint64_t bits) {
  T v{};
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// ---- Loader and names --------------------------------------------------------

// Opens the Vulkan loader (libvulkan.so.1) once per process. Throws
// Error(unsupported) when there is none. Every other entry point calls it.
void load_loader();
// The loader's instance version (VK_MAKE_API_VERSION), after load_loader().
std::uint32_t loader_version();
// "no Vulkan device: the loader found no driver (...)": what every replay
// says when there is none.
std::string no_device_message();

// Throws Error(unsupported, "vulkan", "<what> failed: VK_ERROR_...") unless
// `r` is VK_SUCCESS (or another non-negative result).
void check(VkResult r, std::string_view what);

std::string_view result_name(VkResult r);                   // "VK_ERROR_OUT_OF_DEVICE_MEMORY"
std::string version_string(std::uint32_t api_version);      // "1.3.230"
std::string_view device_type_name(VkPhysicalDeviceType t);  // "discrete GPU", "CPU", ...
// "DEVICE_LOCAL|HOST_VISIBLE", or "none".
std::string memory_property_names(VkMemoryPropertyFlags f);
std::string memory_heap_names(VkMemoryHeapFlags f);

// ---- Physical devices --------------------------------------------------------

struct PhysicalDeviceInfo {
  std::uint32_t index = 0;  // in vkEnumeratePhysicalDevices order
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};  // name, type, ids, versions, limits
  VkPhysicalDeviceMemoryProperties memory{};
  std::string driver_name, driver_info;  // empty without VK_KHR_driver_properties
  VkDriverId driver_id{};
  VkDeviceSize max_memory_allocation_size = 0;  // 0: unknown (a 1.0 device)
  std::vector<VkExtensionProperties> extensions;
  std::vector<VkQueueFamilyProperties> queue_families;

  std::string name() const { return properties.deviceName; }
  bool has_extension(std::string_view name) const;
};

// Every device with its ids, driver, API version, heaps and memory types: a
// table for people, or a JSON object {"devices": [...]}.
std::string report_devices(const std::vector<PhysicalDeviceInfo>& devices);
std::string report_devices_json(const std::vector<PhysicalDeviceInfo>& devices);

// ---- Instance ----------------------------------------------------------------

struct InstanceOptions {
  std::string application_name = "trak";
  std::uint32_t api_version = VK_API_VERSION_1_3;  // lowered to the loader's
  std::vector<std::string> extensions;             // enabled where available
  std::vector<std::string> layers;                 // e.g. VK_LAYER_KHRONOS_validation
};

class Instance {
 public:
  explicit Instance(const InstanceOptions& opt = {});
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  std::uint32_t api_version() const { return api_version_; }
  const std::vector<PhysicalDeviceInfo>& physical_devices() const { return devices_; }
  // "" picks device 0; digits pick by index; anything else is a
  // case-insensitive substring of the device name. Throws Error(usage)
  // naming the devices there are, or Error(unsupported) when there are none.
  const PhysicalDeviceInfo& select(std::string_view spec) const;
  const std::vector<std::string>& enabled_extensions() const { return extensions_; }
  const std::vector<std::string>& missing_extensions() const { return missing_extensions_; }
  const std::vector<std::string>& missing_layers() const { return missing_layers_; }

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  std::uint32_t api_version_ = 0;
  std::vector<PhysicalDeviceInfo> devices_;
  std::vector<std::string> extensions_, missing_extensions_, missing_layers_;
};

// ---- Features ----------------------------------------------------------------

// A set of device features to enable: VkPhysicalDeviceFeatures, the
// Vulkan 1.1/1.2/1.3 feature structs, and any extension feature struct (all
// are sType, pNext, then VkBool32 members only).
class Features {
 public:
  // By name: "samplerAnisotropy", "bufferDeviceAddress", "synchronization2"
  // (looked up in the 1.0, 1.1, 1.2 and 1.3 structs). Throws Error(usage)
  // for a name none of them has.
  void enable(std::string_view name);
  // Every VkBool32 that is VK_TRUE in `vk_struct`, a feature struct of any
  // type (VkPhysicalDeviceFeatures2 included, which also takes its pNext
  // chain): what a .foz application-info entry carries. The extension that
  // defines a struct must also be asked for in DeviceOptions::extensions.
  void enable_struct(const void* vk_struct, std::size_t size);
  template <typename T>
  void enable_struct(const T& s) {
    enable_struct(&s, sizeof s);
  }
  // Plain 1.0 features.
  void enable_core(const VkPhysicalDeviceFeatures& f);

  bool empty() const;
  // "samplerAnisotropy", "vulkan12.bufferDeviceAddress", or
  // "sType 1000xxxxxx member N" for structs this module has no names for.
  std::vector<std::string> names() const;

  // One struct's flags, stored as the VkBool32 array after sType/pNext.
  struct Struct {
    VkStructureType stype{};
    std::vector<VkBool32> bools;
  };
  const std::vector<Struct>& structs() const { return structs_; }
  // The intersection with what `supported` has; `missing` gets the rest.
  Features intersect(const Features& supported, std::vector<std::string>& missing) const;
  // Queries what a device supports, for the structs in `like` (and the
  // 1.0 features).
  static Features supported(const PhysicalDeviceInfo& dev, std::uint32_t instance_api, const Features& like);

 private:
  friend class Device;
  Struct& slot(VkStructureType stype, std::size_t count);
  std::vector<Struct> structs_;  // [0] is always the 1.0 features
};

// ---- Logical device ----------------------------------------------------------

struct DeviceOptions {
  std::vector<std::string> extensions;           // enabled where present
  std::vector<std::string> required_extensions;  // Error(unsupported) if absent
  Features features;                             // enabled where supported
  bool require_features = false;                 // missing ones are an error
  // One queue from the first family with all these flags (else the first
  // family with any of them, else family 0).
  VkQueueFlags queue_flags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
};

// A VkDevice with its device-level entry points loaded into volk's global
// function pointers (so vkCreateBuffer and friends call this device): one
// Device per process at a time; a second one is Error(usage).
class Device {
 public:
  Device(const Instance& instance, const PhysicalDeviceInfo& physical, const DeviceOptions& opt = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice handle() const { return device_; }
  VkPhysicalDevice physical() const { return info_->handle; }
  const PhysicalDeviceInfo& info() const { return *info_; }
  const VkPhysicalDeviceLimits& limits() const { return info_->properties.limits; }
  const VkPhysicalDeviceMemoryProperties& memory() const { return info_->memory; }
  // min(instance version, device version): which core entry points exist.
  std::uint32_t api_version() const { return api_version_; }
  VkQueue queue() const { return queue_; }
  std::uint32_t queue_family() const { return queue_family_; }

  bool extension_enabled(std::string_view name) const;
  const std::vector<std::string>& enabled_extensions() const { return extensions_; }
  const std::vector<std::string>& missing_extensions() const { return missing_extensions_; }
  const Features& enabled_features() const { return features_; }
  const std::vector<std::string>& missing_features() const { return missing_features_; }

  // vkGet{Buffer,Image}MemoryRequirements2 with VkMemoryDedicatedRequirements
  // where the device has them (1.1 or VK_KHR_get_memory_requirements2 +
  // VK_KHR_dedicated_allocation), else the 1.0 query.
  struct Requirements {
    VkMemoryRequirements memory{};
    bool prefers_dedicated = false, requires_dedicated = false;
  };
  Requirements requirements(VkBuffer buffer) const;
  Requirements requirements(VkImage image) const;

  // Per-heap budget (VK_EXT_memory_budget) when enabled, else each heap's
  // size: what allocations should stay under.
  std::vector<VkDeviceSize> heap_budgets() const;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  const PhysicalDeviceInfo* info_ = nullptr;
  VkInstance instance_ = VK_NULL_HANDLE;
  std::uint32_t api_version_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  bool requirements2_ = false, dedicated_ = false;
  std::vector<std::string> extensions_, missing_extensions_, missing_features_;
  Features features_;
};

// ---- RAII for device-level handles ---------------------------------------------

// Non-dispatchable handles are distinct pointer types only on 64-bit
// targets, which the specialisations below rely on.
static_assert(!std::is_same_v<VkBuffer, VkImage>, "libtrace's vk module needs 64-bit Vulkan handles");

template <typename T>
struct Destroyer;  // specialised below for each handle type
#define TRAK_VK_DESTROYER(Type, call)                                \
  template <>                                                        \
  struct Destroyer<Type> {                                           \
    static void destroy(VkDevice d, Type h) { call(d, h, nullptr); } \
  };
TRAK_VK_DESTROYER(VkBuffer, vkDestroyBuffer)
TRAK_VK_DESTROYER(VkImage, vkDestroyImage)
TRAK_VK_DESTROYER(VkDeviceMemory, vkFreeMemory)
TRAK_VK_DESTROYER(VkPipelineCache, vkDestroyPipelineCache)
TRAK_VK_DESTROYER(VkPipeline, vkDestroyPipeline)
TRAK_VK_DESTROYER(VkPipelineLayout, vkDestroyPipelineLayout)
TRAK_VK_DESTROYER(VkShaderModule, vkDestroyShaderModule)
TRAK_VK_DESTROYER(VkDescriptorSetLayout, vkDestroyDescriptorSetLayout)
TRAK_VK_DESTROYER(VkDescriptorPool, vkDestroyDescriptorPool)
TRAK_VK_DESTROYER(VkSampler, vkDestroySampler)
TRAK_VK_DESTROYER(VkRenderPass, vkDestroyRenderPass)
TRAK_VK_DESTROYER(VkCommandPool, vkDestroyCommandPool)
TRAK_VK_DESTROYER(VkFence, vkDestroyFence)
TRAK_VK_DESTROYER(VkSemaphore, vkDestroySemaphore)
TRAK_VK_DESTROYER(VkQueryPool, vkDestroyQueryPool)
TRAK_VK_DESTROYER(VkImageView, vkDestroyImageView)
TRAK_VK_DESTROYER(VkBufferView, vkDestroyBufferView)
#undef TRAK_VK_DESTROYER

// Owns one device-level handle; destroys it with the matching vkDestroy*.
// Move-only, like unique_ptr.
template <typename T>
class Owned {
 public:
  Owned() = default;
  Owned(VkDevice device, T handle) : device_(device), handle_(handle) {}
  ~Owned() { reset(); }
  Owned(Owned&& o) noexcept : device_(o.device_), handle_(std::exchange(o.handle_, T{})) {}
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = o.device_;
      handle_ = std::exchange(o.handle_, T{});
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;

  T get() const { return handle_; }
  explicit operator bool() const { return handle_ != T{}; }
  T release() { return std::exchange(handle_, T{}); }
  void reset() {
    if (handle_ != T{}) Destroyer<T>::destroy(device_, std::exchange(handle_, T{}));
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  T handle_{};
};

using Buffer = Owned<VkBuffer>;
using Image = Owned<VkImage>;
using DeviceMemory = Owned<VkDeviceMemory>;
using PipelineCache = Owned<VkPipelineCache>;
using Pipeline = Owned<VkPipeline>;
using ShaderModule = Owned<VkShaderModule>;
using CommandPool = Owned<VkCommandPool>;
using Fence = Owned<VkFence>;
using QueryPool = Owned<VkQueryPool>;

}  // namespace libtrace::vk
