// SPDX-License-Identifier: MIT
// What Fossilize records of each create-info pNext struct (fossilize.cpp's
// hash_pnext_struct, json_value and parse_pnext_chain), as profiles for the
// generic engine (foz/pnext.hpp), and the code for what a member list cannot
// say: state that Fossilize hashes only when it is static, library flags,
// unions and arrays of arrays. The structs newer than the installed headers
// are in custom_pnext_compat.cpp.
#include <array>
#include <string>
#include <string_view>

#include "foz/custom_pnext.hpp"
#include "foz/vk_compat.hpp"

namespace libtrace::foz::detail {

namespace {

using namespace custom;

template <typename T>
const T* need(const T* p, std::uint32_t count, const std::string& where, const char* what) {
  if (!p && count)
    fail(where, std::string("cannot hash: ") + what + " is missing for a count of " + std::to_string(count));
  return p;
}

// Member lists shared by a profile and the custom code around them.
constexpr const char* kSampleLocations = "sampleLocationsPerPixel sampleLocationGridSize pSampleLocations";
constexpr const char* kSampleLocationsHash =
    "sampleLocationsCount sampleLocationGridSize sampleLocationsPerPixel pSampleLocations";
constexpr const char* kAttachmentRef2Hash = "attachment layout aspectMask";

void hash_ref2(Hasher& h, const VkAttachmentReference2& r, const HashContext& c) {
  hash_members(h, &r, "VkAttachmentReference2", kAttachmentRef2Hash, c);
}

// ---- VkPipelineColorBlendAdvancedStateCreateInfoEXT: one 0 for all when dynamic ----
void hash_blend_advanced(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  if (c.dynamic(&DynamicStateInfo::color_blend_advanced)) return h.u32(0);
  hash_members(h, p, "VkPipelineColorBlendAdvancedStateCreateInfoEXT", "srcPremultiplied dstPremultiplied blendOverlap",
               c);
}

// ---- VkPipelineRasterizationLineStateCreateInfoEXT: the stipple only where it can apply ----
void hash_line_state(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkPipelineRasterizationLineStateCreateInfoEXT>(p);
  const bool can_stipple = c.dynamic(&DynamicStateInfo::line_stipple_enable) || t.stippledLineEnable;
  const bool stipple_values = can_stipple && !c.dynamic(&DynamicStateInfo::line_stipple);
  h.u32(c.dynamic(&DynamicStateInfo::line_rasterization_mode) ? 0 : t.lineRasterizationMode);
  h.u32(c.dynamic(&DynamicStateInfo::line_stipple_enable) ? 0 : t.stippledLineEnable);
  h.u32(stipple_values ? t.lineStippleFactor : 0);
  h.u32(stipple_values ? t.lineStipplePattern : 0);
}

// ---- VkMutableDescriptorTypeCreateInfoEXT: JSON is an array of arrays ----
void write_mutable(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkMutableDescriptorTypeCreateInfoEXT>(p);
  open(o, p);
  o.begin_array("mutableDescriptorTypeLists");
  for (std::uint32_t i = 0; i < t.mutableDescriptorTypeListCount; ++i)
    o.u32_array(nullptr, t.pMutableDescriptorTypeLists[i].pDescriptorTypes,
                t.pMutableDescriptorTypeLists[i].descriptorTypeCount);
  o.end_array();
  o.end_object();
}

const VkBaseInStructure* read_mutable(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "mutableDescriptorTypeLists"});
  auto* t = make<VkMutableDescriptorTypeCreateInfoEXT>(n, s);
  if (n.has("mutableDescriptorTypeLists"))
    t->pMutableDescriptorTypeLists =
        n.array<VkMutableDescriptorTypeListEXT>("mutableDescriptorTypeLists", &t->mutableDescriptorTypeListCount,
                                                [](const Node& l, VkMutableDescriptorTypeListEXT& out) {
                                                  const std::size_t count = l.array_size();
                                                  auto* types = l.ctx().arena.make<VkDescriptorType>(count);
                                                  for (std::size_t i = 0; i < count; ++i)
                                                    types[i] = l[i].as_enum<VkDescriptorType>();
                                                  out.descriptorTypeCount = static_cast<std::uint32_t>(count);
                                                  out.pDescriptorTypes = types;
                                                });
  return base(t);
}

