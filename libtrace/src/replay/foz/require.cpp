// SPDX-License-Identifier: MIT
// Requirement tables: SPIR-V capabilities, pNext structs, dynamic states,
// stages and flags -> features and extensions.
#include "replay/foz/require.hpp"

#include <algorithm>

#include "foz/vk_compat.hpp"

namespace libtrace::foz::detail {

namespace {

struct CapabilityNeed {
  std::uint32_t capability;
  std::string_view need;
};

// SPIR-V capability numbers from SPIRV-Headers' spirv.h.
constexpr CapabilityNeed kCapabilities[] = {
    {2, "geometryShader"},
    {3, "tessellationShader"},
    {9, "vulkan12.shaderFloat16"},
    {10, "shaderFloat64"},
    {11, "shaderInt64"},
    {12, "vulkan12.shaderBufferInt64Atomics|vulkan12.shaderSharedInt64Atomics"},
    {22, "shaderInt16"},
    {23, "shaderTessellationAndGeometryPointSize"},
    {24, "shaderTessellationAndGeometryPointSize"},
    {25, "shaderImageGatherExtended"},
    {27, "shaderStorageImageMultisample"},
    {32, "shaderClipDistance"},
    {33, "shaderCullDistance"},
    {34, "imageCubeArray"},
    {35, "sampleRateShading"},
    {39, "vulkan12.shaderInt8"},
    {41, "shaderResourceResidency"},
    {42, "shaderResourceMinLod"},
    {45, "imageCubeArray"},
    {48, "shaderStorageImageMultisample"},
    {49, "shaderStorageImageExtendedFormats"},
    {52, "sampleRateShading"},
    {53, "VK_EXT_transform_feedback.transformFeedback"},
    {54, "VK_EXT_transform_feedback.geometryStreams"},
    {55, "shaderStorageImageReadWithoutFormat"},
    {56, "shaderStorageImageWriteWithoutFormat"},
    {57, "multiViewport"},
    {69, "vulkan12.shaderOutputLayer"},
    {70, "vulkan12.shaderOutputViewportIndex"},
    {4422,
     "VK_KHR_fragment_shading_rate.pipelineFragmentShadingRate|VK_KHR_fragment_shading_rate."
     "primitiveFragmentShadingRate|"
     "VK_KHR_fragment_shading_rate.attachmentFragmentShadingRate"},
    {4423, "VK_EXT_shader_subgroup_ballot"},
    {4427, "vulkan11.shaderDrawParameters"},
    {4431, "VK_EXT_shader_subgroup_vote"},
    {4433, "vulkan11.storageBuffer16BitAccess"},
    {4434, "vulkan11.uniformAndStorageBuffer16BitAccess"},
    {4435, "vulkan11.storagePushConstant16"},
    {4436, "vulkan11.storageInputOutput16"},
    {4439, "vulkan11.multiview"},
    {4441, "vulkan11.variablePointersStorageBuffer"},
    {4442, "vulkan11.variablePointers"},
    {4448, "vulkan12.storageBuffer8BitAccess"},
    {4449, "vulkan12.uniformAndStorageBuffer8BitAccess"},
    {4450, "vulkan12.storagePushConstant8"},
    {4472, "VK_KHR_ray_query.rayQuery"},
    {4479, "VK_KHR_ray_tracing_pipeline.rayTracingPipeline"},
    {5016, "VK_EXT_shader_image_atomic_int64.shaderImageInt64Atomics"},
    {5055, "VK_KHR_shader_clock"},
    {5266, "VK_NV_mesh_shader.meshShader"},
    {5283, "VK_EXT_mesh_shader.meshShader"},
    {5284, "VK_KHR_fragment_shader_barycentric.fragmentShaderBarycentric|VK_NV_fragment_shader_barycentric"},
    {5302, "vulkan12.runtimeDescriptorArray"},
    {5345, "vulkan12.vulkanMemoryModel"},
    {5346, "vulkan12.vulkanMemoryModelDeviceScope"},
    {5347, "vulkan12.bufferDeviceAddress|VK_EXT_buffer_device_address"},
    {5363, "VK_EXT_fragment_shader_interlock.fragmentShaderSampleInterlock"},
    {5372, "VK_EXT_fragment_shader_interlock.fragmentShaderShadingRateInterlock"},
    {5378, "VK_EXT_fragment_shader_interlock.fragmentShaderPixelInterlock"},
    {5379, "vulkan13.shaderDemoteToHelperInvocation"},
    {6016, "vulkan13.shaderIntegerDotProduct"},
    {6017, "vulkan13.shaderIntegerDotProduct"},
    {6018, "vulkan13.shaderIntegerDotProduct"},
    {6019, "vulkan13.shaderIntegerDotProduct"},
    {6033, "VK_EXT_shader_atomic_float"},
    {6034, "VK_EXT_shader_atomic_float"},
    {5612, "VK_EXT_shader_atomic_float2"},
    {5613, "VK_EXT_shader_atomic_float2"},
    {5616, "VK_EXT_shader_atomic_float2"},
    {6095, "VK_EXT_shader_atomic_float2"},
};

struct StructNeed {
  VkStructureType stype;
  std::string_view need;
};

// pNext structs of create infos (those Fossilize records) and where they come
// from. Core structs of 1.0 need nothing and are not listed.
const StructNeed kStructs[] = {
    {VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO, "core1.1|VK_KHR_maintenance2"},
    {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT, "VK_EXT_vertex_attribute_divisor"},
    {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT,
     "VK_EXT_depth_clip_enable.depthClipEnable"},
    {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT,
     "VK_EXT_transform_feedback.geometryStreams"},
    {VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO, "core1.1|VK_KHR_multiview"},
    {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, "core1.2|VK_EXT_descriptor_indexing"},
    {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_ADVANCED_STATE_CREATE_INFO_EXT, "VK_EXT_blend_operation_advanced"},
    {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT, "VK_EXT_conservative_rasterization"},
    {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT, "VK_EXT_line_rasterization"},
    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
     "vulkan13.subgroupSizeControl|VK_EXT_subgroup_size_control"},
    {VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT,
     "VK_EXT_mutable_descriptor_type|VK_VALVE_mutable_descriptor_type"},
    {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT, "core1.2|VK_KHR_separate_depth_stencil_layouts"},
    {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT, "core1.2|VK_KHR_separate_depth_stencil_layouts"},
    {VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE, "core1.2|VK_KHR_depth_stencil_resolve"},
    {VK_STRUCTURE_TYPE_FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR,
     "VK_KHR_fragment_shading_rate.attachmentFragmentShadingRate"},
    {VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, "vulkan13.dynamicRendering|VK_KHR_dynamic_rendering"},
    {VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT, "VK_EXT_color_write_enable.colorWriteEnable"},
    {VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT, "VK_EXT_sample_locations"},
    {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT, "VK_EXT_provoking_vertex"},
    {VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT, "VK_EXT_custom_border_color.customBorderColors"},
    {VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO, "core1.2|VK_EXT_sampler_filter_minmax"},
    {VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO, "core1.1|VK_KHR_maintenance2"},
    {VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT, "VK_EXT_discard_rectangles"},
    {VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, "vulkan13.synchronization2|VK_KHR_synchronization2"},
    {VK_STRUCTURE_TYPE_PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR,
     "VK_KHR_fragment_shading_rate.pipelineFragmentShadingRate"},
    {VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO,
     "vulkan11.samplerYcbcrConversion|VK_KHR_sampler_ycbcr_conversion"},
    {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT,
     "VK_EXT_graphics_pipeline_library.graphicsPipelineLibrary"},
    {VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR, "VK_KHR_pipeline_library"},
    {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT,
     "VK_EXT_depth_clip_control.depthClipControl"},
    {VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR, "VK_KHR_maintenance5"},
    {VK_STRUCTURE_TYPE_RENDER_PASS_CREATION_CONTROL_EXT, "VK_EXT_subpass_merge_feedback"},
    {VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT, "VK_EXT_border_color_swizzle"},
    {VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT, "VK_EXT_multisampled_render_to_single_sampled"},
    {VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT, "VK_EXT_depth_bias_control"},
    {VK_STRUCTURE_TYPE_RENDER_PASS_FRAGMENT_DENSITY_MAP_CREATE_INFO_EXT, "VK_EXT_fragment_density_map"},
    {VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT, "VK_EXT_sample_locations"},
    {VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT, "VK_EXT_pipeline_robustness.pipelineRobustness"},
    {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT, "VK_EXT_depth_clamp_control"},
    {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR, "VK_KHR_dynamic_rendering_local_read"},
    {VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR, "VK_KHR_dynamic_rendering_local_read"},
    // A module inside a stage instead of a VkShaderModule.
    {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, "VK_KHR_maintenance5|VK_EXT_graphics_pipeline_library"},
    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_MODULE_IDENTIFIER_CREATE_INFO_EXT, "VK_EXT_shader_module_identifier"},
};

