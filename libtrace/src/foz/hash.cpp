// SPDX-License-Identifier: MIT
// Fossilize's hash recipes (fossilize.cpp, namespace Hashing) for every
// object but graphics pipelines (foz/hash_graphics.cpp).
#include "foz/model.hpp"

namespace libtrace::foz::detail {

namespace {

void hash_specialization(Hasher& h, const VkSpecializationInfo& s) {
  h.bytes(s.pData, s.dataSize);
  h.u64(s.dataSize);
  h.u32(s.mapEntryCount);
  for (std::uint32_t i = 0; i < s.mapEntryCount; ++i) {
    h.u32(s.pMapEntries[i].offset);
    h.u64(s.pMapEntries[i].size);
    h.u32(s.pMapEntries[i].constantID);
  }
}

}  // namespace

Hash hash_module(const VkShaderModuleCreateInfo& m) {
  Hasher h;
  for (std::size_t i = 0; i < m.codeSize / 4; ++i) h.u32(m.pCode[i]);
  h.u32(m.flags);
  return h.get();
}

Hash stage_module_or_zero(const VkPipelineShaderStageCreateInfo& s) {
  if (s.module != VK_NULL_HANDLE) return handle_hash(Tag::shader_module, s.module);
  if (const auto* m = find_pnext<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, s.pNext))
    return hash_module(*m);
  return 0;
}

namespace {

Hash stage_module(const VkPipelineShaderStageCreateInfo& s, const std::string& where) {
  if (const Hash h = stage_module_or_zero(s)) return h;
  fail(where, "cannot hash a shader stage without a module (module identifiers are not supported)");
}

// Derivative pipelines hash their parent; Fossilize tests the flag, not flags2.
template <typename Pipeline>
void hash_base(Hasher& h, const Pipeline& p) {
  if ((p.flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) && p.basePipelineHandle != VK_NULL_HANDLE) {
    h.u64(handle_hash(pipeline_tag(p), p.basePipelineHandle));
    h.s32(p.basePipelineIndex);
  } else {
    h.u32(0);
  }
}

template <typename Pipeline>
std::uint32_t hashed_flags(const Pipeline& p) {
  if (find_pnext<VkPipelineCreateFlags2CreateInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR,
                                                      p.pNext))
    return 0;
  return static_cast<std::uint32_t>(normalize_pipeline_flags(p.flags));
}

Hash hash_sampler(const VkSamplerCreateInfo& s, const std::string& where) {
  Hasher h;
  h.u32(s.flags & ~VkSamplerCreateFlags{VK_SAMPLER_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_EXT});
  h.f32(s.maxAnisotropy);
  h.f32(s.mipLodBias);
  h.f32(s.minLod);
  h.f32(s.maxLod);
  for (std::uint32_t v : {std::uint32_t(s.minFilter), std::uint32_t(s.magFilter), std::uint32_t(s.mipmapMode),
                          std::uint32_t(s.compareEnable), std::uint32_t(s.compareOp), std::uint32_t(s.anisotropyEnable),
                          std::uint32_t(s.addressModeU), std::uint32_t(s.addressModeV), std::uint32_t(s.addressModeW),
                          std::uint32_t(s.borderColor), std::uint32_t(s.unnormalizedCoordinates)})
    h.u32(v);
  hash_pnext_chain(h, s.pNext, nullptr, 0, where);
  return h.get();
}

Hash hash_set_layout(const VkDescriptorSetLayoutCreateInfo& l, const std::string& where) {
  Hasher h;
  h.u32(l.bindingCount);
  h.u32(l.flags);
  for (std::uint32_t i = 0; i < l.bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& b = l.pBindings[i];
    h.u32(b.binding);
    h.u32(b.descriptorCount);
    h.u32(b.descriptorType);
    h.u32(b.stageFlags);
    if (b.pImmutableSamplers && (b.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                                 b.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER))
      for (std::uint32_t j = 0; j < b.descriptorCount; ++j) h.u64(handle_hash(Tag::sampler, b.pImmutableSamplers[j]));
  }
  hash_pnext_chain(h, l.pNext, nullptr, 0, where);
  return h.get();
}