// ---- structs holding a VkAttachmentReference2 (with a pNext of its own) ----
void write_fsr_attachment(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkFragmentShadingRateAttachmentInfoKHR>(p);
  open(o, p);
  write_members(o, p, "VkFragmentShadingRateAttachmentInfoKHR", "shadingRateAttachmentTexelSize");
  if (t.pFragmentShadingRateAttachment) {
    o.key("fragmentShadingRateAttachment");
    write_attachment_ref2(o, *t.pFragmentShadingRateAttachment);
  }
  o.end_object();
}

const VkBaseInStructure* read_fsr_attachment(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "shadingRateAttachmentTexelSize", "fragmentShadingRateAttachment"});
  auto* t = make<VkFragmentShadingRateAttachmentInfoKHR>(n, s);
  read_members(n.at("shadingRateAttachmentTexelSize"), &t->shadingRateAttachmentTexelSize, "VkExtent2D", nullptr);
  if (n.has("fragmentShadingRateAttachment")) {
    auto* r = n.ctx().arena.make<VkAttachmentReference2>();
    read_attachment_ref2(n.at("fragmentShadingRateAttachment"), *r);
    t->pFragmentShadingRateAttachment = r;
  }
  return base(t);
}

void hash_fsr_attachment(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkFragmentShadingRateAttachmentInfoKHR>(p);
  if (!t.pFragmentShadingRateAttachment) return h.u32(0);
  hash_ref2(h, *t.pFragmentShadingRateAttachment, c);
  hash_members(h, p, "VkFragmentShadingRateAttachmentInfoKHR", "shadingRateAttachmentTexelSize", c);
  if (t.pFragmentShadingRateAttachment->pNext)
    fail(c.where, "cannot hash: a pNext chain on the fragment shading rate attachment");
}

void write_ds_resolve(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkSubpassDescriptionDepthStencilResolve>(p);
  open(o, p);
  write_members(o, p, "VkSubpassDescriptionDepthStencilResolve", "depthResolveMode stencilResolveMode");
  if (t.pDepthStencilResolveAttachment) {
    o.key("depthStencilResolveAttachment");
    write_attachment_ref2(o, *t.pDepthStencilResolveAttachment);
  }
  o.end_object();
}

const VkBaseInStructure* read_ds_resolve(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "depthResolveMode", "stencilResolveMode", "depthStencilResolveAttachment"});
  auto* t = make<VkSubpassDescriptionDepthStencilResolve>(n, s);
  t->depthResolveMode = n.enum_<VkResolveModeFlagBits>("depthResolveMode");
  t->stencilResolveMode = n.enum_<VkResolveModeFlagBits>("stencilResolveMode");
  if (n.has("depthStencilResolveAttachment")) {
    auto* r = n.ctx().arena.make<VkAttachmentReference2>();
    read_attachment_ref2(n.at("depthStencilResolveAttachment"), *r);
    t->pDepthStencilResolveAttachment = r;
  }
  return base(t);
}

void hash_ds_resolve(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkSubpassDescriptionDepthStencilResolve>(p);
  if (!t.pDepthStencilResolveAttachment) return h.u32(0);
  h.u32(t.depthResolveMode);
  h.u32(t.stencilResolveMode);
  hash_ref2(h, *t.pDepthStencilResolveAttachment, c);
  for (auto* q = static_cast<const VkBaseInStructure*>(t.pDepthStencilResolveAttachment->pNext); q; q = q->pNext)
    if (!ignored_stype(q->sType) && q->sType != VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT)
      fail(c.where, "cannot hash: the depth/stencil resolve attachment's pNext holds " + stype_name(q->sType));
  hash_pnext_chain(h, t.pDepthStencilResolveAttachment->pNext, nullptr, 0, c.where);
}

// ---- VkPipelineRenderingCreateInfo: what counts depends on the library state ----
constexpr const char* kRenderingMembers =
    "depthAttachmentFormat stencilAttachmentFormat viewMask pColorAttachmentFormats";

