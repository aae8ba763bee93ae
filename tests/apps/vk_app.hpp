// SPDX-License-Identifier: MIT
// What the test applications share: errors, the loader, the instance and the
// device, RAII for the objects, and the objects every app makes the same way.
// The apps play the part of ordinary Vulkan applications: volk and threads
// only, nothing of libtrace, so that what a layer sees is what any program
// does and a bug of libtrace cannot hide itself in the app.
#pragma once

#include <volk.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace test_apps {

// A failed Vulkan call or a missing capability; main() prints it and exits 1.
class VkError : public std::runtime_error {
 public:
  explicit VkError(const std::string& what) : std::runtime_error(what) {}
};

// "VK_ERROR_DEVICE_LOST", or "VkResult" for the codes the apps never expect.
const char* result_name(VkResult r);
// Throws VkError naming |call| unless |r| is VK_SUCCESS.
void check(VkResult r, const char* call);
#define APP_CHECK(call) ::test_apps::check((call), #call)

// What main() returns: |body|'s exit status, or 1 after "NAME: what" on
// stderr when it throws.
template <typename F>
int run_main(const char* name, F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}

// Opens the loader (volkInitialize) once per process; throws VkError when
// there is none or it is older than |api_version|.
void load_vulkan(std::uint32_t api_version = VK_API_VERSION_1_3);

struct AppInfo {
  std::string name;
  std::uint32_t api_version = VK_API_VERSION_1_3;
  std::vector<const char*> extensions;
  std::vector<const char*> layers;
};

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance);
std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice pd);
const VkExtensionProperties* find_extension(const std::vector<VkExtensionProperties>& exts, const char* name);
// The first queue family of |pd| with every flag of |want| (and timestamps
// where |timestamps|).
std::optional<std::uint32_t> queue_family(VkPhysicalDevice pd, VkQueueFlags want, bool timestamps = false);

// vkCreateDevice with one queue of |family|, the feature structs chained
// from |features|, and |extensions|.
VkResult create_device(VkPhysicalDevice pd, std::uint32_t family, const void* features,
                       const std::vector<const char*>& extensions, VkDevice* device);

// An instance of engine "trak-tests". The capture apps' constructor also
// chooses the first Vulkan 1.3 physical device with a graphics queue.
class Instance {
 public:
  explicit Instance(const AppInfo& app);
  explicit Instance(const std::string& app_name, const std::vector<const char*>& extensions = {});
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return handle_; }
  VkPhysicalDevice physical() const { return physical_; }
  std::uint32_t queue_family() const { return queue_family_; }

 private:
  VkInstance handle_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
};

struct DeviceWants {
  bool gpl = false;             // VK_EXT_graphics_pipeline_library
  bool inline_modules = false;  // VkShaderModuleCreateInfo in a stage's pNext
  bool swapchain = false;       // VK_KHR_swapchain (the instance has VK_KHR_surface)
};

// A device with its own function table: several devices (or instances with
// different layers) may be alive at once, so the global pointers
// volkLoadDevice() would fill are not used. The apps use queue 0 of one family.
class Device {
 public:
  // The capture apps' device, on the instance's physical device.
  Device(const Instance& instance, const DeviceWants& wants);
  // One queue of |family|, the feature structs chained from |features|.
  Device(VkPhysicalDevice physical, std::uint32_t family, const void* features,
         const std::vector<const char*>& extensions);
  // Takes over |handle|, which the caller made on |physical|.
  Device(VkPhysicalDevice physical, std::uint32_t family, VkDevice handle);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice handle() const { return handle_; }
  const VolkDeviceTable& vk() const { return vk_; }
  VkPhysicalDevice physical() const { return physical_; }
  std::uint32_t queue_family() const { return family_; }
  VkQueue queue() const;
  // The first memory type of |bits| with every property of |want|; throws.
  std::uint32_t memory_type(std::uint32_t bits, VkMemoryPropertyFlags want) const;
  // What DeviceWants asked for and could be enabled.
  bool gpl() const { return gpl_; }
  bool inline_modules() const { return inline_modules_; }
  bool wide_lines() const { return wide_lines_; }

 private:
  VkDevice handle_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  std::uint32_t family_ = 0;
  bool gpl_ = false;
  bool inline_modules_ = false;
  bool wide_lines_ = false;
};

template <typename M>
struct MemberOf;
template <typename C, typename F>
struct MemberOf<F C::*> {
  using type = C;
};

// Owns one child object of a device; |Destroy| is the destroy call, a member
// of VolkDeviceTable or of an app's table of extension entry points.
template <typename T, auto Destroy>
class Owned {
  using Table = typename MemberOf<decltype(Destroy)>::type;

