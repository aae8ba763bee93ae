// SPDX-License-Identifier: MIT
// The hashing Fossilize does its own way in base create-infos and their
// state blocks: the "+key" members of the profiles in objects.cpp.
#include <string_view>

#include "foz/custom_pnext.hpp"

namespace libtrace::foz::detail::custom {

namespace {

template <typename T>
const T& at(const void* p) {
  return *static_cast<const T*>(p);
}

}  // namespace

// Fossilize leaves the capture-replay flag out of a sampler's hash.
void hash_sampler(Hasher& h, const void* p, const char*, const HashContext&) {
  h.u32(at<VkSamplerCreateInfo>(p).flags &
        ~VkSamplerCreateFlags{VK_SAMPLER_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_EXT});
}

// Immutable samplers count only for sampler descriptors.
void hash_binding(Hasher& h, const void* p, const char*, const HashContext&) {
  const auto& b = at<VkDescriptorSetLayoutBinding>(p);
  if (b.pImmutableSamplers &&
      (b.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || b.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER))
    for (std::uint32_t j = 0; j < b.descriptorCount; ++j) h.u64(handle_hash(Tag::sampler, b.pImmutableSamplers[j]));
}

// A null set layout hashes as one 32-bit 0.
void hash_set_layouts(Hasher& h, const void* p, const char*, const HashContext&) {
  const auto& l = at<VkPipelineLayoutCreateInfo>(p);
  for (std::uint32_t i = 0; i < l.setLayoutCount; ++i) {
    if (const Hash s = handle_hash(Tag::descriptor_set_layout, l.pSetLayouts[i]))
      h.u64(s);
    else
      h.u32(0);
  }
}

// Render pass flags came to the recipe later, only when set, to keep old hashes.
void hash_render_pass_flags(Hasher& h, const void* p, const char*, const HashContext&) {
  if (const auto flags = at<VkRenderPassCreateInfo>(p).flags) h.u32(flags);
}

// Render pass 2 hashes its version.
void hash_render_pass2_version(Hasher& h, const void*, const char*, const HashContext&) { h.u32(2); }

void hash_stage_module(Hasher& h, const void* p, const char*, const HashContext& c) {
  const auto& s = at<VkPipelineShaderStageCreateInfo>(p);
  if (!s.pName) fail(c.where, "cannot hash a shader stage without an entry point name");
  const Hash m = stage_module_or_zero(s);
  if (!m) fail(c.where, "cannot hash a shader stage without a module (module identifiers are not supported)");
  h.u64(m);
}

// Specialization data: one unit per byte.
void hash_specialization_data(Hasher& h, const void* p, const char*, const HashContext&) {
  const auto& s = at<VkSpecializationInfo>(p);
  h.bytes(s.pData, s.dataSize);
}

// ---- graphics pipeline state: what Fossilize hashes only where it is static ----
namespace {

const DynamicStateInfo& dyn(const HashContext& c) {
  static const DynamicStateInfo kNone{};
  return c.dyn ? *c.dyn : kNone;
}

}  // namespace

void hash_multisample(Hasher& h, const void* p, const char*, const HashContext& c) {
  const auto& ms = at<VkPipelineMultisampleStateCreateInfo>(p);
  if (dyn(c).sample_mask || !ms.pSampleMask) return h.u32(0);
  for (std::uint32_t i = 0; i < (static_cast<std::uint32_t>(ms.rasterizationSamples) + 31) / 32; ++i)
    h.u32(ms.pSampleMask[i]);
}

void hash_rasterization(Hasher& h, const void* p, const char* key, const HashContext& c) {
  const auto& rs = at<VkPipelineRasterizationStateCreateInfo>(p);
  const DynamicStateInfo& d = dyn(c);
  if (std::string_view(key) == "lineWidth") {
    if (!d.line_width) h.f32(rs.lineWidth);
  } else if ((rs.depthBiasEnable || d.depth_bias_enable) && !d.depth_bias) {
    h.f32(rs.depthBiasClamp);
    h.f32(rs.depthBiasSlopeFactor);
    h.f32(rs.depthBiasConstantFactor);
  }
}

void hash_depth_stencil(Hasher& h, const void* p, const char* key, const HashContext& c) {
  const auto& ds = at<VkPipelineDepthStencilStateCreateInfo>(p);
  const DynamicStateInfo& d = dyn(c);
  if (std::string_view(key) == "bounds") {
    if (!d.depth_bounds && (ds.depthBoundsTestEnable || d.depth_bounds_test_enable)) {
      h.f32(ds.minDepthBounds);
      h.f32(ds.maxDepthBounds);
    }
    return;
  }
  if (!ds.stencilTestEnable && !d.stencil_test_enable) return;
  if (!d.stencil_compare) h.u32(ds.front.compareMask), h.u32(ds.back.compareMask);
  if (!d.stencil_reference) h.u32(ds.front.reference), h.u32(ds.back.reference);
  if (!d.stencil_write_mask) h.u32(ds.front.writeMask), h.u32(ds.back.writeMask);
}

void hash_viewport(Hasher& h, const void* p, const char* key, const HashContext& c) {
  const auto& vp = at<VkPipelineViewportStateCreateInfo>(p);
  const DynamicStateInfo& d = dyn(c);
  if (std::string_view(key) == "scissors") {
    if (d.scissor) return;
    if (!vp.pScissors && vp.scissorCount) fail(c.where, "cannot hash: static scissors are missing");
    for (std::uint32_t i = 0; i < vp.scissorCount; ++i) {
      h.s32(vp.pScissors[i].offset.x);
      h.s32(vp.pScissors[i].offset.y);
      h.u32(vp.pScissors[i].extent.width);
      h.u32(vp.pScissors[i].extent.height);
    }
    return;
  }
  if (d.viewport) return;
  if (!vp.pViewports && vp.viewportCount) fail(c.where, "cannot hash: static viewports are missing");
  for (std::uint32_t i = 0; i < vp.viewportCount; ++i) {
    const VkViewport& v = vp.pViewports[i];
    for (float f : {v.x, v.y, v.width, v.height, v.minDepth, v.maxDepth}) h.f32(f);
  }
}

}  // namespace libtrace::foz::detail::custom