// A library part without the output interface ignores the formats (and
// without any shader state the view mask): Fossilize records them cleared.
void write_rendering(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  VkPipelineRenderingCreateInfo t = as<VkPipelineRenderingCreateInfo>(p);
  const auto state = o.library_state();
  if (!(state & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT)) {
    t.colorAttachmentCount = 0;
    t.pColorAttachmentFormats = nullptr;
    t.depthAttachmentFormat = t.stencilAttachmentFormat = VK_FORMAT_UNDEFINED;
    if (!(state & (VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                   VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT)))
      t.viewMask = 0;
  }
  open(o, p);
  write_members(o, &t, "VkPipelineRenderingCreateInfo", kRenderingMembers);
  o.end_object();
}

const VkBaseInStructure* read_rendering(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "depthAttachmentFormat", "stencilAttachmentFormat", "viewMask", "colorAttachmentFormats"});
  auto* t = make<VkPipelineRenderingCreateInfo>(n, s);
  read_members(n, t, "VkPipelineRenderingCreateInfo", kRenderingMembers);
  return base(t);
}

void hash_rendering(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkPipelineRenderingCreateInfo>(p);
  const bool formats = (c.state & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) != 0;
  const bool view_mask = (c.state & (VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT |
                                     VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                                     VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT)) != 0;
  if (formats) h.u32(t.colorAttachmentCount);
  if (view_mask) h.u32(t.viewMask);
  if (formats)
    hash_members(h, p, "VkPipelineRenderingCreateInfo",
                 "pColorAttachmentFormats depthAttachmentFormat stencilAttachmentFormat", c);
}

// ---- VkPipelineColorWriteCreateInfoEXT: the enables only where static ----
void write_color_write(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn) {
  const auto& t = as<VkPipelineColorWriteCreateInfoEXT>(p);
  if (!dyn) fail(o.where(), "VkPipelineColorWriteCreateInfoEXT outside graphics pipeline state");
  open(o, p);
  // A dynamic color write enable leaves the static array out.
  write_counted_u32s(o, "attachmentCount", t.attachmentCount, "colorWriteEnables",
                     dyn->color_write_enable ? nullptr : t.pColorWriteEnables);
  o.end_object();
}

const VkBaseInStructure* read_color_write(const Node& n, VkStructureType s, Tag) {
  return read_counted_u32s(n, s, "attachmentCount", &VkPipelineColorWriteCreateInfoEXT::attachmentCount,
                           "colorWriteEnables", &VkPipelineColorWriteCreateInfoEXT::pColorWriteEnables);
}

void hash_color_write(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkPipelineColorWriteCreateInfoEXT>(p);
  h.u32(t.attachmentCount);
  // Fossilize hashes the enables only when it knows the state is static.
  if (c.dyn && !c.dyn->color_write_enable) {
    need(t.pColorWriteEnables, t.attachmentCount, c.where, "colorWriteEnables");
    for (std::uint32_t i = 0; i < t.attachmentCount; ++i) h.u32(t.pColorWriteEnables[i]);
  }
}

// ---- VkPipelineSampleLocationsStateCreateInfoEXT: the locations only where they apply ----
bool sample_locations_apply(const VkPipelineSampleLocationsStateCreateInfoEXT& t, const DynamicStateInfo* dyn) {
  const bool dynamic_enable = dyn && dyn->sample_locations_enable;
  return (dynamic_enable || t.sampleLocationsEnable) && dyn && !dyn->sample_locations;
}

void write_sample_locations_state(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn) {
  const auto& t = as<VkPipelineSampleLocationsStateCreateInfoEXT>(p);
  open(o, p);
  o.u32("sampleLocationsEnable", t.sampleLocationsEnable);
  if (sample_locations_apply(t, dyn)) {
    o.begin_object("sampleLocationsInfo");
    o.u32("sType", t.sampleLocationsInfo.sType);
    write_members(o, &t.sampleLocationsInfo, "VkSampleLocationsInfoEXT", kSampleLocations);
    o.end_object();
  }
  o.end_object();
}

