// SPDX-License-Identifier: MIT
// The pipelines of the test applications.
#include "pipelines.hpp"

#include "shaders.hpp"

namespace test_apps {

Shared::Shared(const Device& device, bool make_rp, bool make_rp2) {
  VkSamplerCreateInfo sci{};
  sci.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  sci.magFilter = VK_FILTER_LINEAR;
  sci.minFilter = VK_FILTER_LINEAR;
  sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sci.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.maxLod = 4.0f;
  sampler = make<Sampler, &VolkDeviceTable::vkCreateSampler>(device, sci);

  const VkSampler immutable = sampler.get();
  VkDescriptorSetLayoutBinding bindings[2]{};
  bindings[0].binding = 0;
  bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER;
  bindings[0].descriptorCount = 1;
  bindings[0].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
  bindings[0].pImmutableSamplers = &immutable;
  bindings[1].binding = 1;
  bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  bindings[1].descriptorCount = 1;
  bindings[1].stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_COMPUTE_BIT;
  set_layout = make<SetLayout, &VolkDeviceTable::vkCreateDescriptorSetLayout>(
      device,
      VkDescriptorSetLayoutCreateInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2, bindings});
  const VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
  layout = make_pipeline_layout(device, set_layout.get(), &push);

  if (make_rp) render_pass = make_colour_pass(device);
  if (make_rp2) render_pass2 = make_colour_pass(device, true);
  vert = make_module(device, kStormVertSpirv);
  frag = make_module(device, kStormFragSpirv);
  comp = make_module(device, kStormCompSpirv);
}