Hash hash_pipeline_layout(const VkPipelineLayoutCreateInfo& l) {
  Hasher h;
  h.u32(l.setLayoutCount);
  for (std::uint32_t i = 0; i < l.setLayoutCount; ++i) {
    const Hash s = handle_hash(Tag::descriptor_set_layout, l.pSetLayouts[i]);
    if (s)
      h.u64(s);
    else
      h.u32(0);
  }
  h.u32(l.pushConstantRangeCount);
  for (std::uint32_t i = 0; i < l.pushConstantRangeCount; ++i) {
    h.u32(l.pPushConstantRanges[i].stageFlags);
    h.u32(l.pPushConstantRanges[i].size);
    h.u32(l.pPushConstantRanges[i].offset);
  }
  h.u32(l.flags);
  return h.get();
}

template <typename Att>
void hash_attachment(Hasher& h, const Att& a) {
  for (std::uint32_t v : {std::uint32_t(a.flags), std::uint32_t(a.initialLayout), std::uint32_t(a.finalLayout),
                          std::uint32_t(a.format), std::uint32_t(a.loadOp), std::uint32_t(a.storeOp),
                          std::uint32_t(a.stencilLoadOp), std::uint32_t(a.stencilStoreOp), std::uint32_t(a.samples)})
    h.u32(v);
}

template <typename Dep>
void hash_dependency(Hasher& h, const Dep& d) {
  for (std::uint32_t v : {d.dependencyFlags, d.dstAccessMask, d.srcAccessMask, d.srcSubpass, d.dstSubpass,
                          d.srcStageMask, d.dstStageMask})
    h.u32(v);
}

void hash_ref(Hasher& h, const VkAttachmentReference& r, const std::string&) {
  h.u32(r.attachment);
  h.u32(r.layout);
}

void hash_ref(Hasher& h, const VkAttachmentReference2& r, const std::string& where) {
  h.u32(r.attachment);
  h.u32(r.layout);
  h.u32(r.aspectMask);
  hash_pnext_chain(h, r.pNext, nullptr, 0, where);
}

template <typename Sub>
void hash_subpass(Hasher& h, const Sub& s, const std::string& where) {
  h.u32(s.flags);
  h.u32(s.colorAttachmentCount);
  h.u32(s.inputAttachmentCount);
  h.u32(s.preserveAttachmentCount);
  h.u32(s.pipelineBindPoint);
  for (std::uint32_t i = 0; i < s.preserveAttachmentCount; ++i) h.u32(s.pPreserveAttachments[i]);
  for (std::uint32_t i = 0; i < s.colorAttachmentCount; ++i) hash_ref(h, s.pColorAttachments[i], where);
  for (std::uint32_t i = 0; i < s.inputAttachmentCount; ++i) hash_ref(h, s.pInputAttachments[i], where);
  if (s.pResolveAttachments)
    for (std::uint32_t i = 0; i < s.colorAttachmentCount; ++i) hash_ref(h, s.pResolveAttachments[i], where);
  if (s.pDepthStencilAttachment)
    hash_ref(h, *s.pDepthStencilAttachment, where);
  else
    h.u32(0);
}

Hash hash_render_pass(const VkRenderPassCreateInfo& rp, const std::string& where) {
  Hasher h;
  // Flags were added to the recipe later, only when set, to keep old hashes.
  if (rp.flags) h.u32(rp.flags);
  h.u32(rp.attachmentCount);
  h.u32(rp.dependencyCount);
  h.u32(rp.subpassCount);
  for (std::uint32_t i = 0; i < rp.attachmentCount; ++i) hash_attachment(h, rp.pAttachments[i]);
  for (std::uint32_t i = 0; i < rp.dependencyCount; ++i) hash_dependency(h, rp.pDependencies[i]);
  for (std::uint32_t i = 0; i < rp.subpassCount; ++i) hash_subpass(h, rp.pSubpasses[i], where);
  hash_pnext_chain(h, rp.pNext, nullptr, 0, where);
  return h.get();
}