const VkBaseInStructure* read_sample_locations_state(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "sampleLocationsEnable", "sampleLocationsInfo"});
  auto* t = make<VkPipelineSampleLocationsStateCreateInfoEXT>(n, s);
  t->sampleLocationsEnable = n.u32("sampleLocationsEnable");
  t->sampleLocationsInfo.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT;
  if (n.has("sampleLocationsInfo")) {
    const Node info = n.at("sampleLocationsInfo");
    if (info.u32("sType") != VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT)
      info.at("sType").fail("must be VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT");
    read_members(info, &t->sampleLocationsInfo, "VkSampleLocationsInfoEXT", kSampleLocations);
  }
  return base(t);
}

void hash_sample_locations_state(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  const auto& t = as<VkPipelineSampleLocationsStateCreateInfoEXT>(p);
  const bool dynamic_enable = c.dynamic(&DynamicStateInfo::sample_locations_enable);
  h.u32(dynamic_enable ? 0 : t.sampleLocationsEnable);
  if (!((dynamic_enable || t.sampleLocationsEnable) && !c.dynamic(&DynamicStateInfo::sample_locations)))
    return h.u32(0);
  const auto& s = t.sampleLocationsInfo;
  if (s.pNext) fail(c.where, "cannot hash: a pNext chain on sampleLocationsInfo");
  hash_members(h, &s, "VkSampleLocationsInfoEXT",
               "sampleLocationGridSize sampleLocationsPerPixel sampleLocationsCount pSampleLocations", c);
}

// ---- VkSamplerCustomBorderColorCreateInfoEXT: a union, kept as its four words ----
void write_border_color(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkSamplerCustomBorderColorCreateInfoEXT>(p);
  open(o, p);
  o.u32_array("customBorderColor", t.customBorderColor.uint32, 4);
  o.u32("format", t.format);
  o.end_object();
}

const VkBaseInStructure* read_border_color(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "customBorderColor", "format"});
  auto* t = make<VkSamplerCustomBorderColorCreateInfoEXT>(n, s);
  const Node c = n.at("customBorderColor");
  if (c.array_size() != 4) c.fail("must have 4 elements");
  for (std::size_t i = 0; i < 4; ++i) t->customBorderColor.uint32[i] = c[i].as_u32();
  t->format = n.enum_<VkFormat>("format");
  return base(t);
}

void hash_border_color(Hasher& h, const VkBaseInStructure* p, const HashContext&) {
  const auto& t = as<VkSamplerCustomBorderColorCreateInfoEXT>(p);
  for (std::uint32_t c : t.customBorderColor.uint32) h.u32(c);
  h.u32(t.format);
}

// ---- VkPipelineDiscardRectangleStateCreateInfoEXT: flat rectangles, only where static ----
void write_discard(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn) {
  const auto& t = as<VkPipelineDiscardRectangleStateCreateInfoEXT>(p);
  open(o, p);
  write_members(o, p, "VkPipelineDiscardRectangleStateCreateInfoEXT",
                "flags discardRectangleMode discardRectangleCount");
  if (dyn && !dyn->discard_rectangle) {
    if (!t.pDiscardRectangles && t.discardRectangleCount)
      fail(o.where(), "discard rectangles missing for a static discard rectangle count");
    o.begin_array("discardRectangles");
    for (std::uint32_t i = 0; i < t.discardRectangleCount; ++i) {
      o.begin_object();
      o.s32("x", t.pDiscardRectangles[i].offset.x);
      o.s32("y", t.pDiscardRectangles[i].offset.y);
      o.u32("width", t.pDiscardRectangles[i].extent.width);
      o.u32("height", t.pDiscardRectangles[i].extent.height);
      o.end_object();
    }
    o.end_array();
  }
  o.end_object();
}

const VkBaseInStructure* read_discard(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "flags", "discardRectangleMode", "discardRectangleCount", "discardRectangles"});
  auto* t = make<VkPipelineDiscardRectangleStateCreateInfoEXT>(n, s);
  t->flags = n.u32("flags");
  t->discardRectangleMode = n.enum_<VkDiscardRectangleModeEXT>("discardRectangleMode");
  t->discardRectangleCount = n.u32("discardRectangleCount");
  if (n.has("discardRectangles"))
    t->pDiscardRectangles = n.rects_sized("discardRectangles", t->discardRectangleCount, "discardRectangleCount");
  return base(t);
}

