// SPDX-License-Identifier: MIT
// Fossilize's graphics pipeline hash: which state blocks count depends on the
// library state flags, dynamic state, rasterizer discard and on whether the
// subpass (or dynamic rendering info) has color and depth/stencil attachments.
#include "foz/pnext.hpp"

namespace libtrace::foz::detail {

DynamicStateInfo dynamic_state_info(const VkPipelineDynamicStateCreateInfo* dyn) {
  DynamicStateInfo d{};
  if (!dyn) return d;
  for (std::uint32_t i = 0; i < dyn->dynamicStateCount; ++i) {
    switch (static_cast<int>(dyn->pDynamicStates[i])) {
      case VK_DYNAMIC_STATE_DEPTH_BIAS: d.depth_bias = true; break;
      case VK_DYNAMIC_STATE_DEPTH_BOUNDS: d.depth_bounds = true; break;
      case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK: d.stencil_write_mask = true; break;
      case VK_DYNAMIC_STATE_STENCIL_REFERENCE: d.stencil_reference = true; break;
      case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK: d.stencil_compare = true; break;
      case VK_DYNAMIC_STATE_BLEND_CONSTANTS: d.blend_constants = true; break;
      case VK_DYNAMIC_STATE_SCISSOR: d.scissor = true; break;
      case VK_DYNAMIC_STATE_VIEWPORT: d.viewport = true; break;
      case VK_DYNAMIC_STATE_LINE_WIDTH: d.line_width = true; break;
      case VK_DYNAMIC_STATE_CULL_MODE: d.cull_mode = true; break;
      case VK_DYNAMIC_STATE_FRONT_FACE: d.front_face = true; break;
      case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE: d.depth_test_enable = true; break;
      case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE: d.depth_write_enable = true; break;
      case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP: d.depth_compare_op = true; break;
      case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE: d.depth_bounds_test_enable = true; break;
      case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE: d.stencil_test_enable = true; break;
      case VK_DYNAMIC_STATE_STENCIL_OP: d.stencil_op = true; break;
      case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: d.vertex_input = true; break;
      case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE: d.vertex_input_binding_stride = true; break;
      case VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT: d.patch_control_points = true; break;
      case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE: d.rasterizer_discard_enable = true; break;
      case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE: d.depth_bias_enable = true; break;
      case VK_DYNAMIC_STATE_LOGIC_OP_EXT: d.logic_op = true; break;
      case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT: d.color_write_enable = true; break;
      case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE: d.primitive_restart_enable = true; break;
      case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT: d.discard_rectangle = true; break;
      case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_MODE_EXT: d.discard_rectangle_mode = true; break;
      case VK_DYNAMIC_STATE_FRAGMENT_SHADING_RATE_KHR: d.fragment_shading_rate = true; break;
      case VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT: d.sample_locations = true; break;
      case VK_DYNAMIC_STATE_LINE_STIPPLE_EXT: d.line_stipple = true; break;
      case VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT: d.tessellation_domain_origin = true; break;
      case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT: d.depth_clamp_enable = true; break;
      case VK_DYNAMIC_STATE_POLYGON_MODE_EXT: d.polygon_mode = true; break;
      case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT: d.rasterization_samples = true; break;
      case VK_DYNAMIC_STATE_SAMPLE_MASK_EXT: d.sample_mask = true; break;
      case VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT: d.alpha_to_coverage_enable = true; break;
      case VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT: d.alpha_to_one_enable = true; break;
      case VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT: d.logic_op_enable = true; break;
      case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT: d.color_blend_enable = true; break;
      case VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT: d.color_blend_equation = true; break;
      case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT: d.color_write_mask = true; break;
      case VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT: d.rasterization_stream = true; break;
      case VK_DYNAMIC_STATE_CONSERVATIVE_RASTERIZATION_MODE_EXT: d.conservative_rasterization_mode = true; break;
      case VK_DYNAMIC_STATE_EXTRA_PRIMITIVE_OVERESTIMATION_SIZE_EXT:
        d.extra_primitive_overestimation_size = true;
        break;
      case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT: d.depth_clip_enable = true; break;
      case VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_ENABLE_EXT: d.sample_locations_enable = true; break;
      case VK_DYNAMIC_STATE_COLOR_BLEND_ADVANCED_EXT: d.color_blend_advanced = true; break;
      case VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT: d.provoking_vertex_mode = true; break;
      case VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT: d.line_rasterization_mode = true; break;
      case VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT: d.line_stipple_enable = true; break;
      case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT: d.depth_clip_negative_one_to_one = true; break;
      case VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT: d.scissor_count = d.scissor = true; break;
      case VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT: d.viewport_count = d.viewport = true; break;
      case VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT: d.depth_clamp_range = true; break;
      default: break;  // NV-only states Fossilize tracks change no hashed member
    }
  }
  return d;
}

VkGraphicsPipelineLibraryFlagsEXT effective_library_flags(const VkGraphicsPipelineCreateInfo& ci) {
  // Anything but a library with a library create info is a complete pipeline.
  const auto* lib = find_pnext<VkGraphicsPipelineLibraryCreateInfoEXT>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT, ci.pNext);
  if ((ci.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) && lib) return lib->flags;
  return VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT |
         VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
         VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
         VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
}

