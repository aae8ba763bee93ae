// SPDX-License-Identifier: MIT
// Fossilize's hash recipes (fossilize.cpp, namespace Hashing) for every
// object but graphics pipelines (foz/hash_graphics.cpp).
#include "foz/pnext.hpp"

namespace libtrace::foz::detail {

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

template <typename T>
Hash hash_object(const T& t, const char* type, const std::string& where) {
  Hasher h;
  hash_object(h, &t, type, HashContext{nullptr, 0, where});
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
  const HashContext c{nullptr, 0, where};
  hash_members(h, &s, "VkPipelineShaderStageCreateInfo", "+module pName flags stage pSpecializationInfo? pNext", c);
  hash_pnext_chain(h, p.pNext, nullptr, 0, where);
  return h.get();
}

Hash hash_raytracing(const VkRayTracingPipelineCreateInfoKHR& p, const std::string& where) {
  constexpr const char* type = "VkRayTracingPipelineCreateInfoKHR";
  const HashContext c{nullptr, 0, where};
  Hasher h;
  h.u32(hashed_flags(p));
  hash_members(h, &p, type, "maxPipelineRayRecursionDepth layout", c);
  hash_base(h, p);
  hash_members(h, &p, type, "stageCount pStages pLibraryInterface? pDynamicState? groupCount pGroups", c);
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
  hash_object(h, &s, "VkPipelineShaderStageCreateInfo", HashContext{nullptr, 0, where});
}

Hash hash_application_info(const VkApplicationInfo* app, const VkPhysicalDeviceFeatures2* features,
                           const std::string& where) {
  Hash app_hash = 0, feature_hash = 0;
  if (app) app_hash = hash_object(*app, "VkApplicationInfo", where);
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
    case Tag::sampler: return hash_object(*o.as<VkSamplerCreateInfo>(), "VkSamplerCreateInfo", where);
    case Tag::descriptor_set_layout:
      return hash_object(*o.as<VkDescriptorSetLayoutCreateInfo>(), "VkDescriptorSetLayoutCreateInfo", where);
    case Tag::pipeline_layout:
      return hash_object(*o.as<VkPipelineLayoutCreateInfo>(), "VkPipelineLayoutCreateInfo", where);
    case Tag::shader_module: return hash_module(*o.as<VkShaderModuleCreateInfo>());
    case Tag::render_pass:
      if (o.s_type() == VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2)
        return hash_object(*o.as<VkRenderPassCreateInfo2>(), "VkRenderPassCreateInfo2", where);
      return hash_object(*o.as<VkRenderPassCreateInfo>(), "VkRenderPassCreateInfo", where);
    case Tag::graphics_pipeline: return hash_graphics_pipeline(o, lookup, where);
    case Tag::compute_pipeline: return hash_compute(*o.as<VkComputePipelineCreateInfo>(), where);
    case Tag::raytracing_pipeline: return hash_raytracing(*o.as<VkRayTracingPipelineCreateInfoKHR>(), where);
    default: break;
  }
  fail(where, "cannot hash " + std::string(tag_name(o.tag)));
}

}  // namespace libtrace::foz