void hash_discard(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  hash_members(h, p, "VkPipelineDiscardRectangleStateCreateInfoEXT",
               "flags discardRectangleMode@discard_rectangle_mode discardRectangleCount", c);
  if (c.dyn && !c.dyn->discard_rectangle)
    hash_members(h, p, "VkPipelineDiscardRectangleStateCreateInfoEXT", "pDiscardRectangles", c);
}

// ---- VkPipelineFragmentShadingRateStateCreateInfoKHR: only where static ----
constexpr const char* kFsrState = "fragmentSize combinerOps";

void write_fsr_state(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn) {
  open(o, p);
  if (dyn && !dyn->fragment_shading_rate)
    write_members(o, p, "VkPipelineFragmentShadingRateStateCreateInfoKHR", kFsrState);
  o.end_object();
}

const VkBaseInStructure* read_fsr_state(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "fragmentSize", "combinerOps"});
  auto* t = make<VkPipelineFragmentShadingRateStateCreateInfoKHR>(n, s);
  if (n.has("fragmentSize")) read_members(n.at("fragmentSize"), &t->fragmentSize, "VkExtent2D", nullptr);
  if (n.has("combinerOps")) {
    const Node c = n.at("combinerOps");
    if (c.array_size() != 2) c.fail("must have 2 elements");
    for (std::size_t i = 0; i < 2; ++i) t->combinerOps[i] = c[i].as_enum<VkFragmentShadingRateCombinerOpKHR>();
  }
  return base(t);
}

void hash_fsr_state(Hasher& h, const VkBaseInStructure* p, const HashContext& c) {
  if (c.dyn && !c.dyn->fragment_shading_rate)
    hash_members(h, p, "VkPipelineFragmentShadingRateStateCreateInfoKHR", kFsrState, c);
}

// ---- VkSamplerYcbcrConversionCreateInfo: the component mapping as an array ----
void write_ycbcr(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  const auto& t = as<VkSamplerYcbcrConversionCreateInfo>(p);
  open(o, p);
  write_members(o, p, "VkSamplerYcbcrConversionCreateInfo", "format ycbcrModel ycbcrRange");
  const VkComponentSwizzle c[] = {t.components.r, t.components.g, t.components.b, t.components.a};
  o.u32_array("components", c, 4);
  write_members(o, p, "VkSamplerYcbcrConversionCreateInfo",
                "xChromaOffset yChromaOffset chromaFilter forceExplicitReconstruction");
  o.end_object();
}

const VkBaseInStructure* read_ycbcr(const Node& n, VkStructureType s, Tag) {
  n.only({"sType", "format", "ycbcrModel", "ycbcrRange", "components", "xChromaOffset", "yChromaOffset", "chromaFilter",
          "forceExplicitReconstruction"});
  auto* t = make<VkSamplerYcbcrConversionCreateInfo>(n, s);
  t->format = n.enum_<VkFormat>("format");
  t->ycbcrModel = n.enum_<VkSamplerYcbcrModelConversion>("ycbcrModel");
  t->ycbcrRange = n.enum_<VkSamplerYcbcrRange>("ycbcrRange");
  const Node c = n.at("components");
  if (c.array_size() != 4) c.fail("must have 4 elements");
  t->components = {c[0].as_enum<VkComponentSwizzle>(), c[1].as_enum<VkComponentSwizzle>(),
                   c[2].as_enum<VkComponentSwizzle>(), c[3].as_enum<VkComponentSwizzle>()};
  t->xChromaOffset = n.enum_<VkChromaLocation>("xChromaOffset");
  t->yChromaOffset = n.enum_<VkChromaLocation>("yChromaOffset");
  t->chromaFilter = n.enum_<VkFilter>("chromaFilter");
  t->forceExplicitReconstruction = n.u32("forceExplicitReconstruction");
  return base(t);
}