std::string_view dynamic_state_need(std::uint32_t s) {
  if (s >= 1000267000 && s <= 1000267011) return "core1.3|VK_EXT_extended_dynamic_state.extendedDynamicState";
  switch (s) {
    case 1000377001:  // rasterizer discard, depth bias, primitive restart enable
    case 1000377002:
    case 1000377004: return "core1.3|VK_EXT_extended_dynamic_state2.extendedDynamicState2";
    case 1000377000: return "VK_EXT_extended_dynamic_state2.extendedDynamicState2PatchControlPoints";
    case 1000377003: return "VK_EXT_extended_dynamic_state2.extendedDynamicState2LogicOp";
    case 1000352000: return "VK_EXT_vertex_input_dynamic_state.vertexInputDynamicState";
    case 1000381000: return "VK_EXT_color_write_enable.colorWriteEnable";
    case 1000259000: return "VK_EXT_line_rasterization";
    case 1000226000: return "VK_KHR_fragment_shading_rate.pipelineFragmentShadingRate";
    case 1000143000: return "VK_EXT_sample_locations";
    case 1000099000:
    case 1000099001:
    case 1000099002: return "VK_EXT_discard_rectangles";
    case 1000347000: return "VK_KHR_ray_tracing_pipeline";
    case 1000087000: return "VK_NV_clip_space_w_scaling";
    default: break;
  }
  if (s >= 1000455002 && s <= 1000455032) return "VK_EXT_extended_dynamic_state3";
  return {};
}

