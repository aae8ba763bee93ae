// SPDX-License-Identifier: MIT
// Pipelines of the test applications: the capture apps' create infos, whose
// variant number makes each one hash differently, and the plain compute and
// graphics pipelines of the gpa apps.
#pragma once

#include <array>

#include "vk_app.hpp"

namespace test_apps {

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

// One storage buffer of compute shaders at set 0, binding 0.
struct StorageSet {
  SetLayout layout;
  DescriptorPool pool;
  VkDescriptorSet set = VK_NULL_HANDLE;
};
StorageSet make_storage_set(const Device& device, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range);
// With |push|, one push-constant range.
PipelineLayout make_pipeline_layout(const Device& device, VkDescriptorSetLayout set,
                                    const VkPushConstantRange* push = nullptr);
Pipeline make_compute_pipeline(const Device& device, VkPipelineLayout layout, VkShaderModule comp,
                               VkPipelineCreateFlags flags = 0);
// No vertex input, a triangle list, a static |size|x|size| viewport, nothing
// culled, no blending.
Pipeline make_plain_pipeline(const Device& device, VkPipelineLayout layout, VkRenderPass pass, VkShaderModule vert,
                             VkShaderModule frag, std::uint32_t size);

}  // namespace test_apps
