// SPDX-License-Identifier: MIT
// What the capture-layer test apps share: the instance and device, RAII for
// the objects, and pipeline create infos whose variant number makes each one
// hash differently.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace capture_apps {

// A failed Vulkan call or a missing capability; main() prints it and exits 1.
class VkError : public std::runtime_error {
 public:
  explicit VkError(const std::string& what) : std::runtime_error(what) {}
};

// Throws VkError naming |call| unless |r| is VK_SUCCESS.
void check(VkResult r, const char* call);
#define APP_CHECK(call) ::capture_apps::check((call), #call)

// Opens the loader (volkInitialize) once per process; throws VkError.
void load_vulkan();

// A Vulkan 1.3 instance, with |extensions| enabled, and the first physical
// device with a graphics queue.
class Instance {
 public:
  Instance(const std::string& app_name, const char* engine_name, const std::vector<const char*>& extensions = {});
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

// A device with one graphics queue and its own function table: several
// devices (or instances with different layers) may be alive at once, so the
// global pointers volkLoadDevice() would fill are not used.
class Device {
 public:
  Device(const Instance& instance, const DeviceWants& wants);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice handle() const { return handle_; }
  const VolkDeviceTable& vk() const { return vk_; }
  // What was asked for and could be enabled.
  bool gpl() const { return gpl_; }
  bool inline_modules() const { return inline_modules_; }
  bool wide_lines() const { return wide_lines_; }

 private:
  VkDevice handle_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  bool gpl_ = false;
  bool inline_modules_ = false;
  bool wide_lines_ = false;
};

// Owns one child object of a Device; |Destroy| is the table's destroy call.
template <typename T, auto Destroy>
class Owned {
 public:
  Owned() = default;
  Owned(const Device& device, T handle) : device_(&device), handle_(handle) {}
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

  T get() const { return handle_; }
  void reset() {
    if (handle_ != T{}) (device_->vk().*Destroy)(device_->handle(), handle_, nullptr);
    handle_ = T{};
  }

 private:
  const Device* device_ = nullptr;
  T handle_{};
};

using Sampler = Owned<VkSampler, &VolkDeviceTable::vkDestroySampler>;
using SetLayout = Owned<VkDescriptorSetLayout, &VolkDeviceTable::vkDestroyDescriptorSetLayout>;
using PipelineLayout = Owned<VkPipelineLayout, &VolkDeviceTable::vkDestroyPipelineLayout>;
using RenderPass = Owned<VkRenderPass, &VolkDeviceTable::vkDestroyRenderPass>;
using ShaderModule = Owned<VkShaderModule, &VolkDeviceTable::vkDestroyShaderModule>;
using Pipeline = Owned<VkPipeline, &VolkDeviceTable::vkDestroyPipeline>;

// The objects every pipeline of a device refers to. Both render passes
// describe the same single colour attachment; |render_pass2| comes from
// vkCreateRenderPass2 so that captures see both kinds.
struct Shared {
  explicit Shared(const Device& device, bool make_render_pass = true, bool make_render_pass2 = true);

  Sampler sampler;
  SetLayout set_layout;   // 0: the sampler, immutable; 1: a uniform buffer
  PipelineLayout layout;  // the set layout and a push-constant range
  RenderPass render_pass;
  RenderPass render_pass2;
  ShaderModule vert;
  ShaderModule frag;
  ShaderModule comp;
};

enum class Target { render_pass, render_pass2, dynamic_rendering };

struct GraphicsVariant {
  std::uint32_t variant = 0;  // the shaders' SpecId 0; also picks the fixed-function state
  Target target = Target::render_pass;
  bool inline_modules = false;
};

// A graphics pipeline's create info and everything it points at. Neither
// copyable nor movable: the create info points into the object.
class GraphicsInfo {
 public:
  GraphicsInfo(const Device& device, const Shared& shared, const GraphicsVariant& v);
  GraphicsInfo(const GraphicsInfo&) = delete;
  GraphicsInfo& operator=(const GraphicsInfo&) = delete;

  // The create info of the whole pipeline.
  const VkGraphicsPipelineCreateInfo& complete() const { return info_; }
  // The create info of the one library part |part| (a single
  // VK_GRAPHICS_PIPELINE_LIBRARY_*_BIT_EXT), with only that part's state.
  // It points into this object: use it before the next call.
  VkGraphicsPipelineCreateInfo library(VkGraphicsPipelineLibraryFlagsEXT part);

 private:
  std::uint32_t spec_data_ = 0;
  VkSpecializationMapEntry spec_entry_{};
  VkSpecializationInfo spec_{};
  std::array<VkShaderModuleCreateInfo, 2> module_infos_{};
  std::array<VkPipelineShaderStageCreateInfo, 2> stages_{};
  VkVertexInputBindingDescription binding_{};
  VkVertexInputAttributeDescription attribute_{};
  VkPipelineVertexInputStateCreateInfo vertex_input_{};
  VkPipelineInputAssemblyStateCreateInfo input_assembly_{};
  VkPipelineViewportStateCreateInfo viewport_{};
  VkPipelineRasterizationStateCreateInfo raster_{};
  VkPipelineDepthStencilStateCreateInfo depth_stencil_{};  // only for the fragment shader library
  VkPipelineMultisampleStateCreateInfo multisample_{};
  VkPipelineColorBlendAttachmentState blend_attachment_{};
  VkPipelineColorBlendStateCreateInfo blend_{};
  std::array<VkDynamicState, 2> dynamic_states_{};
  VkPipelineDynamicStateCreateInfo dynamic_{};
  VkFormat colour_format_ = VK_FORMAT_R8G8B8A8_UNORM;
  VkPipelineRenderingCreateInfo rendering_{};
  VkGraphicsPipelineLibraryCreateInfoEXT library_info_{};
  VkGraphicsPipelineCreateInfo info_{};
};

// The same for a compute pipeline; SpecId 1 is the local size x.
class ComputeInfo {
 public:
  ComputeInfo(const Shared& shared, std::uint32_t variant, bool inline_modules);
  ComputeInfo(const ComputeInfo&) = delete;
  ComputeInfo& operator=(const ComputeInfo&) = delete;

  const VkComputePipelineCreateInfo& complete() const { return info_; }

 private:
  std::array<std::uint32_t, 2> spec_data_{};
  std::array<VkSpecializationMapEntry, 2> spec_entries_{};
  VkSpecializationInfo spec_{};
  VkShaderModuleCreateInfo module_info_{};
  VkComputePipelineCreateInfo info_{};
};

}  // namespace capture_apps
