// SPDX-License-Identifier: MIT
// Pieces shared by the Fossilize object files: the hasher, the pipeline state
// analysis both hashing and serializing depend on, and the cross-file entry
// points of the reader, writer and hasher.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "foz/vk_compat.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/foz/object.hpp"

namespace libtrace::foz::detail {

inline constexpr int kFormatVersion = 6;
inline constexpr int kMinFormatVersion = 5;

// Fossilize::Hasher: FNV-1 style over 32-bit units.
class Hasher {
 public:
  void u32(std::uint32_t v) { h_ = (h_ * 0x100000001b3ull) ^ v; }
  void s32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f32(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    u32(u);
  }
  void u64(std::uint64_t v) {
    u32(static_cast<std::uint32_t>(v));
    u32(static_cast<std::uint32_t>(v >> 32));
  }
  void string(std::string_view s) {
    u32(0xff);
    for (char c : s) u32(static_cast<std::uint8_t>(c));
  }
  // One unit per byte (specialization data), as Hasher::data<uint8_t>.
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) u32(b[i]);
  }
  Hash get() const { return h_; }

 private:
  Hash h_ = 0xcbf29ce484222325ull;
};

// Strips flags that do not change the compiled pipeline (Fossilize's
// normalize_pipeline_creation_flags).
inline std::uint64_t normalize_pipeline_flags(std::uint64_t flags) {
  return flags &
         ~std::uint64_t{VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR |
                        VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR | VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT |
                        VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
                        VK_PIPELINE_CREATE_2_CAPTURE_DATA_BIT_KHR};
}

// The hash of the object a handle inside a struct stands for. Parsed structs
// hold hashes already; a capture layer's live structs hold real handles,
// which the resolver of a ResolverScope on this thread maps (compute_hash
// and serialize_payload open one when given a resolver).
const HandleResolver*& current_resolver();
template <typename Handle>
Hash handle_hash(Tag tag, Handle h) {
  if (h == VK_NULL_HANDLE) return 0;
  const HandleResolver* r = current_resolver();
  return r ? (*r)(tag, hash_from_handle(h)) : hash_from_handle(h);
}
class ResolverScope {
 public:
  explicit ResolverScope(const HandleResolver* r) : saved_(current_resolver()) { current_resolver() = r; }
  ~ResolverScope() { current_resolver() = saved_; }
  ResolverScope(const ResolverScope&) = delete;
  ResolverScope& operator=(const ResolverScope&) = delete;

 private:
  const HandleResolver* saved_;
};

inline Tag pipeline_tag(const VkGraphicsPipelineCreateInfo&) { return Tag::graphics_pipeline; }
inline Tag pipeline_tag(const VkComputePipelineCreateInfo&) { return Tag::compute_pipeline; }
inline Tag pipeline_tag(const VkRayTracingPipelineCreateInfoKHR&) { return Tag::raytracing_pipeline; }

Hash hash_module(const VkShaderModuleCreateInfo& m);
// The module a stage uses: its handle's, that of an inline
// VkShaderModuleCreateInfo (which hashes like the module it stands for), or 0
// (a module identifier).
Hash stage_module_or_zero(const VkPipelineShaderStageCreateInfo& s);

template <typename T>
const T* find_pnext(VkStructureType s_type, const void* p) {
  for (; p; p = static_cast<const VkBaseInStructure*>(p)->pNext)
    if (static_cast<const VkBaseInStructure*>(p)->sType == s_type) return static_cast<const T*>(p);
  return nullptr;
}

// Structs Fossilize skips in live pNext chains: outputs and tooling data that
// do not change the object.
inline bool ignored_stype(VkStructureType s) {
  switch (s) {
    case VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO:
    case VK_STRUCTURE_TYPE_SHADER_MODULE_VALIDATION_CACHE_CREATE_INFO_EXT:
    case VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT:
    case VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT:
    case VK_STRUCTURE_TYPE_RENDER_PASS_CREATION_FEEDBACK_CREATE_INFO_EXT:
    case VK_STRUCTURE_TYPE_RENDER_PASS_SUBPASS_FEEDBACK_CREATE_INFO_EXT: return true;
    default: return false;
  }
}

