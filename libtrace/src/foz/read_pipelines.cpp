// SPDX-License-Identifier: MIT
// JSON -> structs for graphics, compute and ray-tracing pipelines.
#include <string>

#include "foz/json_in.hpp"
#include "libtrace/foz/varint.hpp"

namespace libtrace::foz::detail {

namespace {

const VkSpecializationInfo* read_specialization(const Node& n) {
  n.only({"dataSize", "data", "mapEntries"});
  Arena& arena = n.ctx().arena;
  auto* s = arena.make<VkSpecializationInfo>();
  const std::uint64_t size = n.u64("dataSize");
  const std::string_view text = n.str("data");
  if (text.size() / 4 * 3 < size) n.at("data").fail("holds fewer than dataSize " + std::to_string(size) + " bytes");
  std::vector<std::uint8_t> bytes;
  if (!decode_base64(text, bytes)) n.at("data").fail("invalid base64");
  if (bytes.size() != size)
    n.at("data").fail("decodes to " + std::to_string(bytes.size()) + " bytes, dataSize is " + std::to_string(size));
  auto* data = arena.make<std::uint8_t>(bytes.size());
  if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
  s->pData = data;
  s->dataSize = bytes.size();
  if (n.has("mapEntries"))
    s->pMapEntries = n.array<VkSpecializationMapEntry>("mapEntries", &s->mapEntryCount,
                                                       [](const Node& e, VkSpecializationMapEntry& m) {
                                                         e.only({"offset", "size", "constantID"});
                                                         m.offset = e.u32("offset");
                                                         m.size = static_cast<std::size_t>(e.u64("size"));
                                                         m.constantID = e.u32("constantID");
                                                       });
  return s;
}

void read_stage(const Node& n, VkPipelineShaderStageCreateInfo& s) {
  n.only({"flags", "stage", "module", "name", "specializationInfo", "pNext"});
  s.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  s.flags = n.u32("flags");
  s.stage = n.enum_<VkShaderStageFlagBits>("stage");
  n.handle("module", Tag::shader_module, &s.module);
  s.pName = n.ctx().arena.copy_string(n.str("name"));
  if (n.has("specializationInfo")) s.pSpecializationInfo = read_specialization(n.at("specializationInfo"));
  s.pNext = read_pnext(n);
}

const VkPipelineDynamicStateCreateInfo* read_dynamic(const Node& n) {
  n.only({"flags", "dynamicState"});
  auto* d = n.ctx().arena.make<VkPipelineDynamicStateCreateInfo>();
  d->sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  d->flags = n.u32("flags");
  if (n.has("dynamicState"))
    d->pDynamicStates =
        n.array<VkDynamicState>("dynamicState", &d->dynamicStateCount,
                                [](const Node& e, VkDynamicState& v) { v = e.as_enum<VkDynamicState>(); });
  return d;
}

void read_stencil(const Node& n, VkStencilOpState& s) {
  n.only({"compareOp", "writeMask", "reference", "compareMask", "passOp", "failOp", "depthFailOp"});
  s.compareOp = n.enum_<VkCompareOp>("compareOp");
  s.writeMask = n.u32("writeMask");
  s.reference = n.u32("reference");
  s.compareMask = n.u32("compareMask");
  s.passOp = n.enum_<VkStencilOp>("passOp");
  s.failOp = n.enum_<VkStencilOp>("failOp");
  s.depthFailOp = n.enum_<VkStencilOp>("depthFailOp");
}

const VkPipelineDepthStencilStateCreateInfo* read_depth_stencil(const Node& n) {
  n.only({"flags", "stencilTestEnable", "maxDepthBounds", "minDepthBounds", "depthBoundsTestEnable", "depthWriteEnable",
          "depthTestEnable", "depthCompareOp", "front", "back", "pNext"});
  auto* d = n.ctx().arena.make<VkPipelineDepthStencilStateCreateInfo>();
  d->sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  d->flags = n.u32("flags");
  d->stencilTestEnable = n.u32("stencilTestEnable");
  d->maxDepthBounds = n.f32("maxDepthBounds");
  d->minDepthBounds = n.f32("minDepthBounds");
  d->depthBoundsTestEnable = n.u32("depthBoundsTestEnable");
  d->depthWriteEnable = n.u32("depthWriteEnable");
  d->depthTestEnable = n.u32("depthTestEnable");
  d->depthCompareOp = n.enum_<VkCompareOp>("depthCompareOp");
  read_stencil(n.at("front"), d->front);
  read_stencil(n.at("back"), d->back);
  d->pNext = read_pnext(n);
  return d;
}

const VkPipelineRasterizationStateCreateInfo* read_rasterization(const Node& n) {
  n.only({"flags", "depthBiasConstantFactor", "depthBiasSlopeFactor", "depthBiasClamp", "depthBiasEnable",
          "depthClampEnable", "polygonMode", "rasterizerDiscardEnable", "frontFace", "lineWidth", "cullMode", "pNext"});
  auto* r = n.ctx().arena.make<VkPipelineRasterizationStateCreateInfo>();
  r->sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  r->flags = n.u32("flags");
  r->depthBiasConstantFactor = n.f32("depthBiasConstantFactor");
  r->depthBiasSlopeFactor = n.f32("depthBiasSlopeFactor");
  r->depthBiasClamp = n.f32("depthBiasClamp");
  r->depthBiasEnable = n.u32("depthBiasEnable");
  r->depthClampEnable = n.u32("depthClampEnable");
  r->polygonMode = n.enum_<VkPolygonMode>("polygonMode");
  r->rasterizerDiscardEnable = n.u32("rasterizerDiscardEnable");
  r->frontFace = n.enum_<VkFrontFace>("frontFace");
  r->lineWidth = n.f32("lineWidth");
  r->cullMode = n.u32("cullMode");
  r->pNext = read_pnext(n);
  return r;
}

const VkPipelineMultisampleStateCreateInfo* read_multisample(const Node& n) {
  n.only({"flags", "rasterizationSamples", "sampleShadingEnable", "minSampleShading", "alphaToOneEnable",
          "alphaToCoverageEnable", "sampleMask", "pNext"});
  auto* m = n.ctx().arena.make<VkPipelineMultisampleStateCreateInfo>();
  m->sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  m->flags = n.u32("flags");
  m->rasterizationSamples = n.enum_<VkSampleCountFlagBits>("rasterizationSamples");
  m->sampleShadingEnable = n.u32("sampleShadingEnable");
  m->minSampleShading = n.f32("minSampleShading");
  m->alphaToOneEnable = n.u32("alphaToOneEnable");
  m->alphaToCoverageEnable = n.u32("alphaToCoverageEnable");
  // One mask word per 32 samples: Vulkan, the hash and the JSON all size it so.
  if (n.has("sampleMask"))
    m->pSampleMask = n.u32_array_sized("sampleMask", (static_cast<std::uint32_t>(m->rasterizationSamples) + 31) / 32);
  m->pNext = read_pnext(n);
  return m;
}

const VkPipelineVertexInputStateCreateInfo* read_vertex_input(const Node& n) {
  n.only({"flags", "attributes", "bindings", "pNext"});
  auto* v = n.ctx().arena.make<VkPipelineVertexInputStateCreateInfo>();
  v->sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  v->flags = n.u32("flags");
  if (n.has("attributes"))
    v->pVertexAttributeDescriptions = n.array<VkVertexInputAttributeDescription>(
        "attributes", &v->vertexAttributeDescriptionCount, [](const Node& a, VkVertexInputAttributeDescription& d) {
          a.only({"location", "binding", "offset", "format"});
          d.location = a.u32("location");
          d.binding = a.u32("binding");
          d.offset = a.u32("offset");
          d.format = a.enum_<VkFormat>("format");
        });
  if (n.has("bindings"))
    v->pVertexBindingDescriptions = n.array<VkVertexInputBindingDescription>(
        "bindings", &v->vertexBindingDescriptionCount, [](const Node& b, VkVertexInputBindingDescription& d) {
          b.only({"binding", "stride", "inputRate"});
          d.binding = b.u32("binding");
          d.stride = b.u32("stride");
          d.inputRate = b.enum_<VkVertexInputRate>("inputRate");
        });
  v->pNext = read_pnext(n);
  return v;
}

const VkPipelineColorBlendStateCreateInfo* read_color_blend(const Node& n) {
  n.only({"flags", "logicOp", "logicOpEnable", "blendConstants", "attachments", "pNext"});
  auto* c = n.ctx().arena.make<VkPipelineColorBlendStateCreateInfo>();
  c->sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  c->flags = n.u32("flags");
  c->logicOp = n.enum_<VkLogicOp>("logicOp");
  c->logicOpEnable = n.u32("logicOpEnable");
  const Node constants = n.at("blendConstants");
  if (constants.array_size() != 4) constants.fail("must have 4 elements");
  for (std::size_t i = 0; i < 4; ++i) c->blendConstants[i] = constants[i].as_f32();
  if (n.has("attachments"))
    c->pAttachments = n.array<VkPipelineColorBlendAttachmentState>(
        "attachments", &c->attachmentCount, [](const Node& a, VkPipelineColorBlendAttachmentState& s) {
          a.only({"dstAlphaBlendFactor", "srcAlphaBlendFactor", "dstColorBlendFactor", "srcColorBlendFactor",
                  "colorWriteMask", "alphaBlendOp", "colorBlendOp", "blendEnable"});
          s.dstAlphaBlendFactor = a.enum_<VkBlendFactor>("dstAlphaBlendFactor");
          s.srcAlphaBlendFactor = a.enum_<VkBlendFactor>("srcAlphaBlendFactor");
          s.dstColorBlendFactor = a.enum_<VkBlendFactor>("dstColorBlendFactor");
          s.srcColorBlendFactor = a.enum_<VkBlendFactor>("srcColorBlendFactor");
          s.colorWriteMask = a.u32("colorWriteMask");
          s.alphaBlendOp = a.enum_<VkBlendOp>("alphaBlendOp");
          s.colorBlendOp = a.enum_<VkBlendOp>("colorBlendOp");
          s.blendEnable = a.u32("blendEnable");
        });
  c->pNext = read_pnext(n);
  return c;
}

void read_rect(const Node& r, VkRect2D& out) {
  r.only({"x", "y", "width", "height"});
  out.offset.x = r.s32("x");
  out.offset.y = r.s32("y");
  out.extent.width = r.u32("width");
  out.extent.height = r.u32("height");
}

const VkPipelineViewportStateCreateInfo* read_viewport(const Node& n) {
  n.only({"flags", "viewportCount", "scissorCount", "viewports", "scissors", "pNext"});
  auto* v = n.ctx().arena.make<VkPipelineViewportStateCreateInfo>();
  v->sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  v->flags = n.u32("flags");
  v->viewportCount = n.u32("viewportCount");
  v->scissorCount = n.u32("scissorCount");
  if (n.has("viewports")) {
    std::uint32_t count = 0;
    v->pViewports = n.array<VkViewport>("viewports", &count, [](const Node& e, VkViewport& vp) {
      e.only({"x", "y", "width", "height", "minDepth", "maxDepth"});
      vp.x = e.f32("x");
      vp.y = e.f32("y");
      vp.width = e.f32("width");
      vp.height = e.f32("height");
      vp.minDepth = e.f32("minDepth");
      vp.maxDepth = e.f32("maxDepth");
    });
    if (count != v->viewportCount)
      n.at("viewports")
          .fail("has " + std::to_string(count) + " elements, viewportCount is " + std::to_string(v->viewportCount));
  }
  if (n.has("scissors")) {
    std::uint32_t count = 0;
    v->pScissors = n.array<VkRect2D>("scissors", &count, read_rect);
    if (count != v->scissorCount)
      n.at("scissors")
          .fail("has " + std::to_string(count) + " elements, scissorCount is " + std::to_string(v->scissorCount));
  }
  v->pNext = read_pnext(n);
  return v;
}

template <typename Pipeline>
void read_base_pipeline(const Node& n, Pipeline& p, Tag tag) {
  p.flags = n.u32("flags");
  p.basePipelineIndex = n.s32("basePipelineIndex");
  n.handle("basePipelineHandle", tag, &p.basePipelineHandle);
  n.handle("layout", Tag::pipeline_layout, &p.layout);
}

}  // namespace

const VkPipelineLibraryCreateInfoKHR* read_library_info(const Node& n, Tag tag, bool in_chain) {
  if (in_chain)
    n.only({"sType", "libraries"});
  else
    n.only({"libraries", "pNext"});
  auto* l = n.ctx().arena.make<VkPipelineLibraryCreateInfoKHR>();
  l->sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR;
  const Node list = n.at("libraries");
  const std::size_t count = list.array_size();
  auto* libs = n.ctx().arena.make<VkPipeline>(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Hash h = list[i].as_hash();
    libs[i] = handle_from_hash<VkPipeline>(h);
    if (h) n.ctx().refs->push_back({tag, h, &libs[i]});
  }
  l->libraryCount = static_cast<std::uint32_t>(count);
  l->pLibraries = libs;
  if (!in_chain) l->pNext = read_pnext(n, tag);
  return l;
}

void read_compute_pipeline(const Node& n, Object& o) {
  n.only({"flags", "layout", "basePipelineHandle", "basePipelineIndex", "stage", "pNext"});
  auto* p = n.ctx().arena.make<VkComputePipelineCreateInfo>();
  p->sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  read_base_pipeline(n, *p, Tag::compute_pipeline);
  read_stage(n.at("stage"), p->stage);
  p->pNext = read_pnext(n, Tag::compute_pipeline);
  o.create_info = p;
}

void read_graphics_pipeline(const Node& n, Object& o) {
  n.only({"flags", "basePipelineHandle", "basePipelineIndex", "layout", "renderPass", "subpass", "stages",
          "tessellationState", "dynamicState", "multisampleState", "vertexInputState", "rasterizationState",
          "inputAssemblyState", "colorBlendState", "viewportState", "depthStencilState", "pNext"});
  Arena& arena = n.ctx().arena;
  auto* p = arena.make<VkGraphicsPipelineCreateInfo>();
  p->sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  read_base_pipeline(n, *p, Tag::graphics_pipeline);
  n.handle("renderPass", Tag::render_pass, &p->renderPass);
  p->subpass = n.u32("subpass");
  if (n.has("stages")) p->pStages = n.array<VkPipelineShaderStageCreateInfo>("stages", &p->stageCount, read_stage);
  if (n.has("tessellationState")) {
    const Node t = n.at("tessellationState");
    t.only({"flags", "patchControlPoints", "pNext"});
    auto* s = arena.make<VkPipelineTessellationStateCreateInfo>();
    s->sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO;
    s->flags = t.u32("flags");
    s->patchControlPoints = t.u32("patchControlPoints");
    s->pNext = read_pnext(t);
    p->pTessellationState = s;
  }
  if (n.has("dynamicState")) p->pDynamicState = read_dynamic(n.at("dynamicState"));
  if (n.has("multisampleState")) p->pMultisampleState = read_multisample(n.at("multisampleState"));
  if (n.has("vertexInputState")) p->pVertexInputState = read_vertex_input(n.at("vertexInputState"));
  if (n.has("rasterizationState")) p->pRasterizationState = read_rasterization(n.at("rasterizationState"));
  if (n.has("inputAssemblyState")) {
    const Node a = n.at("inputAssemblyState");
    a.only({"flags", "topology", "primitiveRestartEnable", "pNext"});
    auto* s = arena.make<VkPipelineInputAssemblyStateCreateInfo>();
    s->sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    s->flags = a.u32("flags");
    s->topology = a.enum_<VkPrimitiveTopology>("topology");
    s->primitiveRestartEnable = a.u32("primitiveRestartEnable");
    s->pNext = read_pnext(a);
    p->pInputAssemblyState = s;
  }
  if (n.has("colorBlendState")) p->pColorBlendState = read_color_blend(n.at("colorBlendState"));
  if (n.has("viewportState")) p->pViewportState = read_viewport(n.at("viewportState"));
  if (n.has("depthStencilState")) p->pDepthStencilState = read_depth_stencil(n.at("depthStencilState"));
  p->pNext = read_pnext(n, Tag::graphics_pipeline);
  o.create_info = p;
}

void read_raytracing_pipeline(const Node& n, Object& o) {
  n.only({"flags", "layout", "basePipelineHandle", "basePipelineIndex", "maxPipelineRayRecursionDepth", "dynamicState",
          "stages", "libraryInterface", "libraryInfo", "groups", "pNext"});
  Arena& arena = n.ctx().arena;
  auto* p = arena.make<VkRayTracingPipelineCreateInfoKHR>();
  p->sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR;
  read_base_pipeline(n, *p, Tag::raytracing_pipeline);
  p->maxPipelineRayRecursionDepth = n.u32("maxPipelineRayRecursionDepth");
  if (n.has("dynamicState")) p->pDynamicState = read_dynamic(n.at("dynamicState"));
  if (n.has("stages")) p->pStages = n.array<VkPipelineShaderStageCreateInfo>("stages", &p->stageCount, read_stage);
  if (n.has("libraryInterface")) {
    const Node l = n.at("libraryInterface");
    l.only({"maxPipelineRayPayloadSize", "maxPipelineRayHitAttributeSize", "pNext"});
    auto* i = arena.make<VkRayTracingPipelineInterfaceCreateInfoKHR>();
    i->sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_INTERFACE_CREATE_INFO_KHR;
    i->maxPipelineRayPayloadSize = l.u32("maxPipelineRayPayloadSize");
    i->maxPipelineRayHitAttributeSize = l.u32("maxPipelineRayHitAttributeSize");
    i->pNext = read_pnext(l, Tag::raytracing_pipeline);
    p->pLibraryInterface = i;
  }
  if (n.has("libraryInfo")) p->pLibraryInfo = read_library_info(n.at("libraryInfo"), Tag::raytracing_pipeline, false);
  if (n.has("groups"))
    p->pGroups = n.array<VkRayTracingShaderGroupCreateInfoKHR>(
        "groups", &p->groupCount, [](const Node& g, VkRayTracingShaderGroupCreateInfoKHR& out) {
          g.only({"anyHitShader", "intersectionShader", "generalShader", "closestHitShader", "type", "pNext"});
          out.sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR;
          out.anyHitShader = g.u32("anyHitShader");
          out.intersectionShader = g.u32("intersectionShader");
          out.generalShader = g.u32("generalShader");
          out.closestHitShader = g.u32("closestHitShader");
          out.type = g.enum_<VkRayTracingShaderGroupTypeKHR>("type");
          out.pNext = read_pnext(g, Tag::raytracing_pipeline);
        });
  p->pNext = read_pnext(n, Tag::raytracing_pipeline);
  o.create_info = p;
}

}  // namespace libtrace::foz::detail