void stage_needs(VkShaderStageFlagBits stage, Needs& out) {
  switch (stage) {
    case VK_SHADER_STAGE_GEOMETRY_BIT: out.add("geometryShader"); break;
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT:
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: out.add("tessellationShader"); break;
    case VK_SHADER_STAGE_TASK_BIT_EXT: out.add("VK_EXT_mesh_shader.taskShader|VK_NV_mesh_shader.taskShader"); break;
    case VK_SHADER_STAGE_MESH_BIT_EXT: out.add("VK_EXT_mesh_shader.meshShader|VK_NV_mesh_shader.meshShader"); break;
    default:
      if (stage &
          (VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |
           VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR))
        out.add("VK_KHR_ray_tracing_pipeline.rayTracingPipeline");
      break;
  }
}

void stages_needs(const VkPipelineShaderStageCreateInfo* stages, std::uint32_t n, Needs& out) {
  for (std::uint32_t i = 0; stages && i < n; ++i) {
    stage_needs(stages[i].stage, out);
    chain_needs(stages[i].pNext, out);
  }
}

template <typename T>
void state_needs(const T* state, Needs& out) {
  if (state) chain_needs(state->pNext, out);
}

void dynamic_needs(const VkPipelineDynamicStateCreateInfo* d, Needs& out) {
  if (!d) return;
  for (std::uint32_t i = 0; i < d->dynamicStateCount; ++i)
    if (auto need = dynamic_state_need(static_cast<std::uint32_t>(d->pDynamicStates[i])); !need.empty()) out.add(need);
}