// Which pipeline state is dynamic (Fossilize's DynamicStateInfo).
struct DynamicStateInfo {
  bool stencil_compare, stencil_reference, stencil_write_mask, depth_bounds, depth_bias, line_width, blend_constants,
      scissor, viewport, scissor_count, viewport_count, cull_mode, front_face, depth_test_enable, depth_write_enable,
      depth_compare_op, depth_bounds_test_enable, stencil_test_enable, stencil_op, vertex_input,
      vertex_input_binding_stride, patch_control_points, rasterizer_discard_enable, primitive_restart_enable, logic_op,
      color_write_enable, depth_bias_enable, discard_rectangle, discard_rectangle_mode, fragment_shading_rate,
      sample_locations, line_stipple, tessellation_domain_origin, depth_clamp_enable, polygon_mode,
      rasterization_samples, sample_mask, alpha_to_coverage_enable, alpha_to_one_enable, logic_op_enable,
      color_blend_enable, color_blend_equation, color_write_mask, rasterization_stream, conservative_rasterization_mode,
      extra_primitive_overestimation_size, depth_clip_enable, sample_locations_enable, color_blend_advanced,
      provoking_vertex_mode, line_rasterization_mode, line_stipple_enable, depth_clip_negative_one_to_one,
      depth_clamp_range;
};
DynamicStateInfo dynamic_state_info(const VkPipelineDynamicStateCreateInfo* dyn);

// Whether a graphics pipeline's subpass writes color / depth-stencil.
struct SubpassMeta {
  bool uses_color = false;
  bool uses_depth_stencil = false;
};

// Which pipeline state blocks count (Fossilize's GlobalStateInfo).
struct GlobalStateInfo {
  bool input_assembly, tessellation_state, viewport_state, multisample_state, depth_stencil_state, color_blend_state,
      vertex_input, rasterization_state, render_pass_state, layout_state, module_state;
};
VkGraphicsPipelineLibraryFlagsEXT effective_library_flags(const VkGraphicsPipelineCreateInfo& ci);
GlobalStateInfo global_state_info(const VkGraphicsPipelineCreateInfo& ci, const DynamicStateInfo& dyn,
                                  const SubpassMeta& meta);

// Hashes a pNext chain of create-info extension structs; throws on an sType
// Fossilize cannot hash. `dyn` is null outside graphics pipeline state.
void hash_pnext_chain(Hasher& h, const void* p, const DynamicStateInfo* dyn, VkGraphicsPipelineLibraryFlagsEXT state,
                      const std::string& where);
// PhysicalDeviceFeatures2 chains (application info).
void hash_pdf2_chain(Hasher& h, const void* p);
Hash hash_application_info(const VkApplicationInfo* app, const VkPhysicalDeviceFeatures2* features,
                           const std::string& where);
Hash hash_link(const ApplicationLink& link);
Hash hash_graphics_pipeline(const Object& o, const Lookup& lookup, const std::string& where);
// Whether the pipeline's subpass (its render pass's, or its rendering info's)
// uses color and depth/stencil attachments.
SubpassMeta graphics_subpass_meta(const VkGraphicsPipelineCreateInfo& ci, const Lookup& lookup,
                                  const std::string& where);
// Libraries of graphics pipelines (in the pNext chain) are graphics pipelines,
// those of ray-tracing pipelines (pLibraryInfo) ray-tracing ones.
void hash_library_info(Hasher& h, const VkPipelineLibraryCreateInfoKHR& info, Tag library_tag);
// One shader stage as graphics and ray-tracing pipelines hash it.
void hash_stage(Hasher& h, const VkPipelineShaderStageCreateInfo& stage, const std::string& where);

// The JSON object key a tag's create infos live under ("samplers", ...;
// render passes: version 1); null for the tags that hold no create info.
const char* section_key(Tag tag);

// The stable, human-readable sType name used in error messages.
std::string stype_name(VkStructureType s);

[[noreturn]] inline void fail(const std::string& where, const std::string& why) {
  throw Error(Errc::bad_record, where, why);
}

}  // namespace libtrace::foz::detail
