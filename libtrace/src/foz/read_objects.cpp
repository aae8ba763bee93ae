// SPDX-License-Identifier: MIT
// JSON -> structs for application infos, links, samplers, descriptor set
// layouts, pipeline layouts, shader modules and render passes (v1 and v2);
// the members of most are in their profiles (objects.cpp).
#include <algorithm>
#include <string>

#include "foz/pnext.hpp"
#include "libtrace/foz/varint.hpp"

namespace libtrace::foz::detail {

void read_attachment_ref2(const Node& n, VkAttachmentReference2& r) { read_object(n, &r, "VkAttachmentReference2"); }

void read_application_info(const Node& app, const Node& features, Object& o) {
  Arena& arena = app.ctx().arena;
  features.only({"robustBufferAccess", "pNext"});
  // fossilize-opt writes empty objects: no application, no features.
  app.expect_object();
  if (app.value().MemberCount()) o.application = read_object<VkApplicationInfo>(app, "VkApplicationInfo");
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
  o.create_info = read_object<VkSamplerCreateInfo>(n, "VkSamplerCreateInfo");
}

void read_set_layout(const Node& n, Object& o) {
  o.create_info = read_object<VkDescriptorSetLayoutCreateInfo>(n, "VkDescriptorSetLayoutCreateInfo");
}

void read_pipeline_layout(const Node& n, Object& o) {
  o.create_info = read_object<VkPipelineLayoutCreateInfo>(n, "VkPipelineLayoutCreateInfo");
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
  o.create_info = read_object<VkRenderPassCreateInfo>(n, "VkRenderPassCreateInfo");
}

void read_render_pass2(const Node& n, Object& o) {
  o.create_info = read_object<VkRenderPassCreateInfo2>(n, "VkRenderPassCreateInfo2");
}

}  // namespace libtrace::foz::detail