 public:
  Owned() = default;
  Owned(const Table& table, VkDevice device, T handle) : table_(&table), device_(device), handle_(handle) {}
  Owned(const Device& device, T handle) requires std::is_same_v<Table, VolkDeviceTable>
      : Owned(device.vk(), device.handle(), handle) {}
  ~Owned() { reset(); }
  Owned(Owned&& o) noexcept : table_(o.table_), device_(o.device_), handle_(std::exchange(o.handle_, T{})) {}
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      reset();
      table_ = o.table_;
      device_ = o.device_;
      handle_ = std::exchange(o.handle_, T{});
    }
    return *this;
  }

  T get() const { return handle_; }
  void reset() {
    if (handle_ != T{}) (table_->*Destroy)(device_, handle_, nullptr);
    handle_ = T{};
  }
  // Forgets the object, left to the process's end.
  T release() { return std::exchange(handle_, T{}); }

 private:
  const Table* table_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  T handle_{};
};

using Buffer = Owned<VkBuffer, &VolkDeviceTable::vkDestroyBuffer>;
using Image = Owned<VkImage, &VolkDeviceTable::vkDestroyImage>;
using ImageView = Owned<VkImageView, &VolkDeviceTable::vkDestroyImageView>;
using Memory = Owned<VkDeviceMemory, &VolkDeviceTable::vkFreeMemory>;
using Sampler = Owned<VkSampler, &VolkDeviceTable::vkDestroySampler>;
using SetLayout = Owned<VkDescriptorSetLayout, &VolkDeviceTable::vkDestroyDescriptorSetLayout>;
using DescriptorPool = Owned<VkDescriptorPool, &VolkDeviceTable::vkDestroyDescriptorPool>;
using PipelineLayout = Owned<VkPipelineLayout, &VolkDeviceTable::vkDestroyPipelineLayout>;
using RenderPass = Owned<VkRenderPass, &VolkDeviceTable::vkDestroyRenderPass>;
using Framebuffer = Owned<VkFramebuffer, &VolkDeviceTable::vkDestroyFramebuffer>;
using ShaderModule = Owned<VkShaderModule, &VolkDeviceTable::vkDestroyShaderModule>;
using Pipeline = Owned<VkPipeline, &VolkDeviceTable::vkDestroyPipeline>;
using QueryPool = Owned<VkQueryPool, &VolkDeviceTable::vkDestroyQueryPool>;
using CommandPool = Owned<VkCommandPool, &VolkDeviceTable::vkDestroyCommandPool>;
using Fence = Owned<VkFence, &VolkDeviceTable::vkDestroyFence>;
using Semaphore = Owned<VkSemaphore, &VolkDeviceTable::vkDestroySemaphore>;
using Swapchain = Owned<VkSwapchainKHR, &VolkDeviceTable::vkDestroySwapchainKHR>;

// An object made by the table's create call |Create| from |ci|.
template <typename O, auto Create, typename Info>
O make(const Device& device, const Info& ci) {
  decltype(O().get()) h{};
  check((device.vk().*Create)(device.handle(), &ci, nullptr, &h), "a vkCreate* call");
  return O(device, h);
}

// A buffer or an image with the memory bound to it, destroyed before it.
struct BoundBuffer {
  Memory memory;
  Buffer buffer;
  VkBuffer get() const { return buffer.get(); }
};
struct BoundImage {
  Memory memory;
  Image image;
  VkImage get() const { return image.get(); }
};
// Memory of a type with |want| (0: the first type the object takes).
BoundBuffer make_buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want);
// A 2D image of one mip level, optimal tiling.
BoundImage make_image(const Device& device, VkFormat format, std::uint32_t size, std::uint32_t layers,
                      VkImageUsageFlags usage, VkMemoryPropertyFlags want);
void* map(const Device& device, const Memory& memory);
ImageView make_view(const Device& device, VkImage image, VkFormat format, VkImageAspectFlags aspects);
Framebuffer make_framebuffer(const Device& device, VkRenderPass pass, const std::vector<VkImageView>& views,
                             std::uint32_t size);
// One R8G8B8A8 colour attachment, cleared, left in COLOR_ATTACHMENT_OPTIMAL;
// by vkCreateRenderPass, or by vkCreateRenderPass2 with |two|.
RenderPass make_colour_pass(const Device& device, bool two = false);
ShaderModule make_module(const Device& device, const std::uint32_t* code, std::size_t bytes);
template <std::size_t N>
ShaderModule make_module(const Device& device, const std::uint32_t (&code)[N]) {
  return make_module(device, code, sizeof code);
}
// On the device's queue family.
CommandPool make_command_pool(const Device& device, VkCommandPoolCreateFlags flags = 0);
VkCommandBuffer allocate_commands(const Device& device, VkCommandPool pool,
                                  VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY);
void begin_commands(const Device& device, VkCommandBuffer cb, VkCommandBufferUsageFlags flags = 0);
Fence make_fence(const Device& device, VkFenceCreateFlags flags = 0);
void submit(const Device& device, VkQueue queue, VkCommandBuffer cb, VkFence fence);

}  // namespace test_apps
