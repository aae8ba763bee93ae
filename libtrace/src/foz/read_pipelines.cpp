// SPDX-License-Identifier: MIT
// JSON -> structs for graphics, compute and ray-tracing pipelines; the
// members of their state blocks are in their profiles (objects.cpp).
#include <string>

#include "foz/pnext.hpp"
#include "libtrace/foz/varint.hpp"

namespace libtrace::foz::detail {

namespace {

const VkSpecializationInfo* read_specialization(const Node& n) {
  Arena& arena = n.ctx().arena;
  auto* s = arena.make<VkSpecializationInfo>();
  read_object(n, s, "VkSpecializationInfo", Tag::graphics_pipeline, [&](const char*) {
    const std::uint64_t size = s->dataSize;
    const std::string_view text = n.str("data");
    if (text.size() / 4 * 3 < size) n.at("data").fail("holds fewer than dataSize " + std::to_string(size) + " bytes");
    std::vector<std::uint8_t> bytes;
    if (!decode_base64(text, bytes)) n.at("data").fail("invalid base64");
    if (bytes.size() != size)
      n.at("data").fail("decodes to " + std::to_string(bytes.size()) + " bytes, dataSize is " + std::to_string(size));
    auto* data = arena.make<std::uint8_t>(bytes.size());
    if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
    s->pData = data;
  });
  return s;
}

void read_stage(const Node& n, VkPipelineShaderStageCreateInfo& s) {
  read_object(n, &s, "VkPipelineShaderStageCreateInfo", Tag::graphics_pipeline, [&](const char* key) {
    if (key[0] == 'm')
      n.handle("module", Tag::shader_module, &s.module);
    else if (n.has("specializationInfo"))
      s.pSpecializationInfo = read_specialization(n.at("specializationInfo"));
  });
}

template <typename T>
const T* read_block(const Node& n, const char* key, const char* type, Tag library_tag = Tag::graphics_pipeline) {
  return n.has(key) ? read_object<T>(n.at(key), type, library_tag) : nullptr;
}

const VkPipelineMultisampleStateCreateInfo* read_multisample(const Node& n) {
  auto* m = n.ctx().arena.make<VkPipelineMultisampleStateCreateInfo>();
  read_object(n, m, "VkPipelineMultisampleStateCreateInfo", Tag::graphics_pipeline, [&](const char*) {
    // One mask word per 32 samples: Vulkan, the hash and the JSON all size it so.
    if (n.has("sampleMask"))
      m->pSampleMask = n.u32_array_sized("sampleMask", (static_cast<std::uint32_t>(m->rasterizationSamples) + 31) / 32);
  });
  return m;
}

const VkPipelineColorBlendStateCreateInfo* read_color_blend(const Node& n) {
  auto* c = n.ctx().arena.make<VkPipelineColorBlendStateCreateInfo>();
  read_object(n, c, "VkPipelineColorBlendStateCreateInfo", Tag::graphics_pipeline, [&](const char* key) {
    if (key[0] == 'b') {
      const Node constants = n.at("blendConstants");
      if (constants.array_size() != 4) constants.fail("must have 4 elements");
      for (std::size_t i = 0; i < 4; ++i) c->blendConstants[i] = constants[i].as_f32();
    } else if (n.has("attachments")) {
      c->pAttachments = n.array<VkPipelineColorBlendAttachmentState>(
          "attachments", &c->attachmentCount, [](const Node& a, VkPipelineColorBlendAttachmentState& s) {
            read_object(a, &s, "VkPipelineColorBlendAttachmentState");
          });
    }
  });
  return c;
}

const VkPipelineViewportStateCreateInfo* read_viewport(const Node& n) {
  auto* v = n.ctx().arena.make<VkPipelineViewportStateCreateInfo>();
  read_object(n, v, "VkPipelineViewportStateCreateInfo", Tag::graphics_pipeline, [&](const char*) {
    if (n.has("scissors")) v->pScissors = n.rects_sized("scissors", v->scissorCount, "scissorCount");
  });
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
  auto* p = n.ctx().arena.make<VkGraphicsPipelineCreateInfo>();
  p->sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  read_base_pipeline(n, *p, Tag::graphics_pipeline);
  n.handle("renderPass", Tag::render_pass, &p->renderPass);
  p->subpass = n.u32("subpass");
  if (n.has("stages")) p->pStages = n.array<VkPipelineShaderStageCreateInfo>("stages", &p->stageCount, read_stage);
  p->pTessellationState = read_block<VkPipelineTessellationStateCreateInfo>(n, "tessellationState",
                                                                            "VkPipelineTessellationStateCreateInfo");
  p->pDynamicState =
      read_block<VkPipelineDynamicStateCreateInfo>(n, "dynamicState", "VkPipelineDynamicStateCreateInfo");
  if (n.has("multisampleState")) p->pMultisampleState = read_multisample(n.at("multisampleState"));
  p->pVertexInputState =
      read_block<VkPipelineVertexInputStateCreateInfo>(n, "vertexInputState", "VkPipelineVertexInputStateCreateInfo");
  p->pRasterizationState = read_block<VkPipelineRasterizationStateCreateInfo>(n, "rasterizationState",
                                                                              "VkPipelineRasterizationStateCreateInfo");
  p->pInputAssemblyState = read_block<VkPipelineInputAssemblyStateCreateInfo>(n, "inputAssemblyState",
                                                                              "VkPipelineInputAssemblyStateCreateInfo");
  if (n.has("colorBlendState")) p->pColorBlendState = read_color_blend(n.at("colorBlendState"));
  if (n.has("viewportState")) p->pViewportState = read_viewport(n.at("viewportState"));
  p->pDepthStencilState = read_block<VkPipelineDepthStencilStateCreateInfo>(n, "depthStencilState",
                                                                            "VkPipelineDepthStencilStateCreateInfo");
  p->pNext = read_pnext(n, Tag::graphics_pipeline);
  o.create_info = p;
}

void read_raytracing_pipeline(const Node& n, Object& o) {
  n.only({"flags", "layout", "basePipelineHandle", "basePipelineIndex", "maxPipelineRayRecursionDepth", "dynamicState",
          "stages", "libraryInterface", "libraryInfo", "groups", "pNext"});
  auto* p = n.ctx().arena.make<VkRayTracingPipelineCreateInfoKHR>();
  p->sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR;
  read_base_pipeline(n, *p, Tag::raytracing_pipeline);
  p->maxPipelineRayRecursionDepth = n.u32("maxPipelineRayRecursionDepth");
  p->pDynamicState =
      read_block<VkPipelineDynamicStateCreateInfo>(n, "dynamicState", "VkPipelineDynamicStateCreateInfo");
  if (n.has("stages")) p->pStages = n.array<VkPipelineShaderStageCreateInfo>("stages", &p->stageCount, read_stage);
  p->pLibraryInterface = read_block<VkRayTracingPipelineInterfaceCreateInfoKHR>(
      n, "libraryInterface", "VkRayTracingPipelineInterfaceCreateInfoKHR", Tag::raytracing_pipeline);
  if (n.has("libraryInfo")) p->pLibraryInfo = read_library_info(n.at("libraryInfo"), Tag::raytracing_pipeline, false);
  if (n.has("groups"))
    p->pGroups = n.array<VkRayTracingShaderGroupCreateInfoKHR>(
        "groups", &p->groupCount, [](const Node& g, VkRayTracingShaderGroupCreateInfoKHR& out) {
          read_object(g, &out, "VkRayTracingShaderGroupCreateInfoKHR", Tag::raytracing_pipeline);
        });
  p->pNext = read_pnext(n, Tag::raytracing_pipeline);
  o.create_info = p;
}

}  // namespace libtrace::foz::detail