GraphicsInfo::GraphicsInfo(const Device& device, const Shared& shared, const GraphicsVariant& v) {
  spec_data_ = v.variant;
  spec_entry_ = {0, 0, sizeof(std::uint32_t)};
  spec_ = {1, &spec_entry_, sizeof(spec_data_), &spec_data_};

  const std::uint32_t* code[2] = {kStormVertSpirv, kStormFragSpirv};
  const std::size_t bytes[2] = {sizeof(kStormVertSpirv), sizeof(kStormFragSpirv)};
  const VkShaderModule modules[2] = {shared.vert.get(), shared.frag.get()};
  const VkShaderStageFlagBits stage_bits[2] = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT};
  for (int i = 0; i < 2; ++i) {
    module_infos_[i].sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_infos_[i].codeSize = bytes[i];
    module_infos_[i].pCode = code[i];
    stages_[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages_[i].pNext = v.inline_modules ? &module_infos_[i] : nullptr;
    stages_[i].stage = stage_bits[i];
    stages_[i].module = v.inline_modules ? VK_NULL_HANDLE : modules[i];
    stages_[i].pName = "main";
    stages_[i].pSpecializationInfo = &spec_;
  }

  // Besides the specialization constant, the fixed-function state follows
  // the variant too, so that the libraries of --gpl differ as well.
  binding_ = {0, 16 + 4 * (v.variant % 8), VK_VERTEX_INPUT_RATE_VERTEX};
  attribute_ = {0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  vertex_input_.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertex_input_.vertexBindingDescriptionCount = 1;
  vertex_input_.pVertexBindingDescriptions = &binding_;
  vertex_input_.vertexAttributeDescriptionCount = 1;
  vertex_input_.pVertexAttributeDescriptions = &attribute_;
  input_assembly_.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  input_assembly_.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  viewport_.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport_.viewportCount = 1;
  viewport_.scissorCount = 1;
  raster_.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster_.polygonMode = VK_POLYGON_MODE_FILL;
  raster_.cullMode = static_cast<VkCullModeFlags>(v.variant % 4);
  raster_.frontFace = static_cast<VkFrontFace>((v.variant / 4) % 2);
  raster_.lineWidth = device.wide_lines() ? 1.0f + static_cast<float>(v.variant % 4) : 1.0f;
  depth_stencil_.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth_stencil_.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  depth_stencil_.maxDepthBounds = 1.0f;
  multisample_.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample_.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  blend_attachment_.blendEnable = (v.variant % 2) ? VK_TRUE : VK_FALSE;
  blend_attachment_.srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR;
  blend_attachment_.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
  blend_attachment_.colorBlendOp = VK_BLEND_OP_ADD;
  blend_attachment_.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  blend_attachment_.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
  blend_attachment_.alphaBlendOp = VK_BLEND_OP_ADD;
  blend_attachment_.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  blend_.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend_.attachmentCount = 1;
  blend_.pAttachments = &blend_attachment_;
  blend_.blendConstants[0] = static_cast<float>(v.variant) / 1000.0f;
  blend_.blendConstants[1] = 0.25f;
  blend_.blendConstants[2] = 0.5f;
  blend_.blendConstants[3] = 1.0f;
  dynamic_states_ = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  dynamic_.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic_.dynamicStateCount = static_cast<std::uint32_t>(dynamic_states_.size());
  dynamic_.pDynamicStates = dynamic_states_.data();
  rendering_.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
  rendering_.colorAttachmentCount = 1;
  rendering_.pColorAttachmentFormats = &colour_format_;

  info_.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info_.stageCount = static_cast<std::uint32_t>(stages_.size());
  info_.pStages = stages_.data();
  info_.pVertexInputState = &vertex_input_;
  info_.pInputAssemblyState = &input_assembly_;
  info_.pViewportState = &viewport_;
  info_.pRasterizationState = &raster_;
  info_.pMultisampleState = &multisample_;
  info_.pColorBlendState = &blend_;
  info_.pDynamicState = &dynamic_;
  info_.layout = shared.layout.get();
  info_.basePipelineIndex = -1;
  switch (v.target) {
    case Target::render_pass: info_.renderPass = shared.render_pass.get(); break;
    case Target::render_pass2: info_.renderPass = shared.render_pass2.get(); break;
    case Target::dynamic_rendering: info_.pNext = &rendering_; break;
  }
}

VkGraphicsPipelineCreateInfo GraphicsInfo::library(VkGraphicsPipelineLibraryFlagsEXT part) {
  library_info_ = {};
  library_info_.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT;
  library_info_.flags = part;
  VkGraphicsPipelineCreateInfo li{};
  li.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  li.pNext = &library_info_;
  li.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
  li.basePipelineIndex = -1;
  if (part == VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) {
    li.pVertexInputState = &vertex_input_;
    li.pInputAssemblyState = &input_assembly_;
    return li;
  }
  // The other three parts need the render pass, or the rendering info.
  if (info_.pNext) library_info_.pNext = &rendering_;
  li.renderPass = info_.renderPass;
  switch (part) {
    case VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT:
      li.stageCount = 1;
      li.pStages = &stages_[0];
      li.pViewportState = &viewport_;
      li.pRasterizationState = &raster_;
      li.pDynamicState = &dynamic_;
      li.layout = info_.layout;
      break;
    case VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT:
      li.stageCount = 1;
      li.pStages = &stages_[1];
      li.pMultisampleState = &multisample_;
      // Without a render pass this library cannot know whether there is a
      // depth attachment, so the spec wants the state (VUID-06590).
      li.pDepthStencilState = &depth_stencil_;
      li.layout = info_.layout;
      break;
    default:  // fragment output interface
      li.pColorBlendState = &blend_;
      li.pMultisampleState = &multisample_;
      break;
  }
  return li;
}

ComputeInfo::ComputeInfo(const Shared& shared, std::uint32_t variant, bool inline_modules) {
  spec_data_ = {variant, 1 + variant % 64};
  spec_entries_[0] = {0, 0, sizeof(std::uint32_t)};
  spec_entries_[1] = {1, sizeof(std::uint32_t), sizeof(std::uint32_t)};
  spec_ = {2, spec_entries_.data(), sizeof(spec_data_), spec_data_.data()};
  module_info_.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info_.codeSize = sizeof(kStormCompSpirv);
  module_info_.pCode = kStormCompSpirv;
  info_.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info_.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info_.stage.pNext = inline_modules ? &module_info_ : nullptr;
  info_.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info_.stage.module = inline_modules ? VK_NULL_HANDLE : shared.comp.get();
  info_.stage.pName = "main";
  info_.stage.pSpecializationInfo = &spec_;
  info_.layout = shared.layout.get();
  info_.basePipelineIndex = -1;
}

StorageSet make_storage_set(const Device& device, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
  const VolkDeviceTable& vk = device.vk();
  StorageSet s;
  const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                             nullptr};
  s.layout = make<SetLayout, &VolkDeviceTable::vkCreateDescriptorSetLayout>(
      device,
      VkDescriptorSetLayoutCreateInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding});
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  s.pool = make<DescriptorPool, &VolkDeviceTable::vkCreateDescriptorPool>(
      device, VkDescriptorPoolCreateInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &size});
  const VkDescriptorSetLayout layout = s.layout.get();
  const VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, s.pool.get(), 1,
                                       &layout};
  APP_CHECK(vk.vkAllocateDescriptorSets(device.handle(), &ai, &s.set));
  const VkDescriptorBufferInfo dbi{buffer, offset, range};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = s.set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &dbi;
  vk.vkUpdateDescriptorSets(device.handle(), 1, &write, 0, nullptr);
  return s;
}