// ---- VkPipelineLibraryCreateInfoKHR: references to other pipelines, by hash ----
void write_library(Out& o, const VkBaseInStructure* p, const DynamicStateInfo*) {
  write_library_info(o, as<VkPipelineLibraryCreateInfoKHR>(p), true);
}

const VkBaseInStructure* read_library(const Node& n, VkStructureType, Tag library_tag) {
  return base(read_library_info(n, library_tag, true));
}

void hash_library(Hasher& h, const VkBaseInStructure* p, const HashContext&) {
  hash_library_info(h, as<VkPipelineLibraryCreateInfoKHR>(p), Tag::graphics_pipeline);
}

#define S(x) VK_STRUCTURE_TYPE_##x
// Custom code for JSON (write, read) and hashing, where a member list cannot say it.
constexpr CustomWrite kNoWrite = nullptr;
constexpr CustomRead kNoRead = nullptr;

constexpr PnextProfile kProfiles[] = {
    {S(PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO), "domainOrigin",
     "domainOrigin@tessellation_domain_origin"},
    {S(PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT), "vertexBindingDivisorCount pVertexBindingDivisors",
     "vertexBindingDivisorCount pVertexBindingDivisors"},
    {S(PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT), "flags depthClipEnable",
     "flags depthClipEnable@depth_clip_enable"},
    {S(PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT), "flags rasterizationStream",
     "flags rasterizationStream@rasterization_stream"},
    {S(RENDER_PASS_MULTIVIEW_CREATE_INFO), "pViewMasks pViewOffsets pCorrelationMasks",
     "subpassCount pViewMasks dependencyCount pViewOffsets correlationMaskCount pCorrelationMasks"},
    {S(DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO), "pBindingFlags", "bindingCount pBindingFlags"},
    {S(PIPELINE_COLOR_BLEND_ADVANCED_STATE_CREATE_INFO_EXT), "srcPremultiplied dstPremultiplied blendOverlap", nullptr,
     kNoWrite, kNoRead, hash_blend_advanced},
    {S(PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT),
     "flags conservativeRasterizationMode extraPrimitiveOverestimationSize",
     "flags conservativeRasterizationMode@conservative_rasterization_mode "
     "extraPrimitiveOverestimationSize@extra_primitive_overestimation_size"},
    {S(PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT),
     "lineRasterizationMode stippledLineEnable lineStippleFactor lineStipplePattern", nullptr, kNoWrite, kNoRead,
     hash_line_state},
    {S(PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO), "requiredSubgroupSize", "requiredSubgroupSize"},
    {S(MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT), nullptr, "mutableDescriptorTypeListCount pMutableDescriptorTypeLists",
     write_mutable, read_mutable},
    {S(ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT), "stencilInitialLayout stencilFinalLayout",
     "stencilInitialLayout stencilFinalLayout"},
    {S(ATTACHMENT_REFERENCE_STENCIL_LAYOUT), "stencilLayout", "stencilLayout"},
    {S(SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE), nullptr, nullptr, write_ds_resolve, read_ds_resolve,
     hash_ds_resolve},
    {S(FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR), nullptr, nullptr, write_fsr_attachment, read_fsr_attachment,
     hash_fsr_attachment},
    {S(PIPELINE_RENDERING_CREATE_INFO), nullptr, nullptr, write_rendering, read_rendering, hash_rendering},
    {S(PIPELINE_COLOR_WRITE_CREATE_INFO_EXT), nullptr, nullptr, write_color_write, read_color_write, hash_color_write},
    {S(PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT), nullptr, nullptr, write_sample_locations_state,
     read_sample_locations_state, hash_sample_locations_state},
    {S(PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT), "provokingVertexMode",
     "provokingVertexMode@provoking_vertex_mode"},
    {S(SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT), nullptr, nullptr, write_border_color, read_border_color,
     hash_border_color},
    {S(SAMPLER_REDUCTION_MODE_CREATE_INFO), "reductionMode", "reductionMode"},
    {S(RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO), "pAspectReferences!",
     "aspectReferenceCount pAspectReferences"},
    {S(PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT), nullptr, nullptr, write_discard, read_discard, hash_discard},
    {S(MEMORY_BARRIER_2), "srcStageMask srcAccessMask dstStageMask dstAccessMask",
     "srcStageMask srcAccessMask dstStageMask dstAccessMask"},
    {S(PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR), nullptr, nullptr, write_fsr_state, read_fsr_state,
     hash_fsr_state},
    {S(SAMPLER_YCBCR_CONVERSION_CREATE_INFO), nullptr,
     "format ycbcrModel ycbcrRange components xChromaOffset yChromaOffset chromaFilter forceExplicitReconstruction",
     write_ycbcr, read_ycbcr},
    {S(GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT), "flags", "flags"},
    {S(PIPELINE_LIBRARY_CREATE_INFO_KHR), nullptr, nullptr, write_library, read_library, hash_library},
    {S(PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT), "negativeOneToOne",
     "negativeOneToOne@depth_clip_negative_one_to_one"},
    {S(PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR), nullptr, nullptr, write_flags2, read_flags2, hash_flags2},
    {S(RENDER_PASS_CREATION_CONTROL_EXT), "disallowMerging", "disallowMerging"},
    {S(SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT), "srgb components", "srgb components"},
    {S(MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT), "rasterizationSamples multisampledRenderToSingleSampledEnable",
     "multisampledRenderToSingleSampledEnable rasterizationSamples"},
    {S(DEPTH_BIAS_REPRESENTATION_INFO_EXT), nullptr, nullptr, write_depth_bias, read_depth_bias, hash_depth_bias},
    {S(RENDER_PASS_FRAGMENT_DENSITY_MAP_CREATE_INFO_EXT), "fragmentDensityMapAttachment",
     "fragmentDensityMapAttachment"},
    {S(SAMPLE_LOCATIONS_INFO_EXT), kSampleLocations, kSampleLocationsHash},
    {S(PIPELINE_ROBUSTNESS_CREATE_INFO_EXT), "storageBuffers vertexInputs uniformBuffers images",
     "images vertexInputs uniformBuffers storageBuffers"},
    {S(PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT), nullptr, nullptr, write_depth_clamp, read_depth_clamp,
     hash_depth_clamp},
    {S(RENDERING_ATTACHMENT_LOCATION_INFO_KHR), nullptr, nullptr, write_attachment_location, read_attachment_location,
     hash_attachment_location},
    {S(RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR), nullptr, nullptr, write_input_index, read_input_index,
     hash_input_index},
};
#undef S