bool satisfied(std::string_view alt, const Capabilities& caps) {
  if (alt.substr(0, 4) == "core") {
    const std::uint32_t minor = static_cast<std::uint32_t>(alt.back() - '0');
    return caps.api_version() >= VK_MAKE_API_VERSION(0, 1, minor, 0);
  }
  if (alt.substr(0, 3) == "VK_" && alt.find('.') == std::string_view::npos) return caps.has_extension(alt);
  return caps.has_feature(alt);
}

}  // namespace

void spirv_needs(std::span<const std::uint32_t> words, Needs& out) {
  constexpr std::uint32_t kOpCapability = 17, kOpExtension = 10, kOpExtInstImport = 11, kOpMemoryModel = 14;
  if (words.size() < 5 || words[0] != 0x07230203) return;
  for (std::size_t i = 5; i < words.size();) {
    const std::uint32_t op = words[i] & 0xffff, count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) return;
    if (op == kOpCapability && count >= 2) {
      for (const auto& c : kCapabilities)
        if (c.capability == words[i + 1]) out.add(c.need);
    } else if (op == kOpMemoryModel || (op != kOpExtension && op != kOpExtInstImport)) {
      return;  // capabilities all come before the memory model
    }
    i += count;
  }
}

void chain_needs(const void* pnext, Needs& out) {
  for (auto* p = static_cast<const VkBaseInStructure*>(pnext); p; p = p->pNext)
    for (const auto& s : kStructs)
      if (s.stype == p->sType) {
        out.add(s.need);
        break;
      }
}

void pipeline_needs(const Object& o, Needs& out) {
  switch (o.tag) {
    case Tag::compute_pipeline: {
      const auto* p = o.as<VkComputePipelineCreateInfo>();
      stage_needs(p->stage.stage, out);
      chain_needs(p->stage.pNext, out);
      chain_needs(p->pNext, out);
      break;
    }
    case Tag::graphics_pipeline: {
      const auto* p = o.as<VkGraphicsPipelineCreateInfo>();
      if (p->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)
        out.add("VK_EXT_graphics_pipeline_library.graphicsPipelineLibrary");
      stages_needs(p->pStages, p->stageCount, out);
      state_needs(p->pVertexInputState, out);
      state_needs(p->pInputAssemblyState, out);
      state_needs(p->pTessellationState, out);
      state_needs(p->pViewportState, out);
      state_needs(p->pRasterizationState, out);
      state_needs(p->pMultisampleState, out);
      state_needs(p->pDepthStencilState, out);
      state_needs(p->pColorBlendState, out);
      dynamic_needs(p->pDynamicState, out);
      chain_needs(p->pNext, out);
      break;
    }
    case Tag::raytracing_pipeline: {
      const auto* p = o.as<VkRayTracingPipelineCreateInfoKHR>();
      out.add("VK_KHR_ray_tracing_pipeline.rayTracingPipeline");
      if (p->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) out.add("VK_KHR_pipeline_library");
      stages_needs(p->pStages, p->stageCount, out);
      dynamic_needs(p->pDynamicState, out);
      chain_needs(p->pNext, out);
      break;
    }
    default: break;
  }
}

std::string lacking(const Needs& needs, const Capabilities& caps) {
  if (caps.all()) return {};
  std::vector<std::string_view> missing;
  for (std::string_view need : needs.items) {
    bool ok = false;
    for (std::size_t at = 0; !ok && at <= need.size();) {
      const std::size_t bar = std::min(need.find('|', at), need.size());
      ok = satisfied(need.substr(at, bar - at), caps);
      at = bar + 1;
    }
    if (!ok && std::find(missing.begin(), missing.end(), need) == missing.end()) missing.push_back(need);
  }
  if (missing.empty()) return {};
  std::string out = "the device lacks ";
  for (std::size_t i = 0; i < missing.size(); ++i) {
    if (i) out += ", ";
    std::string alt(missing[i]);
    for (auto& c : alt)
      if (c == '|') c = '/';
    out += alt;
  }
  return out;
}

}  // namespace libtrace::foz::detail