GlobalStateInfo global_state_info(const VkGraphicsPipelineCreateInfo& ci, const DynamicStateInfo& dyn,
                                  const SubpassMeta& meta) {
  GlobalStateInfo g{};
  const auto flags = effective_library_flags(ci);
  g.rasterization_state =
      ci.pRasterizationState && (flags & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT);
  const bool discard = !dyn.rasterizer_discard_enable && g.rasterization_state &&
                       ci.pRasterizationState->rasterizerDiscardEnable == VK_TRUE;
  if (!discard) {
    g.viewport_state = ci.pViewportState != nullptr;
    g.multisample_state = ci.pMultisampleState != nullptr;
    g.color_blend_state = ci.pColorBlendState != nullptr && meta.uses_color;
    g.depth_stencil_state = ci.pDepthStencilState != nullptr && meta.uses_depth_stencil;
  }
  g.input_assembly = ci.pInputAssemblyState != nullptr;
  g.vertex_input = ci.pVertexInputState != nullptr && !dyn.vertex_input;
  g.module_state = (flags & (VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
                             VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT)) != 0;
  g.layout_state = g.module_state;
  g.render_pass_state = true;
  if (g.module_state) {
    for (std::uint32_t i = 0; i < ci.stageCount; ++i) {
      switch (ci.pStages[i].stage) {
        case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT:
        case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: g.tessellation_state = ci.pTessellationState != nullptr; break;
        case VK_SHADER_STAGE_MESH_BIT_EXT:
        case VK_SHADER_STAGE_TASK_BIT_EXT: g.input_assembly = g.vertex_input = false; break;
        default: break;
      }
    }
  }
  // State outside a library's part of the pipeline does not count.
  if (!(flags & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT)) g.input_assembly = g.vertex_input = false;
  if (!(flags & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT))
    g.viewport_state = g.rasterization_state = g.tessellation_state = false;
  if (!(flags & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT)) g.depth_stencil_state = false;
  if (!(flags & (VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                 VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT)))
    g.multisample_state = false;
  if (!(flags & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT)) g.color_blend_state = false;
  if (!(flags & (VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                 VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
                 VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT)))
    g.render_pass_state = false;
  return g;
}