#define D(name) \
  { #name, &DynamicStateInfo::name }
constexpr std::pair<std::string_view, bool DynamicStateInfo::*> kDynamicStates[] = {
    D(tessellation_domain_origin),
    D(depth_clip_enable),
    D(rasterization_stream),
    D(conservative_rasterization_mode),
    D(extra_primitive_overestimation_size),
    D(provoking_vertex_mode),
    D(depth_clip_negative_one_to_one),
    D(discard_rectangle_mode),
    // graphics pipeline state blocks (foz/objects.cpp)
    D(primitive_restart_enable),
    D(cull_mode),
    D(depth_clamp_enable),
    D(front_face),
    D(rasterizer_discard_enable),
    D(polygon_mode),
    D(depth_bias_enable),
    D(alpha_to_coverage_enable),
    D(alpha_to_one_enable),
    D(rasterization_samples),
    D(patch_control_points),
    D(vertex_input_binding_stride),
    D(depth_bounds_test_enable),
    D(depth_compare_op),
    D(depth_test_enable),
    D(depth_write_enable),
    D(stencil_test_enable),
    D(stencil_op),
    D(scissor_count),
    D(viewport_count),
};
#undef D

}  // namespace

std::span<const PnextProfile> pnext_profiles() { return kProfiles; }

bool DynamicStateInfo::*dynamic_state_member(std::string_view name) {
  for (const auto& [n, m] : kDynamicStates)
    if (n == name) return m;
  return nullptr;
}

void hash_library_info(Hasher& h, const VkPipelineLibraryCreateInfoKHR& info, Tag library_tag) {
  h.u32(info.libraryCount);
  for (std::uint32_t i = 0; i < info.libraryCount; ++i) h.u64(handle_hash(library_tag, info.pLibraries[i]));
}

}  // namespace libtrace::foz::detail
