// SPDX-License-Identifier: MIT
// JSON -> structs for application infos, links, samplers, descriptor set
// layouts, pipeline layouts, shader modules and render passes (v1 and v2).
#include <algorithm>
#include <string>

#include "foz/json_in.hpp"
#include "libtrace/foz/varint.hpp"

namespace libtrace::foz::detail {

namespace {

template <typename Desc>
void read_attachment_base(const Node& n, Desc& d) {
  d.flags = n.u32("flags");
  d.format = n.enum_<VkFormat>("format");
  d.finalLayout = n.enum_<VkImageLayout>("finalLayout");
  d.initialLayout = n.enum_<VkImageLayout>("initialLayout");
  d.loadOp = n.enum_<VkAttachmentLoadOp>("loadOp");
  d.storeOp = n.enum_<VkAttachmentStoreOp>("storeOp");
  d.samples = n.enum_<VkSampleCountFlagBits>("samples");
  d.stencilLoadOp = n.enum_<VkAttachmentLoadOp>("stencilLoadOp");
  d.stencilStoreOp = n.enum_<VkAttachmentStoreOp>("stencilStoreOp");
}

template <typename Dep>
void read_dependency_base(const Node& n, Dep& d) {
  d.dependencyFlags = n.u32("dependencyFlags");
  d.dstAccessMask = n.u32("dstAccessMask");
  d.srcAccessMask = n.u32("srcAccessMask");
  d.dstStageMask = n.u32("dstStageMask");
  d.srcStageMask = n.u32("srcStageMask");
  d.dstSubpass = n.u32("dstSubpass");
  d.srcSubpass = n.u32("srcSubpass");
}

void read_ref(const Node& n, VkAttachmentReference& r) {
  n.only({"attachment", "layout"});
  r.attachment = n.u32("attachment");
  r.layout = n.enum_<VkImageLayout>("layout");
}

// Subpass members shared by v1 and v2; `Ref` is the attachment reference type.
template <typename Sub, typename ReadRef>
void read_subpass_refs(const Node& n, Sub& s, ReadRef read) {
  using Ref = std::remove_const_t<std::remove_pointer_t<decltype(s.pColorAttachments)>>;
  s.flags = n.u32("flags");
  s.pipelineBindPoint = n.enum_<VkPipelineBindPoint>("pipelineBindPoint");
  if (n.has("depthStencilAttachment")) {
    Ref* r = n.ctx().arena.make<Ref>();
    read(n.at("depthStencilAttachment"), *r);
    s.pDepthStencilAttachment = r;
  }
  if (n.has("inputAttachments")) s.pInputAttachments = n.array<Ref>("inputAttachments", &s.inputAttachmentCount, read);
  if (n.has("colorAttachments")) s.pColorAttachments = n.array<Ref>("colorAttachments", &s.colorAttachmentCount, read);
  if (n.has("resolveAttachments")) {
    std::uint32_t count = 0;
    s.pResolveAttachments = n.array<Ref>("resolveAttachments", &count, read);
    if (count != s.colorAttachmentCount)
      n.at("resolveAttachments")
          .fail("has " + std::to_string(count) + " elements, colorAttachments has " +
                std::to_string(s.colorAttachmentCount));
  }
  if (n.has("preserveAttachments"))
    s.pPreserveAttachments = n.u32_array("preserveAttachments", &s.preserveAttachmentCount);
}

}  // namespace

void read_attachment_ref2(const Node& n, VkAttachmentReference2& r) {
  n.only({"attachment", "layout", "aspectMask", "pNext"});
  r.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2;
  r.attachment = n.u32("attachment");
  r.layout = n.enum_<VkImageLayout>("layout");
  r.aspectMask = n.u32("aspectMask");
  r.pNext = read_pnext(n);
}

void read_application_info(const Node& app, const Node& features, Object& o) {
  Arena& arena = app.ctx().arena;
  app.only({"applicationName", "engineName", "applicationVersion", "engineVersion", "apiVersion"});
  features.only({"robustBufferAccess", "pNext"});
  // fossilize-opt writes empty objects: no application, no features.
  if (app.value().MemberCount()) {
    auto* a = arena.make<VkApplicationInfo>();
    a->sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    if (app.has("applicationName")) a->pApplicationName = arena.copy_string(app.str("applicationName"));
    if (app.has("engineName")) a->pEngineName = arena.copy_string(app.str("engineName"));
    a->applicationVersion = app.u32("applicationVersion");
    a->engineVersion = app.u32("engineVersion");
    a->apiVersion = app.u32("apiVersion");
    o.application = a;
  }
  if (features.value().MemberCount()) {
    auto* f = arena.make<VkPhysicalDeviceFeatures2>();
    f->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    f->features.robustBufferAccess = features.u32("robustBufferAccess");
    f->pNext = read_pdf2_pnext(features);
    o.features = f;
  }
  o.tag = Tag::application_info;
  o.hash = hash_application_info(o.application, o.features, app.ctx().where);
}

void read_link(const Node& n, Object& o) {
  n.only({"application", "tag", "hash"});
  o.tag = Tag::application_blob_link;
  o.link.application = n.hash("application");
  const std::uint32_t tag = n.u32("tag");
  if (tag >= kTagCount) n.at("tag").fail("unknown resource tag " + std::to_string(tag));
  o.link.tag = static_cast<Tag>(tag);
  o.link.hash = n.hash("hash");
  o.hash = hash_link(o.link);
}

void read_sampler(const Node& n, Object& o) {
  n.only({"flags", "minFilter", "magFilter", "maxAnisotropy", "compareOp", "anisotropyEnable", "mipmapMode",
          "addressModeU", "addressModeV", "addressModeW", "borderColor", "unnormalizedCoordinates", "compareEnable",
          "mipLodBias", "minLod", "maxLod", "pNext"});
  auto* s = n.ctx().arena.make<VkSamplerCreateInfo>();
  s->sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  s->flags = n.u32("flags");
  s->minFilter = n.enum_<VkFilter>("minFilter");
  s->magFilter = n.enum_<VkFilter>("magFilter");
  s->maxAnisotropy = n.f32("maxAnisotropy");
  s->compareOp = n.enum_<VkCompareOp>("compareOp");
  s->anisotropyEnable = n.u32("anisotropyEnable");
  s->mipmapMode = n.enum_<VkSamplerMipmapMode>("mipmapMode");
  s->addressModeU = n.enum_<VkSamplerAddressMode>("addressModeU");
  s->addressModeV = n.enum_<VkSamplerAddressMode>("addressModeV");
  s->addressModeW = n.enum_<VkSamplerAddressMode>("addressModeW");
  s->borderColor = n.enum_<VkBorderColor>("borderColor");
  s->unnormalizedCoordinates = n.u32("unnormalizedCoordinates");
  s->compareEnable = n.u32("compareEnable");
  s->mipLodBias = n.f32("mipLodBias");
  s->minLod = n.f32("minLod");
  s->maxLod = n.f32("maxLod");
  s->pNext = read_pnext(n);
  o.create_info = s;
}

void read_set_layout(const Node& n, Object& o) {
  n.only({"flags", "bindings", "pNext"});
  auto* l = n.ctx().arena.make<VkDescriptorSetLayoutCreateInfo>();
  l->sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  l->flags = n.u32("flags");
  if (n.has("bindings")) {
    l->pBindings = n.array<VkDescriptorSetLayoutBinding>(
        "bindings", &l->bindingCount, [](const Node& b, VkDescriptorSetLayoutBinding& out) {
          b.only({"descriptorType", "descriptorCount", "stageFlags", "binding", "immutableSamplers"});
          out.binding = b.u32("binding");
          out.descriptorCount = b.u32("descriptorCount");
          out.descriptorType = b.enum_<VkDescriptorType>("descriptorType");
          out.stageFlags = b.u32("stageFlags");
          if (!b.has("immutableSamplers")) return;
          const Node list = b.at("immutableSamplers");
          const std::size_t count = list.array_size();
          if (count != out.descriptorCount)
            list.fail("has " + std::to_string(count) + " samplers, descriptorCount is " +
                      std::to_string(out.descriptorCount));
          auto* samplers = b.ctx().arena.make<VkSampler>(count);
          for (std::size_t i = 0; i < count; ++i) {
            const Hash h = list[i].as_hash();
            samplers[i] = handle_from_hash<VkSampler>(h);
            if (h) b.ctx().refs->push_back({Tag::sampler, h, &samplers[i]});
          }
          out.pImmutableSamplers = samplers;
        });
  }
  l->pNext = read_pnext(n);
  o.create_info = l;
}

void read_pipeline_layout(const Node& n, Object& o) {
  n.only({"flags", "pushConstantRanges", "setLayouts"});
  auto* l = n.ctx().arena.make<VkPipelineLayoutCreateInfo>();
  l->sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  l->flags = n.u32("flags");
  if (n.has("pushConstantRanges")) {
    l->pPushConstantRanges = n.array<VkPushConstantRange>("pushConstantRanges", &l->pushConstantRangeCount,
                                                          [](const Node& r, VkPushConstantRange& out) {
                                                            r.only({"stageFlags", "size", "offset"});
                                                            out.stageFlags = r.u32("stageFlags");
                                                            out.size = r.u32("size");
                                                            out.offset = r.u32("offset");
                                                          });
  }
  if (n.has("setLayouts")) {
    const Node list = n.at("setLayouts");
    const std::size_t count = list.array_size();
    auto* layouts = n.ctx().arena.make<VkDescriptorSetLayout>(count);
    for (std::size_t i = 0; i < count; ++i) {
      const Hash h = list[i].as_hash();
      layouts[i] = handle_from_hash<VkDescriptorSetLayout>(h);
      if (h) n.ctx().refs->push_back({Tag::descriptor_set_layout, h, &layouts[i]});
    }
    l->setLayoutCount = static_cast<std::uint32_t>(count);
    l->pSetLayouts = layouts;
  }
  o.create_info = l;
}

void read_shader_module(const Node& n, Object& o, std::string_view varint) {
  n.only({"flags", "codeSize", "varintOffset", "varintSize", "code"});
  auto* m = n.ctx().arena.make<VkShaderModuleCreateInfo>();
  m->sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  m->flags = n.u32("flags");
  const std::uint64_t code_size = n.u64("codeSize");
  if (code_size % 4 || code_size == 0)
    n.at("codeSize").fail("must be a non-zero multiple of 4, is " + std::to_string(code_size));
  const std::size_t words = static_cast<std::size_t>(code_size / 4);
  if (n.has("varintOffset") || n.has("varintSize")) {
    if (n.has("code")) n.fail("has both \"code\" and varint members");
    const std::uint64_t offset = n.u64("varintOffset"), size = n.u64("varintSize");
    if (offset > varint.size() || size > varint.size() - offset)
      n.fail("varint range " + std::to_string(offset) + "+" + std::to_string(size) + " overruns the " +
             std::to_string(varint.size()) + " binary bytes after the JSON");
    // Each word takes at least one byte: a bound before allocating.
    if (words > size)
      n.fail("codeSize " + std::to_string(code_size) + " needs more than the " + std::to_string(size) +
             " varint bytes");
    auto* code = n.ctx().arena.make<std::uint32_t>(words);
    std::size_t bad = 0;
    if (!decode_varint(varint.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(size)), {code, words},
                       &bad))
      n.fail("invalid varint SPIR-V at byte " + std::to_string(bad) + " of " + std::to_string(size) + " (" +
             std::to_string(words) + " words expected)");
    m->pCode = code;
  } else {
    const std::string_view text = n.str("code");
    if (text.size() / 4 * 3 < code_size)
      n.at("code").fail("holds fewer than codeSize " + std::to_string(code_size) + " bytes");
    std::vector<std::uint8_t> bytes;
    if (!decode_base64(text, bytes)) n.at("code").fail("invalid base64");
    if (bytes.size() != code_size)
      n.at("code").fail("decodes to " + std::to_string(bytes.size()) + " bytes, codeSize is " +
                        std::to_string(code_size));
    auto* code = n.ctx().arena.make<std::uint32_t>(words);
    std::memcpy(code, bytes.data(), bytes.size());
    m->pCode = code;
  }
  m->codeSize = static_cast<std::size_t>(code_size);
  o.create_info = m;
}