Hash hash_render_pass2(const VkRenderPassCreateInfo2& rp, const std::string& where) {
  Hasher h;
  h.u32(rp.flags);
  h.u32(rp.attachmentCount);
  h.u32(rp.dependencyCount);
  h.u32(rp.subpassCount);
  h.u32(rp.correlatedViewMaskCount);
  h.u32(2);
  for (std::uint32_t i = 0; i < rp.attachmentCount; ++i) {
    hash_attachment(h, rp.pAttachments[i]);
    hash_pnext_chain(h, rp.pAttachments[i].pNext, nullptr, 0, where);
  }
  for (std::uint32_t i = 0; i < rp.dependencyCount; ++i) {
    hash_dependency(h, rp.pDependencies[i]);
    h.s32(rp.pDependencies[i].viewOffset);
    hash_pnext_chain(h, rp.pDependencies[i].pNext, nullptr, 0, where);
  }
  for (std::uint32_t i = 0; i < rp.subpassCount; ++i) {
    hash_subpass(h, rp.pSubpasses[i], where);
    h.u32(rp.pSubpasses[i].viewMask);
    hash_pnext_chain(h, rp.pSubpasses[i].pNext, nullptr, 0, where);
  }
  for (std::uint32_t i = 0; i < rp.correlatedViewMaskCount; ++i) h.u32(rp.pCorrelatedViewMasks[i]);
  hash_pnext_chain(h, rp.pNext, nullptr, 0, where);
  return h.get();
}

Hash hash_compute(const VkComputePipelineCreateInfo& p, const std::string& where) {
  const VkPipelineShaderStageCreateInfo& s = p.stage;
  if (!s.pName) fail(where, "cannot hash a compute stage without an entry point name");
  Hasher h;
  h.u64(handle_hash(Tag::pipeline_layout, p.layout));
  h.u32(hashed_flags(p));
  hash_base(h, p);
  // Compute hashes its stage in an order of its own (kept for compatibility).
  h.u64(stage_module(s, where));
  h.string(s.pName);
  h.u32(s.flags);
  h.u32(s.stage);
  if (s.pSpecializationInfo)
    hash_specialization(h, *s.pSpecializationInfo);
  else
    h.u32(0);
  hash_pnext_chain(h, s.pNext, nullptr, 0, where);
  hash_pnext_chain(h, p.pNext, nullptr, 0, where);
  return h.get();
}

Hash hash_raytracing(const VkRayTracingPipelineCreateInfoKHR& p, const std::string& where) {
  Hasher h;
  h.u32(hashed_flags(p));
  h.u32(p.maxPipelineRayRecursionDepth);
  h.u64(handle_hash(Tag::pipeline_layout, p.layout));
  hash_base(h, p);
  h.u32(p.stageCount);
  for (std::uint32_t i = 0; i < p.stageCount; ++i) hash_stage(h, p.pStages[i], where);
  if (p.pLibraryInterface) {
    h.u32(p.pLibraryInterface->maxPipelineRayHitAttributeSize);
    h.u32(p.pLibraryInterface->maxPipelineRayPayloadSize);
    hash_pnext_chain(h, p.pLibraryInterface->pNext, nullptr, 0, where);
  } else {
    h.u32(0);
  }
  if (p.pDynamicState) {
    h.u32(p.pDynamicState->dynamicStateCount);
    h.u32(p.pDynamicState->flags);
    for (std::uint32_t i = 0; i < p.pDynamicState->dynamicStateCount; ++i) h.u32(p.pDynamicState->pDynamicStates[i]);
    hash_pnext_chain(h, p.pDynamicState->pNext, nullptr, 0, where);
  } else {
    h.u32(0);
  }
  h.u32(p.groupCount);
  for (std::uint32_t i = 0; i < p.groupCount; ++i) {
    const VkRayTracingShaderGroupCreateInfoKHR& g = p.pGroups[i];
    h.u32(g.type);
    h.u32(g.anyHitShader);
    h.u32(g.closestHitShader);
    h.u32(g.generalShader);
    h.u32(g.intersectionShader);
    hash_pnext_chain(h, g.pNext, nullptr, 0, where);
  }
  if (p.pLibraryInfo) {
    hash_library_info(h, *p.pLibraryInfo, Tag::raytracing_pipeline);
    hash_pnext_chain(h, p.pLibraryInfo->pNext, nullptr, 0, where);
  } else {
    h.u32(0);
  }
  hash_pnext_chain(h, p.pNext, nullptr, 0, where);
  return h.get();
}

}  // namespace