namespace {

SubpassMeta render_pass_meta(const Object* rp, std::uint32_t subpass, Hash hash, const std::string& where) {
  if (!rp) fail(where, "cannot hash: render pass " + hash_hex(hash) + " is not available");
  const auto meta = [&](const auto& ci) {
    if (subpass >= ci.subpassCount)
      fail(where, "cannot hash: subpass " + std::to_string(subpass) + " is outside render pass " + hash_hex(hash) +
                      " (" + std::to_string(ci.subpassCount) + " subpasses)");
    const auto& s = ci.pSubpasses[subpass];
    return SubpassMeta{s.colorAttachmentCount > 0,
                       s.pDepthStencilAttachment && s.pDepthStencilAttachment->attachment != VK_ATTACHMENT_UNUSED};
  };
  if (rp->s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2) return meta(*rp->as<VkRenderPassCreateInfo2>());
  if (rp->s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO) return meta(*rp->as<VkRenderPassCreateInfo>());
  fail(where, "cannot hash: object " + hash_hex(hash) + " is not a render pass");
}

SubpassMeta subpass_meta(const VkGraphicsPipelineCreateInfo& ci, Hash render_pass, const Lookup& lookup,
                         const std::string& where) {
  const auto* lib = find_pnext<VkGraphicsPipelineLibraryCreateInfoEXT>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT, ci.pNext);
  // Fragment shader state without the output interface must carry depth and
  // stencil state when the render pass is unknown (a Vulkan valid-usage rule).
  const bool force_depth_stencil = !render_pass && lib &&
                                   (lib->flags & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) &&
                                   !(lib->flags & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT);
  SubpassMeta meta;
  if (render_pass) {
    meta = render_pass_meta(lookup ? lookup(Tag::render_pass, render_pass) : nullptr, ci.subpass, render_pass, where);
  } else if (const auto* r = find_pnext<VkPipelineRenderingCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                                                       ci.pNext)) {
    meta.uses_color = r->colorAttachmentCount > 0;
    meta.uses_depth_stencil =
        r->depthAttachmentFormat != VK_FORMAT_UNDEFINED || r->stencilAttachmentFormat != VK_FORMAT_UNDEFINED;
  }
  if (force_depth_stencil) meta.uses_depth_stencil = true;
  return meta;
}

bool constant_factor(VkBlendFactor f) {
  return f == VK_BLEND_FACTOR_CONSTANT_ALPHA || f == VK_BLEND_FACTOR_CONSTANT_COLOR;
}

void hash_color_blend(Hasher& h, const VkPipelineColorBlendStateCreateInfo& b, const DynamicStateInfo& d) {
  h.u32(b.flags);
  h.u32(b.attachmentCount);
  h.u32(d.logic_op_enable ? 0 : b.logicOpEnable);
  h.u32(d.logic_op || (!b.logicOpEnable && !d.logic_op_enable) ? 0 : b.logicOp);
  const bool dynamic_attachments = d.color_blend_enable && d.color_write_mask && d.color_blend_equation;
  // A dynamic equation may pick constant factors at draw time.
  bool need_constants = d.color_blend_equation;
  if (dynamic_attachments) h.u32(0);
  for (std::uint32_t i = 0; !dynamic_attachments && i < b.attachmentCount; ++i) {
    const VkPipelineColorBlendAttachmentState& a = b.pAttachments[i];
    h.u32(d.color_blend_enable ? 0 : a.blendEnable);
    h.u32(d.color_write_mask ? 0 : a.colorWriteMask);
    if (a.blendEnable || d.color_blend_enable) {
      if (!d.color_blend_equation) {
        h.u32(d.color_blend_advanced ? 0 : a.alphaBlendOp);
        h.u32(d.color_blend_advanced ? 0 : a.colorBlendOp);
        h.u32(a.dstAlphaBlendFactor);
        h.u32(a.srcAlphaBlendFactor);
        h.u32(a.dstColorBlendFactor);
        h.u32(a.srcColorBlendFactor);
      } else {
        h.u32(0);
      }
      if (constant_factor(a.dstAlphaBlendFactor) || constant_factor(a.srcAlphaBlendFactor) ||
          constant_factor(a.dstColorBlendFactor) || constant_factor(a.srcColorBlendFactor))
        need_constants = true;
    } else {
      h.u32(0);
    }
  }
  if (need_constants && !d.blend_constants)
    for (float c : b.blendConstants) h.f32(c);
}

}  // namespace