PipelineLayout make_pipeline_layout(const Device& device, VkDescriptorSetLayout set, const VkPushConstantRange* push) {
  return make<PipelineLayout, &VolkDeviceTable::vkCreatePipelineLayout>(
      device, VkPipelineLayoutCreateInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &set,
                                         push ? 1u : 0u, push});
}

Pipeline make_compute_pipeline(const Device& device, VkPipelineLayout layout, VkShaderModule comp,
                               VkPipelineCreateFlags flags) {
  VkComputePipelineCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  ci.flags = flags;
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = comp;
  ci.stage.pName = "main";
  ci.layout = layout;
  ci.basePipelineIndex = -1;
  VkPipeline p = VK_NULL_HANDLE;
  APP_CHECK(device.vk().vkCreateComputePipelines(device.handle(), VK_NULL_HANDLE, 1, &ci, nullptr, &p));
  return Pipeline(device, p);
}

Pipeline make_plain_pipeline(const Device& device, VkPipelineLayout layout, VkRenderPass pass, VkShaderModule vert,
                             VkShaderModule frag, std::uint32_t size) {
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vert;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = frag;
  stages[1].pName = "main";
  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  VkPipelineInputAssemblyStateCreateInfo input_assembly{};
  input_assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport viewport{0.0f, 0.0f, float(size), float(size), 0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, {size, size}};
  VkPipelineViewportStateCreateInfo viewport_state{};
  viewport_state.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport_state.viewportCount = 1;
  viewport_state.pViewports = &viewport;
  viewport_state.scissorCount = 1;
  viewport_state.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  VkGraphicsPipelineCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  ci.stageCount = 2;
  ci.pStages = stages;
  ci.pVertexInputState = &vertex_input;
  ci.pInputAssemblyState = &input_assembly;
  ci.pViewportState = &viewport_state;
  ci.pRasterizationState = &raster;
  ci.pMultisampleState = &multisample;
  ci.pColorBlendState = &blend;
  ci.layout = layout;
  ci.renderPass = pass;
  ci.basePipelineIndex = -1;
  VkPipeline p = VK_NULL_HANDLE;
  APP_CHECK(device.vk().vkCreateGraphicsPipelines(device.handle(), VK_NULL_HANDLE, 1, &ci, nullptr, &p));
  return Pipeline(device, p);
}

}  // namespace test_apps