void read_render_pass(const Node& n, Object& o) {
  n.only({"flags", "attachments", "dependencies", "subpasses", "pNext"});
  auto* rp = n.ctx().arena.make<VkRenderPassCreateInfo>();
  rp->sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  rp->flags = n.u32("flags");
  if (n.has("attachments"))
    rp->pAttachments = n.array<VkAttachmentDescription>(
        "attachments", &rp->attachmentCount, [](const Node& a, VkAttachmentDescription& d) {
          a.only({"flags", "format", "finalLayout", "initialLayout", "loadOp", "storeOp", "samples", "stencilLoadOp",
                  "stencilStoreOp"});
          read_attachment_base(a, d);
        });
  if (n.has("dependencies"))
    rp->pDependencies =
        n.array<VkSubpassDependency>("dependencies", &rp->dependencyCount, [](const Node& d, VkSubpassDependency& dep) {
          d.only({"dependencyFlags", "dstAccessMask", "srcAccessMask", "dstStageMask", "srcStageMask", "dstSubpass",
                  "srcSubpass"});
          read_dependency_base(d, dep);
        });
  if (n.has("subpasses"))
    rp->pSubpasses =
        n.array<VkSubpassDescription>("subpasses", &rp->subpassCount, [](const Node& s, VkSubpassDescription& sub) {
          s.only({"flags", "pipelineBindPoint", "depthStencilAttachment", "resolveAttachments", "inputAttachments",
                  "colorAttachments", "preserveAttachments"});
          read_subpass_refs(s, sub, read_ref);
        });
  rp->pNext = read_pnext(n);
  o.create_info = rp;
}