void hash_stage(Hasher& h, const VkPipelineShaderStageCreateInfo& s, const std::string& where) {
  if (!s.pName) fail(where, "cannot hash a shader stage without an entry point name");
  h.u32(s.flags);
  h.string(s.pName);
  h.u32(s.stage);
  h.u64(stage_module(s, where));
  if (s.pSpecializationInfo)
    hash_specialization(h, *s.pSpecializationInfo);
  else
    h.u32(0);
  hash_pnext_chain(h, s.pNext, nullptr, 0, where);
}

Hash hash_application_info(const VkApplicationInfo* app, const VkPhysicalDeviceFeatures2* features,
                           const std::string&) {
  Hash app_hash = 0, feature_hash = 0;
  if (app) {
    Hasher h;
    h.u32(app->applicationVersion);
    h.u32(app->apiVersion);
    h.u32(app->engineVersion);
    if (app->pApplicationName)
      h.string(app->pApplicationName);
    else
      h.u32(0);
    if (app->pEngineName)
      h.string(app->pEngineName);
    else
      h.u32(0);
    app_hash = h.get();
  }
  if (features) {
    Hasher h;
    h.u32(features->features.robustBufferAccess);
    hash_pdf2_chain(h, features->pNext);
    feature_hash = h.get();
  }
  Hasher h;
  h.u64(app_hash);
  h.u64(feature_hash);
  return h.get();
}

const HandleResolver*& current_resolver() {
  thread_local const HandleResolver* resolver = nullptr;
  return resolver;
}

Hash hash_link(const ApplicationLink& link) {
  Hasher h;
  h.u64(link.application);
  h.s32(static_cast<std::int32_t>(link.tag));
  h.u64(link.hash);
  return h.get();
}

}  // namespace libtrace::foz::detail

namespace libtrace::foz {

Hash compute_hash(const Object& o, const Lookup& lookup, const std::string& where, const HandleResolver* resolve) {
  using namespace detail;
  const ResolverScope scope(resolve);
  switch (o.tag) {
    case Tag::application_info: return hash_application_info(o.application, o.features, where);
    case Tag::application_blob_link: return hash_link(o.link);
    case Tag::bucket_info: {
      Hasher h;
      h.string(o.raw_json);
      return h.get();
    }
    default: break;
  }
  if (!o.create_info) fail(where, "cannot hash " + std::string(tag_name(o.tag)) + ": no create info");
  switch (o.tag) {
    case Tag::sampler: return hash_sampler(*o.as<VkSamplerCreateInfo>(), where);
    case Tag::descriptor_set_layout: return hash_set_layout(*o.as<VkDescriptorSetLayoutCreateInfo>(), where);
    case Tag::pipeline_layout: return hash_pipeline_layout(*o.as<VkPipelineLayoutCreateInfo>());
    case Tag::shader_module: return hash_module(*o.as<VkShaderModuleCreateInfo>());
    case Tag::render_pass:
      if (o.s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2)
        return hash_render_pass2(*o.as<VkRenderPassCreateInfo2>(), where);
      return hash_render_pass(*o.as<VkRenderPassCreateInfo>(), where);
    case Tag::graphics_pipeline: return hash_graphics_pipeline(o, lookup, where);
    case Tag::compute_pipeline: return hash_compute(*o.as<VkComputePipelineCreateInfo>(), where);
    case Tag::raytracing_pipeline: return hash_raytracing(*o.as<VkRayTracingPipelineCreateInfoKHR>(), where);
    default: break;
  }
  fail(where, "cannot hash " + std::string(tag_name(o.tag)));
}

}  // namespace libtrace::foz
