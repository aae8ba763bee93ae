// SPDX-License-Identifier: MIT
// The pNext structs Fossilize records that are newer than the installed
// headers (foz/vk_compat.hpp): the registry does not know them, so all of
// their handling is written here.
#include <string>
#include <utility>

#include "foz/custom_pnext.hpp"
#include "foz/vk_compat.hpp"

namespace libtrace::foz::detail::custom {

namespace {

// Fossilize's stand-in for an absent array or index.
void hash_u32s_or_zero(Hasher& h, const std::uint32_t* v, std::uint32_t n) {
  if (!v) return h.u32(0);
  for (std::uint32_t i = 0; i < n; ++i) h.u32(v[i]);
}

}  // namespace

void write_flags2(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  open(o, p);
  o.u64("flags", as<VkPipelineCreateFlags2CreateInfoKHR>(p).flags);
  o.end_object();
}

const VkBaseInStructure* read_flags2(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "flags"});
  auto* t = make<VkPipelineCreateFlags2CreateInfoKHR>(n, s);
  t->flags = n.u64("flags");
  return base(t);
}

void hash_flags2(Hasher& h, const VkBaseInStructure* p, const HashContext&) {
  h.u64(normalize_pipeline_flags(as<VkPipelineCreateFlags2CreateInfoKHR>(p).flags));
}

void write_depth_bias(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkDepthBiasRepresentationInfoEXT>(p);
  open(o, p);
  o.u32("depthBiasRepresentation", t.depthBiasRepresentation);
  o.u32("depthBiasExact", t.depthBiasExact);
  o.end_object();
}

const VkBaseInStructure* read_depth_bias(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "depthBiasRepresentation", "depthBiasExact"});
  auto* t = make<VkDepthBiasRepresentationInfoEXT>(n, s);
  t->depthBiasRepresentation = n.enum_<VkDepthBiasRepresentationEXT>("depthBiasRepresentation");
  t->depthBiasExact = n.u32("depthBiasExact");
  return base(t);
}

void hash_depth_bias(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkDepthBiasRepresentationInfoEXT>(p);
  if (c.dynamic(&DynamicStateInfo::depth_bias)) return h.u32(0);
  h.u32(t.depthBiasExact);
  h.u32(t.depthBiasRepresentation);
}

void write_depth_clamp(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkPipelineViewportDepthClampControlCreateInfoEXT>(p);
  open(o, p);
  o.u32("depthClampMode", t.depthClampMode);
  if (t.pDepthClampRange) {
    o.begin_object("depthClampRange");
    o.f32("minDepthClamp", t.pDepthClampRange->minDepthClamp);
    o.f32("maxDepthClamp", t.pDepthClampRange->maxDepthClamp);
    o.end_object();
  }
  o.end_object();
}

const VkBaseInStructure* read_depth_clamp(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "depthClampMode", "depthClampRange"});
  auto* t = make<VkPipelineViewportDepthClampControlCreateInfoEXT>(n, s);
  t->depthClampMode = n.enum_<VkDepthClampModeEXT>("depthClampMode");
  if (n.has("depthClampRange")) {
    const Node r = n.at("depthClampRange");
    r.only({"minDepthClamp", "maxDepthClamp"});
    auto* range = n.ctx().arena.make<VkDepthClampRangeEXT>();
    range->minDepthClamp = r.f32("minDepthClamp");
    range->maxDepthClamp = r.f32("maxDepthClamp");
    t->pDepthClampRange = range;
  }
  return base(t);
}

void hash_depth_clamp(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkPipelineViewportDepthClampControlCreateInfoEXT>(p);
  if (c.dynamic(&DynamicStateInfo::depth_clamp_range)) return;
  h.u32(t.depthClampMode);
  if (t.depthClampMode == VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT && t.pDepthClampRange) {
    h.f32(t.pDepthClampRange->minDepthClamp);
    h.f32(t.pDepthClampRange->maxDepthClamp);
  } else {
    h.u32(0);
  }
}

void write_attachment_location(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkRenderingAttachmentLocationInfoKHR>(p);
  open(o, p);
  write_counted_u32s(o, "colorAttachmentCount", t.colorAttachmentCount, "colorAttachmentLocations",
                     t.pColorAttachmentLocations);
  o.end_object();
}

const VkBaseInStructure* read_attachment_location(const Node& n, VkStructureType s, Tag) {
  return read_counted_u32s(n, s, "colorAttachmentCount", &VkRenderingAttachmentLocationInfoKHR::colorAttachmentCount,
                           "colorAttachmentLocations",
                           &VkRenderingAttachmentLocationInfoKHR::pColorAttachmentLocations);
}

void hash_attachment_location(Hasher& h, const VkBaseInStructure* p, const HashContext&) {
  const auto& t = as<VkRenderingAttachmentLocationInfoKHR>(p);
  h.u32(t.colorAttachmentCount);
  hash_u32s_or_zero(h, t.pColorAttachmentLocations, t.colorAttachmentCount);
}

void write_input_index(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkRenderingInputAttachmentIndexInfoKHR>(p);
  open(o, p);
  write_counted_u32s(o, "colorAttachmentCount", t.colorAttachmentCount, "colorAttachmentInputIndices",
                     t.pColorAttachmentInputIndices);
  if (t.pDepthInputAttachmentIndex) o.u32("depthInputAttachmentIndex", *t.pDepthInputAttachmentIndex);
  if (t.pStencilInputAttachmentIndex) o.u32("stencilInputAttachmentIndex", *t.pStencilInputAttachmentIndex);
  o.end_object();
}

const VkBaseInStructure* read_input_index(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "colorAttachmentCount", "colorAttachmentInputIndices", "depthInputAttachmentIndex",
          "stencilInputAttachmentIndex"});
  auto* t = make<VkRenderingInputAttachmentIndexInfoKHR>(n, s);
  t->colorAttachmentCount = n.u32("colorAttachmentCount");
  if (n.has("colorAttachmentInputIndices"))
    t->pColorAttachmentInputIndices = n.u32_array_sized("colorAttachmentInputIndices", t->colorAttachmentCount);
  for (auto [key, field] : {std::pair{"depthInputAttachmentIndex", &t->pDepthInputAttachmentIndex},
                            std::pair{"stencilInputAttachmentIndex", &t->pStencilInputAttachmentIndex}}) {
    if (!n.has(key)) continue;
    auto* v = n.ctx().arena.make<std::uint32_t>();
    *v = n.u32(key);
    *field = v;
  }
  return base(t);
}

void hash_input_index(Hasher& h, const VkBaseInStructure* p, const HashContext&) {
  const auto& t = as<VkRenderingInputAttachmentIndexInfoKHR>(p);
  h.u32(t.colorAttachmentCount);
  hash_u32s_or_zero(h, t.pColorAttachmentInputIndices, t.colorAttachmentCount);
  h.u32(t.pDepthInputAttachmentIndex ? *t.pDepthInputAttachmentIndex : 0xffff);
  h.u32(t.pStencilInputAttachmentIndex ? *t.pStencilInputAttachmentIndex : 0xffff);
}

}  // namespace libtrace::foz::detail::custom
