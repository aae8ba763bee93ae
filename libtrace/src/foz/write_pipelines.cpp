// SPDX-License-Identifier: MIT
// Structs -> Fossilize JSON for graphics, compute and ray-tracing pipelines.
// Graphics state blocks follow Fossilize's rules for what a pipeline uses
// (library state flags, rasterizer discard, dynamic state); their members
// are in their profiles (objects.cpp).
#include "foz/pnext.hpp"
#include "libtrace/foz/varint.hpp"

namespace libtrace::foz::detail {

namespace {

void write_specialization(Out& o, const VkSpecializationInfo& s) {
  write_object(o, "specializationInfo", &s, "VkSpecializationInfo", nullptr,
               [&](const char*) { o.str("data", encode_base64(s.pData, s.dataSize)); });
}

// The stage's "module" and "specializationInfo".
void write_stage_part(Out& o, const VkPipelineShaderStageCreateInfo& s, const char* key) {
  if (key[0] == 'm')
    o.hash("module", stage_module_or_zero(s));
  else if (s.pSpecializationInfo)
    write_specialization(o, *s.pSpecializationInfo);
}

void write_stages(Out& o, const VkPipelineShaderStageCreateInfo* stages, std::uint32_t count) {
  o.begin_array("stages");
  for (std::uint32_t i = 0; i < count; ++i)
    write_object(o, nullptr, &stages[i], "VkPipelineShaderStageCreateInfo", nullptr,
                 [&](const char* key) { write_stage_part(o, stages[i], key); });
  o.end_array();
}

bool uses_constant_factor(const VkPipelineColorBlendAttachmentState& a) {
  for (VkBlendFactor f : {a.dstAlphaBlendFactor, a.srcAlphaBlendFactor, a.dstColorBlendFactor, a.srcColorBlendFactor})
    if (f == VK_BLEND_FACTOR_CONSTANT_ALPHA || f == VK_BLEND_FACTOR_CONSTANT_COLOR) return true;
  return false;
}

void write_color_blend(Out& o, const VkPipelineColorBlendStateCreateInfo& cb, const DynamicStateInfo& dyn) {
  // With blend enable, equation and write mask all dynamic, pAttachments is
  // ignored by Vulkan; Fossilize writes blank entries for the count.
  const bool dynamic_attachments = dyn.color_blend_enable && dyn.color_write_mask && dyn.color_blend_equation;
  write_object(o, "colorBlendState", &cb, "VkPipelineColorBlendStateCreateInfo", &dyn, [&](const char* key) {
    if (key[0] == 'b') {
      bool need_constants = dynamic_attachments;
      for (std::uint32_t i = 0; !dynamic_attachments && i < cb.attachmentCount; ++i)
        if (cb.pAttachments[i].blendEnable && uses_constant_factor(cb.pAttachments[i])) need_constants = true;
      o.begin_array("blendConstants");
      for (float c : cb.blendConstants) o.f32(dyn.blend_constants || !need_constants ? 0.0f : c);
      o.end_array();
      return;
    }
    o.begin_array("attachments");
    const VkPipelineColorBlendAttachmentState blank{};
    for (std::uint32_t i = 0; i < cb.attachmentCount; ++i)
      write_object(o, nullptr, dynamic_attachments ? &blank : &cb.pAttachments[i],
                   "VkPipelineColorBlendAttachmentState");
    o.end_array();
  });
}

void write_viewport(Out& o, const VkPipelineViewportStateCreateInfo& vp, const DynamicStateInfo& dyn) {
  write_object(o, "viewportState", &vp, "VkPipelineViewportStateCreateInfo", &dyn, [&](const char*) {
    if (!vp.pScissors) return;
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
  });
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
  // The stage in an order of its own.
  const VkPipelineShaderStageCreateInfo& s = p.stage;
  o.begin_object("stage");
  o.u32("flags", s.flags);
  o.u32("stage", s.stage);
  write_stage_part(o, s, "module");
  o.str("name", s.pName ? s.pName : "");
  write_stage_part(o, s, "specializationInfo");
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
  if (p.pDynamicState) write_object(o, "dynamicState", p.pDynamicState, "VkPipelineDynamicStateCreateInfo");
  write_stages(o, p.pStages, p.stageCount);
  if (p.pLibraryInterface)
    write_object(o, "libraryInterface", p.pLibraryInterface, "VkRayTracingPipelineInterfaceCreateInfoKHR");
  if (p.pLibraryInfo) {
    o.key("libraryInfo");
    write_library_info(o, *p.pLibraryInfo, false);
  }
  o.begin_array("groups");
  for (std::uint32_t i = 0; i < p.groupCount; ++i)
    write_object(o, nullptr, &p.pGroups[i], "VkRayTracingShaderGroupCreateInfoKHR");
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
  if (g.tessellation_state)
    write_object(o, "tessellationState", p.pTessellationState, "VkPipelineTessellationStateCreateInfo", &dyn);
  if (p.pDynamicState) write_object(o, "dynamicState", p.pDynamicState, "VkPipelineDynamicStateCreateInfo");
  if (g.multisample_state) {
    const VkPipelineMultisampleStateCreateInfo& ms = *p.pMultisampleState;
    write_object(o, "multisampleState", &ms, "VkPipelineMultisampleStateCreateInfo", &dyn, [&](const char*) {
      // A dynamic sample mask is not recorded (a live create info may still
      // point at one).
      if (ms.pSampleMask && !dyn.sample_mask)
        o.u32_array("sampleMask", ms.pSampleMask, (static_cast<std::uint32_t>(ms.rasterizationSamples) + 31) / 32);
    });
  }
  if (g.vertex_input)
    write_object(o, "vertexInputState", p.pVertexInputState, "VkPipelineVertexInputStateCreateInfo", &dyn);
  if (g.rasterization_state)
    write_object(o, "rasterizationState", p.pRasterizationState, "VkPipelineRasterizationStateCreateInfo", &dyn);
  if (g.input_assembly)
    write_object(o, "inputAssemblyState", p.pInputAssemblyState, "VkPipelineInputAssemblyStateCreateInfo", &dyn);
  if (g.color_blend_state) write_color_blend(o, *p.pColorBlendState, dyn);
  if (g.viewport_state) write_viewport(o, *p.pViewportState, dyn);
  if (g.depth_stencil_state)
    write_object(o, "depthStencilState", p.pDepthStencilState, "VkPipelineDepthStencilStateCreateInfo", &dyn);
  if (g.module_state) write_stages(o, p.pStages, p.stageCount);
  write_pnext(o, p.pNext, &dyn);
  o.end_object();
  o.set_library_state(kAllLibraryState);
}

}  // namespace libtrace::foz::detail