SubpassMeta graphics_subpass_meta(const VkGraphicsPipelineCreateInfo& ci, const Lookup& lookup,
                                  const std::string& where) {
  const DynamicStateInfo d = dynamic_state_info(ci.pDynamicState);
  const GlobalStateInfo g = global_state_info(ci, d, SubpassMeta{true, true});
  return subpass_meta(ci, g.render_pass_state ? handle_hash(Tag::render_pass, ci.renderPass) : 0, lookup, where);
}

Hash hash_graphics_pipeline(const Object& o, const Lookup& lookup, const std::string& where) {
  const auto& ci = *o.as<VkGraphicsPipelineCreateInfo>();
  const auto state = effective_library_flags(ci);
  Hasher h;
  const bool flags2 = find_pnext<VkPipelineCreateFlags2CreateInfoKHR>(
      VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR, ci.pNext);
  h.u32(flags2 ? 0 : static_cast<std::uint32_t>(normalize_pipeline_flags(ci.flags)));
  // Unlike compute and ray tracing, no placeholder without a parent.
  if ((ci.flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) && ci.basePipelineHandle != VK_NULL_HANDLE) {
    h.u64(handle_hash(Tag::graphics_pipeline, ci.basePipelineHandle));
    h.s32(ci.basePipelineIndex);
  }
  const DynamicStateInfo d = dynamic_state_info(ci.pDynamicState);
  GlobalStateInfo g = global_state_info(ci, d, SubpassMeta{true, true});
  h.u64(g.layout_state ? handle_hash(Tag::pipeline_layout, ci.layout) : 0);
  const Hash render_pass = g.render_pass_state ? handle_hash(Tag::render_pass, ci.renderPass) : 0;
  h.u64(render_pass);
  g = global_state_info(ci, d, subpass_meta(ci, render_pass, lookup, where));
  h.u32(g.render_pass_state ? ci.subpass : 0u);
  h.u32(g.module_state ? ci.stageCount : 0u);

  // Each block present, or a placeholder (but multisample state).
  const HashContext c{&d, state, where};
  const auto block = [&](bool present, const void* st, const char* type, bool placeholder = true) {
    if (present)
      hash_object(h, st, type, c);
    else if (placeholder)
      h.u32(0);
  };
  block(ci.pDynamicState, ci.pDynamicState, "VkPipelineDynamicStateCreateInfo");
  block(g.depth_stencil_state, ci.pDepthStencilState, "VkPipelineDepthStencilStateCreateInfo");
  block(g.input_assembly, ci.pInputAssemblyState, "VkPipelineInputAssemblyStateCreateInfo");
  block(g.rasterization_state, ci.pRasterizationState, "VkPipelineRasterizationStateCreateInfo");
  block(g.multisample_state, ci.pMultisampleState, "VkPipelineMultisampleStateCreateInfo", false);
  block(g.viewport_state, ci.pViewportState, "VkPipelineViewportStateCreateInfo");
  block(g.vertex_input, ci.pVertexInputState, "VkPipelineVertexInputStateCreateInfo");

  if (g.color_blend_state) {
    if (!ci.pColorBlendState->pAttachments && ci.pColorBlendState->attachmentCount &&
        !(d.color_blend_enable && d.color_write_mask && d.color_blend_equation))
      fail(where, "cannot hash: color blend attachments are missing");
    hash_color_blend(h, *ci.pColorBlendState, d);
    hash_pnext_chain(h, ci.pColorBlendState->pNext, &d, state, where);
  } else {
    h.u32(0);
  }

  block(g.tessellation_state, ci.pTessellationState, "VkPipelineTessellationStateCreateInfo");

  if (g.module_state)
    for (std::uint32_t i = 0; i < ci.stageCount; ++i) hash_stage(h, ci.pStages[i], where);

  hash_pnext_chain(h, ci.pNext, &d, state, where);
  return h.get();
}

}  // namespace libtrace::foz::detail