void read_render_pass2(const Node& n, Object& o) {
  n.only({"flags", "correlatedViewMasks", "attachments", "dependencies", "subpasses", "pNext"});
  auto* rp = n.ctx().arena.make<VkRenderPassCreateInfo2>();
  rp->sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2;
  rp->flags = n.u32("flags");
  if (n.has("correlatedViewMasks"))
    rp->pCorrelatedViewMasks = n.u32_array("correlatedViewMasks", &rp->correlatedViewMaskCount);
  if (n.has("attachments"))
    rp->pAttachments = n.array<VkAttachmentDescription2>(
        "attachments", &rp->attachmentCount, [](const Node& a, VkAttachmentDescription2& d) {
          a.only({"flags", "format", "finalLayout", "initialLayout", "loadOp", "storeOp", "samples", "stencilLoadOp",
                  "stencilStoreOp", "pNext"});
          d.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2;
          read_attachment_base(a, d);
          d.pNext = read_pnext(a);
        });
  if (n.has("dependencies"))
    rp->pDependencies = n.array<VkSubpassDependency2>(
        "dependencies", &rp->dependencyCount, [](const Node& d, VkSubpassDependency2& dep) {
          d.only({"dependencyFlags", "dstAccessMask", "srcAccessMask", "dstStageMask", "srcStageMask", "dstSubpass",
                  "srcSubpass", "viewOffset", "pNext"});
          dep.sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2;
          read_dependency_base(d, dep);
          dep.viewOffset = d.s32("viewOffset");
          dep.pNext = read_pnext(d);
        });
  if (n.has("subpasses"))
    rp->pSubpasses =
        n.array<VkSubpassDescription2>("subpasses", &rp->subpassCount, [](const Node& s, VkSubpassDescription2& sub) {
          s.only({"flags", "pipelineBindPoint", "viewMask", "depthStencilAttachment", "resolveAttachments",
                  "inputAttachments", "colorAttachments", "preserveAttachments", "pNext"});
          sub.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2;
          sub.viewMask = s.u32("viewMask");
          read_subpass_refs(s, sub, read_attachment_ref2);
          sub.pNext = read_pnext(s);
        });
  rp->pNext = read_pnext(n);
  o.create_info = rp;
}

}  // namespace libtrace::foz::detail
