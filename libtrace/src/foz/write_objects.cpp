// SPDX-License-Identifier: MIT
// Structs -> Fossilize JSON for application infos, samplers, descriptor set
// layouts, pipeline layouts and render passes (v1 and v2).
#include "foz/json_out.hpp"

namespace libtrace::foz::detail {

namespace {

template <typename Desc>
void write_attachment_base(Out& o, const Desc& a) {
  o.u32("flags", a.flags);
  o.u32("format", a.format);
  o.u32("finalLayout", a.finalLayout);
  o.u32("initialLayout", a.initialLayout);
  o.u32("loadOp", a.loadOp);
  o.u32("storeOp", a.storeOp);
  o.u32("samples", a.samples);
  o.u32("stencilLoadOp", a.stencilLoadOp);
  o.u32("stencilStoreOp", a.stencilStoreOp);
}

template <typename Dep>
void write_dependency_base(Out& o, const Dep& d) {
  o.u32("dependencyFlags", d.dependencyFlags);
  o.u32("dstAccessMask", d.dstAccessMask);
  o.u32("srcAccessMask", d.srcAccessMask);
  o.u32("dstStageMask", d.dstStageMask);
  o.u32("srcStageMask", d.srcStageMask);
  o.u32("dstSubpass", d.dstSubpass);
  o.u32("srcSubpass", d.srcSubpass);
}

void write_ref(Out& o, const VkAttachmentReference& r) {
  o.begin_object();
  o.u32("attachment", r.attachment);
  o.u32("layout", r.layout);
  o.end_object();
}

template <typename Sub, typename WriteRef>
void write_subpass_refs(Out& o, const Sub& s, WriteRef write) {
  if (s.pPreserveAttachments) o.u32_array("preserveAttachments", s.pPreserveAttachments, s.preserveAttachmentCount);
  const auto refs = [&](const char* key, const auto* r, std::uint32_t n) {
    if (!r) return;
    o.begin_array(key);
    for (std::uint32_t i = 0; i < n; ++i) write(o, r[i]);
    o.end_array();
  };
  refs("inputAttachments", s.pInputAttachments, s.inputAttachmentCount);
  refs("colorAttachments", s.pColorAttachments, s.colorAttachmentCount);
  refs("resolveAttachments", s.pResolveAttachments, s.colorAttachmentCount);
  if (s.pDepthStencilAttachment) {
    o.key("depthStencilAttachment");
    write(o, *s.pDepthStencilAttachment);
  }
}

}  // namespace

void write_attachment_ref2(Out& o, const VkAttachmentReference2& r) {
  o.begin_object();
  o.u32("attachment", r.attachment);
  o.u32("layout", r.layout);
  o.u32("aspectMask", r.aspectMask);
  write_pnext(o, r.pNext, nullptr);
  o.end_object();
}

void write_application_members(Out& o, const VkApplicationInfo* app, const VkPhysicalDeviceFeatures2* features) {
  o.begin_object("applicationInfo");
  if (app) {
    if (app->pApplicationName) o.str("applicationName", app->pApplicationName);
    if (app->pEngineName) o.str("engineName", app->pEngineName);
    o.u32("applicationVersion", app->applicationVersion);
    o.u32("engineVersion", app->engineVersion);
    o.u32("apiVersion", app->apiVersion);
  }
  o.end_object();
  o.begin_object("physicalDeviceFeatures");
  if (features) {
    o.u32("robustBufferAccess", features->features.robustBufferAccess);
    write_pdf2_pnext(o, features->pNext);
  }
  o.end_object();
}

void write_sampler(Out& o, const VkSamplerCreateInfo& s) {
  o.begin_object();
  o.u32("flags", s.flags);
  o.u32("minFilter", s.minFilter);
  o.u32("magFilter", s.magFilter);
  o.f32("maxAnisotropy", s.maxAnisotropy);
  o.u32("compareOp", s.compareOp);
  o.u32("anisotropyEnable", s.anisotropyEnable);
  o.u32("mipmapMode", s.mipmapMode);
  o.u32("addressModeU", s.addressModeU);
  o.u32("addressModeV", s.addressModeV);
  o.u32("addressModeW", s.addressModeW);
  o.u32("borderColor", s.borderColor);
  o.u32("unnormalizedCoordinates", s.unnormalizedCoordinates);
  o.u32("compareEnable", s.compareEnable);
  o.f32("mipLodBias", s.mipLodBias);
  o.f32("minLod", s.minLod);
  o.f32("maxLod", s.maxLod);
  write_pnext(o, s.pNext, nullptr);
  o.end_object();
}

void write_set_layout(Out& o, const VkDescriptorSetLayoutCreateInfo& l) {
  o.begin_object();
  o.u32("flags", l.flags);
  o.begin_array("bindings");
  for (std::uint32_t i = 0; i < l.bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& b = l.pBindings[i];
    o.begin_object();
    o.u32("descriptorType", b.descriptorType);
    o.u32("descriptorCount", b.descriptorCount);
    o.u32("stageFlags", b.stageFlags);
    o.u32("binding", b.binding);
    if (b.pImmutableSamplers) {
      o.begin_array("immutableSamplers");
      for (std::uint32_t j = 0; j < b.descriptorCount; ++j) o.hash(handle_hash(Tag::sampler, b.pImmutableSamplers[j]));
      o.end_array();
    }
    o.end_object();
  }
  o.end_array();
  write_pnext(o, l.pNext, nullptr);
  o.end_object();
}

void write_pipeline_layout(Out& o, const VkPipelineLayoutCreateInfo& l) {
  o.begin_object();
  o.u32("flags", l.flags);
  o.begin_array("pushConstantRanges");
  for (std::uint32_t i = 0; i < l.pushConstantRangeCount; ++i) {
    o.begin_object();
    o.u32("stageFlags", l.pPushConstantRanges[i].stageFlags);
    o.u32("size", l.pPushConstantRanges[i].size);
    o.u32("offset", l.pPushConstantRanges[i].offset);
    o.end_object();
  }
  o.end_array();
  o.begin_array("setLayouts");
  for (std::uint32_t i = 0; i < l.setLayoutCount; ++i) o.hash(handle_hash(Tag::descriptor_set_layout, l.pSetLayouts[i]));
  o.end_array();
  o.end_object();
}

void write_render_pass(Out& o, const VkRenderPassCreateInfo& rp) {
  o.begin_object();
  o.u32("flags", rp.flags);
  if (rp.pDependencies) {
    o.begin_array("dependencies");
    for (std::uint32_t i = 0; i < rp.dependencyCount; ++i) {
      o.begin_object();
      write_dependency_base(o, rp.pDependencies[i]);
      o.end_object();
    }
    o.end_array();
  }
  if (rp.pAttachments) {
    o.begin_array("attachments");
    for (std::uint32_t i = 0; i < rp.attachmentCount; ++i) {
      o.begin_object();
      write_attachment_base(o, rp.pAttachments[i]);
      o.end_object();
    }
    o.end_array();
  }
  o.begin_array("subpasses");
  for (std::uint32_t i = 0; i < rp.subpassCount; ++i) {
    const VkSubpassDescription& s = rp.pSubpasses[i];
    o.begin_object();
    o.u32("flags", s.flags);
    o.u32("pipelineBindPoint", s.pipelineBindPoint);
    write_subpass_refs(o, s, write_ref);
    o.end_object();
  }
  o.end_array();
  write_pnext(o, rp.pNext, nullptr);
  o.end_object();
}

void write_render_pass2(Out& o, const VkRenderPassCreateInfo2& rp) {
  o.begin_object();
  o.u32("flags", rp.flags);
  if (rp.pCorrelatedViewMasks) o.u32_array("correlatedViewMasks", rp.pCorrelatedViewMasks, rp.correlatedViewMaskCount);
  if (rp.pDependencies) {
    o.begin_array("dependencies");
    for (std::uint32_t i = 0; i < rp.dependencyCount; ++i) {
      const VkSubpassDependency2& d = rp.pDependencies[i];
      o.begin_object();
      write_dependency_base(o, d);
      o.s32("viewOffset", d.viewOffset);
      write_pnext(o, d.pNext, nullptr);
      o.end_object();
    }
    o.end_array();
  }
  if (rp.pAttachments) {
    o.begin_array("attachments");
    for (std::uint32_t i = 0; i < rp.attachmentCount; ++i) {
      o.begin_object();
      write_attachment_base(o, rp.pAttachments[i]);
      write_pnext(o, rp.pAttachments[i].pNext, nullptr);
      o.end_object();
    }
    o.end_array();
  }
  o.begin_array("subpasses");
  for (std::uint32_t i = 0; i < rp.subpassCount; ++i) {
    const VkSubpassDescription2& s = rp.pSubpasses[i];
    o.begin_object();
    o.u32("flags", s.flags);
    o.u32("pipelineBindPoint", s.pipelineBindPoint);
    o.u32("viewMask", s.viewMask);
    write_subpass_refs(o, s, write_attachment_ref2);
    write_pnext(o, s.pNext, nullptr);
    o.end_object();
  }
  o.end_array();
  write_pnext(o, rp.pNext, nullptr);
  o.end_object();
}

}  // namespace libtrace::foz::detail
