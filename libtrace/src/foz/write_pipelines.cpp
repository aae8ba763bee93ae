// SPDX-License-Identifier: MIT
// Structs -> Fossilize JSON for graphics, compute and ray-tracing pipelines.
// Graphics state blocks follow Fossilize's rules for what a pipeline uses
// (library state flags, rasterizer discard, dynamic state).
#include "foz/json_out.hpp"
#include "libtrace/foz/varint.hpp"

namespace libtrace::foz::detail {

namespace {

void write_specialization(Out& o, const VkSpecializationInfo& s) {
  o.begin_object("specializationInfo");
  o.u64("dataSize", s.dataSize);
  o.str("data", encode_base64(s.pData, s.dataSize));
  o.begin_array("mapEntries");
  for (std::uint32_t i = 0; i < s.mapEntryCount; ++i) {
    o.begin_object();
    o.u32("offset", s.pMapEntries[i].offset);
    o.u64("size", s.pMapEntries[i].size);
    o.u32("constantID", s.pMapEntries[i].constantID);
    o.end_object();
  }
  o.end_array();
  o.end_object();
}

void write_stages(Out& o, const VkPipelineShaderStageCreateInfo* stages, std::uint32_t count) {
  o.begin_array("stages");
  for (std::uint32_t i = 0; i < count; ++i) {
    const VkPipelineShaderStageCreateInfo& s = stages[i];
    o.begin_object();
    o.u32("flags", s.flags);
    o.str("name", s.pName ? s.pName : "");
    o.hash("module", stage_module_or_zero(s));
    o.u32("stage", s.stage);
    if (s.pSpecializationInfo) write_specialization(o, *s.pSpecializationInfo);
    write_pnext(o, s.pNext, nullptr);
    o.end_object();
  }
  o.end_array();
}

void write_dynamic(Out& o, const VkPipelineDynamicStateCreateInfo& d) {
  o.begin_object("dynamicState");
  o.u32("flags", d.flags);
  o.u32_array("dynamicState", d.pDynamicStates, d.dynamicStateCount);
  o.end_object();
}

void write_stencil(Out& o, const char* key, const VkStencilOpState& s) {
  o.begin_object(key);
  o.u32("compareOp", s.compareOp);
  o.u32("writeMask", s.writeMask);
  o.u32("reference", s.reference);
  o.u32("compareMask", s.compareMask);
  o.u32("passOp", s.passOp);
  o.u32("failOp", s.failOp);
  o.u32("depthFailOp", s.depthFailOp);
  o.end_object();
}

bool uses_constant_factor(const VkPipelineColorBlendAttachmentState& a) {
  for (VkBlendFactor f : {a.dstAlphaBlendFactor, a.srcAlphaBlendFactor, a.dstColorBlendFactor, a.srcColorBlendFactor})
    if (f == VK_BLEND_FACTOR_CONSTANT_ALPHA || f == VK_BLEND_FACTOR_CONSTANT_COLOR) return true;
  return false;
}

void write_color_blend(Out& o, const VkPipelineColorBlendStateCreateInfo& cb, const DynamicStateInfo& dyn) {
  o.begin_object("colorBlendState");
  o.u32("flags", cb.flags);
  o.u32("logicOp", cb.logicOp);
  o.u32("logicOpEnable", cb.logicOpEnable);
  // With blend enable, equation and write mask all dynamic, pAttachments is
  // ignored by Vulkan; Fossilize writes blank entries for the count.
  const bool dynamic_attachments = dyn.color_blend_enable && dyn.color_write_mask && dyn.color_blend_equation;
  bool need_constants = dynamic_attachments;
  if (!dynamic_attachments)
    for (std::uint32_t i = 0; i < cb.attachmentCount; ++i)
      if (cb.pAttachments[i].blendEnable && uses_constant_factor(cb.pAttachments[i])) need_constants = true;
  o.begin_array("blendConstants");
  for (float c : cb.blendConstants) o.f32(dyn.blend_constants || !need_constants ? 0.0f : c);
  o.end_array();
  o.begin_array("attachments");
  const VkPipelineColorBlendAttachmentState blank{};
  for (std::uint32_t i = 0; i < cb.attachmentCount; ++i) {
    const VkPipelineColorBlendAttachmentState& a = dynamic_attachments ? blank : cb.pAttachments[i];
    o.begin_object();
    o.u32("dstAlphaBlendFactor", a.dstAlphaBlendFactor);
    o.u32("srcAlphaBlendFactor", a.srcAlphaBlendFactor);
    o.u32("dstColorBlendFactor", a.dstColorBlendFactor);
    o.u32("srcColorBlendFactor", a.srcColorBlendFactor);
    o.u32("colorWriteMask", a.colorWriteMask);
    o.u32("alphaBlendOp", a.alphaBlendOp);
    o.u32("colorBlendOp", a.colorBlendOp);
    o.u32("blendEnable", a.blendEnable);
    o.end_object();
  }
  o.end_array();
  write_pnext(o, cb.pNext, &dyn);
  o.end_object();
}

void write_viewport(Out& o, const VkPipelineViewportStateCreateInfo& vp, const DynamicStateInfo& dyn) {
  o.begin_object("viewportState");
  o.u32("flags", vp.flags);
  o.u32("viewportCount", vp.viewportCount);
  o.u32("scissorCount", vp.scissorCount);
  if (vp.pViewports) {
    o.begin_array("viewports");
    for (std::uint32_t i = 0; i < vp.viewportCount; ++i) {
      const VkViewport& v = vp.pViewports[i];
      o.begin_object();
      o.f32("x", v.x);
      o.f32("y", v.y);
      o.f32("width", v.width);
      o.f32("height", v.height);
      o.f32("minDepth", v.minDepth);
      o.f32("maxDepth", v.maxDepth);
      o.end_object();
    }
    o.end_array();
  }
  if (vp.pScissors) {
    o.begin_array("scissors");
    for (std::uint32_t i = 0; i < vp.scissorCount; ++i) {
      const VkRect2D& r = vp.pScissors[i];
      o.begin_object();
      o.s32("x", r.offset.x);
      o.s32("y", r.offset.y);
      o.u32("width", r.extent.width);
      o.u32("height", r.extent.height);
      o.end_object();
    }
    o.end_array();
  }
  write_pnext(o, vp.pNext, &dyn);
  o.end_object();
}

void write_depth_stencil(Out& o, const VkPipelineDepthStencilStateCreateInfo& ds, const DynamicStateInfo& dyn) {
  o.begin_object("depthStencilState");
  o.u32("flags", ds.flags);
  o.u32("stencilTestEnable", ds.stencilTestEnable);
  o.f32("maxDepthBounds", ds.maxDepthBounds);
  o.f32("minDepthBounds", ds.minDepthBounds);
  o.u32("depthBoundsTestEnable", ds.depthBoundsTestEnable);
  o.u32("depthWriteEnable", ds.depthWriteEnable);
  o.u32("depthTestEnable", ds.depthTestEnable);
  o.u32("depthCompareOp", ds.depthCompareOp);
  write_stencil(o, "front", ds.front);
  write_stencil(o, "back", ds.back);
  write_pnext(o, ds.pNext, &dyn);
  o.end_object();
}

}  // namespace

void write_library_info(Out& o, const VkPipelineLibraryCreateInfoKHR& l, bool in_chain) {
  o.begin_object();
  o.begin_array("libraries");
  const Tag tag = in_chain ? Tag::graphics_pipeline : Tag::raytracing_pipeline;
  for (std::uint32_t i = 0; i < l.libraryCount; ++i) o.hash(handle_hash(tag, l.pLibraries[i]));
  o.end_array();
  if (in_chain)
    o.u32("sType", l.sType);
  else
    write_pnext(o, l.pNext, nullptr);
  o.end_object();
}

void write_compute_pipeline(Out& o, const VkComputePipelineCreateInfo& p) {
  o.begin_object();
  o.u32("flags", p.flags);
  o.handle("layout", Tag::pipeline_layout, p.layout);
  o.handle("basePipelineHandle", Tag::compute_pipeline, p.basePipelineHandle);
  o.s32("basePipelineIndex", p.basePipelineIndex);
  const VkPipelineShaderStageCreateInfo& s = p.stage;
  o.begin_object("stage");
  o.u32("flags", s.flags);
  o.u32("stage", s.stage);
  o.hash("module", stage_module_or_zero(s));
  o.str("name", s.pName ? s.pName : "");
  if (s.pSpecializationInfo) write_specialization(o, *s.pSpecializationInfo);
  write_pnext(o, s.pNext, nullptr);
  o.end_object();
  write_pnext(o, p.pNext, nullptr);
  o.end_object();
}

void write_raytracing_pipeline(Out& o, const VkRayTracingPipelineCreateInfoKHR& p) {
  o.begin_object();
  o.u32("flags", p.flags);
  o.handle("layout", Tag::pipeline_layout, p.layout);
  o.handle("basePipelineHandle", Tag::raytracing_pipeline, p.basePipelineHandle);
  o.s32("basePipelineIndex", p.basePipelineIndex);
  o.u32("maxPipelineRayRecursionDepth", p.maxPipelineRayRecursionDepth);
  if (p.pDynamicState) write_dynamic(o, *p.pDynamicState);
  write_stages(o, p.pStages, p.stageCount);
  if (p.pLibraryInterface) {
    o.begin_object("libraryInterface");
    o.u32("maxPipelineRayPayloadSize", p.pLibraryInterface->maxPipelineRayPayloadSize);
    o.u32("maxPipelineRayHitAttributeSize", p.pLibraryInterface->maxPipelineRayHitAttributeSize);
    write_pnext(o, p.pLibraryInterface->pNext, nullptr);
    o.end_object();
  }
  if (p.pLibraryInfo) {
    o.key("libraryInfo");
    write_library_info(o, *p.pLibraryInfo, false);
  }
  o.begin_array("groups");
  for (std::uint32_t i = 0; i < p.groupCount; ++i) {
    const VkRayTracingShaderGroupCreateInfoKHR& g = p.pGroups[i];
    o.begin_object();
    o.u32("anyHitShader", g.anyHitShader);
    o.u32("intersectionShader", g.intersectionShader);
    o.u32("generalShader", g.generalShader);
    o.u32("closestHitShader", g.closestHitShader);
    o.u32("type", g.type);
    write_pnext(o, g.pNext, nullptr);
    o.end_object();
  }
  o.end_array();
  write_pnext(o, p.pNext, nullptr);
  o.end_object();
}

void write_graphics_pipeline(Out& o, const VkGraphicsPipelineCreateInfo& p, SubpassMeta meta, bool live) {
  const DynamicStateInfo dyn = dynamic_state_info(p.pDynamicState);
  // What a recording keeps: Fossilize drops from the JSON what the pipeline
  // does not use.
  const GlobalStateInfo g = global_state_info(p, dyn, meta);
  o.set_library_state(effective_library_flags(p));
  o.begin_object();
  o.u32("flags", p.flags);
  o.handle("basePipelineHandle", Tag::graphics_pipeline, p.basePipelineHandle);
  o.s32("basePipelineIndex", p.basePipelineIndex);
  // Fossilize's layer records state a live pipeline does not use as null
  // (a library part may name a render pass or layout it ignores); a parsed
  // one is written as it was read.
  const bool render_pass = !live || g.render_pass_state;
  o.handle("layout", Tag::pipeline_layout, !live || g.layout_state ? p.layout : VK_NULL_HANDLE);
  o.handle("renderPass", Tag::render_pass, render_pass ? p.renderPass : VK_NULL_HANDLE);
  o.u32("subpass", render_pass ? p.subpass : 0);
  if (g.tessellation_state) {
    o.begin_object("tessellationState");
    o.u32("flags", p.pTessellationState->flags);
    o.u32("patchControlPoints", p.pTessellationState->patchControlPoints);
    write_pnext(o, p.pTessellationState->pNext, &dyn);
    o.end_object();
  }
  if (p.pDynamicState) write_dynamic(o, *p.pDynamicState);
  if (g.multisample_state) {
    const VkPipelineMultisampleStateCreateInfo& ms = *p.pMultisampleState;
    o.begin_object("multisampleState");
    o.u32("flags", ms.flags);
    o.u32("rasterizationSamples", ms.rasterizationSamples);
    o.u32("sampleShadingEnable", ms.sampleShadingEnable);
    o.f32("minSampleShading", ms.minSampleShading);
    o.u32("alphaToOneEnable", ms.alphaToOneEnable);
    o.u32("alphaToCoverageEnable", ms.alphaToCoverageEnable);
    // A dynamic sample mask is not recorded (a live create info may still
    // point at one).
    if (ms.pSampleMask && !dyn.sample_mask)
      o.u32_array("sampleMask", ms.pSampleMask, (static_cast<std::uint32_t>(ms.rasterizationSamples) + 31) / 32);
    write_pnext(o, ms.pNext, &dyn);
    o.end_object();
  }
  if (g.vertex_input) {
    const VkPipelineVertexInputStateCreateInfo& vi = *p.pVertexInputState;
    o.begin_object("vertexInputState");
    o.u32("flags", vi.flags);
    o.begin_array("attributes");
    for (std::uint32_t i = 0; i < vi.vertexAttributeDescriptionCount; ++i) {
      const VkVertexInputAttributeDescription& a = vi.pVertexAttributeDescriptions[i];
      o.begin_object();
      o.u32("location", a.location);
      o.u32("binding", a.binding);
      o.u32("offset", a.offset);
      o.u32("format", a.format);
      o.end_object();
    }
    o.end_array();
    o.begin_array("bindings");
    for (std::uint32_t i = 0; i < vi.vertexBindingDescriptionCount; ++i) {
      const VkVertexInputBindingDescription& b = vi.pVertexBindingDescriptions[i];
      o.begin_object();
      o.u32("binding", b.binding);
      o.u32("stride", b.stride);
      o.u32("inputRate", b.inputRate);
      o.end_object();
    }
    o.end_array();
    write_pnext(o, vi.pNext, &dyn);
    o.end_object();
  }
  if (g.rasterization_state) {
    const VkPipelineRasterizationStateCreateInfo& rs = *p.pRasterizationState;
    o.begin_object("rasterizationState");
    o.u32("flags", rs.flags);
    o.f32("depthBiasConstantFactor", rs.depthBiasConstantFactor);
    o.f32("depthBiasSlopeFactor", rs.depthBiasSlopeFactor);
    o.f32("depthBiasClamp", rs.depthBiasClamp);
    o.u32("depthBiasEnable", rs.depthBiasEnable);
    o.u32("depthClampEnable", rs.depthClampEnable);
    o.u32("polygonMode", rs.polygonMode);
    o.u32("rasterizerDiscardEnable", rs.rasterizerDiscardEnable);
    o.u32("frontFace", rs.frontFace);
    o.f32("lineWidth", rs.lineWidth);
    o.u32("cullMode", rs.cullMode);
    write_pnext(o, rs.pNext, &dyn);
    o.end_object();
  }
  if (g.input_assembly) {
    const VkPipelineInputAssemblyStateCreateInfo& ia = *p.pInputAssemblyState;
    o.begin_object("inputAssemblyState");
    o.u32("flags", ia.flags);
    o.u32("topology", ia.topology);
    o.u32("primitiveRestartEnable", ia.primitiveRestartEnable);
    write_pnext(o, ia.pNext, &dyn);
    o.end_object();
  }
  if (g.color_blend_state) write_color_blend(o, *p.pColorBlendState, dyn);
  if (g.viewport_state) write_viewport(o, *p.pViewportState, dyn);
  if (g.depth_stencil_state) write_depth_stencil(o, *p.pDepthStencilState, dyn);
  if (g.module_state) write_stages(o, p.pStages, p.stageCount);
  write_pnext(o, p.pNext, &dyn);
  o.end_object();
  o.set_library_state(kAllLibraryState);
}

}  // namespace libtrace::foz::detail
