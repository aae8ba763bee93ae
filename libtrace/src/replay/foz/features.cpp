// SPDX-License-Identifier: MIT
// The features and extensions a replay device gets.
#include "replay/foz/features.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "registry/registry.hpp"

namespace libtrace::foz::detail {

namespace {

constexpr std::size_t kBoolsAt = sizeof(VkBaseOutStructure);

#define F(STYPE, EXT) \
  { VK_STRUCTURE_TYPE_##STYPE, VK_##EXT##_EXTENSION_NAME }
// Archive-controlled: the structs Fossilize hashes into the application key
// because they change code generation.
constexpr std::pair<VkStructureType, const char*> kFromArchive[] = {
    F(PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT, EXT_ROBUSTNESS_2),
    F(PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_ENUMS_FEATURES_NV, NV_FRAGMENT_SHADING_RATE_ENUMS),
    F(PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR, KHR_FRAGMENT_SHADING_RATE),
    F(PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT, EXT_MESH_SHADER),
    F(PHYSICAL_DEVICE_MESH_SHADER_FEATURES_NV, NV_MESH_SHADER),
    F(PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT, EXT_DESCRIPTOR_BUFFER),
    F(PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT, EXT_PRIMITIVES_GENERATED_QUERY),
    F(PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT, EXT_IMAGE_2D_VIEW_OF_3D),
    F(PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT, EXT_PIPELINE_ROBUSTNESS),
};
// Everything supported is enabled.
constexpr std::pair<VkStructureType, const char*> kAllSupported[] = {
    F(PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT, EXT_EXTENDED_DYNAMIC_STATE),
    F(PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT, EXT_EXTENDED_DYNAMIC_STATE_2),
    F(PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT, EXT_EXTENDED_DYNAMIC_STATE_3),
    F(PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT, EXT_VERTEX_INPUT_DYNAMIC_STATE),
    F(PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT, EXT_GRAPHICS_PIPELINE_LIBRARY),
    F(PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT, EXT_TRANSFORM_FEEDBACK),
    F(PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT, EXT_LINE_RASTERIZATION),
    F(PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, EXT_DEPTH_CLIP_ENABLE),
    F(PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT, EXT_DEPTH_CLIP_CONTROL),
    F(PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT, EXT_PROVOKING_VERTEX),
    F(PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT, EXT_COLOR_WRITE_ENABLE),
    F(PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT, EXT_CUSTOM_BORDER_COLOR),
    F(PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT, EXT_BORDER_COLOR_SWIZZLE),
    F(PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT, EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART),
    F(PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT, EXT_VERTEX_ATTRIBUTE_DIVISOR),
    F(PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT, EXT_INDEX_TYPE_UINT8),
    F(PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT, EXT_FRAGMENT_SHADER_INTERLOCK),
    F(PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT, EXT_SHADER_ATOMIC_FLOAT),
    F(PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT, EXT_SHADER_ATOMIC_FLOAT_2),
    F(PHYSICAL_DEVICE_SHADER_IMAGE_ATOMIC_INT64_FEATURES_EXT, EXT_SHADER_IMAGE_ATOMIC_INT64),
    F(PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR, KHR_ACCELERATION_STRUCTURE),
    F(PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR, KHR_RAY_TRACING_PIPELINE),
    F(PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR, KHR_RAY_QUERY),
    F(PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT, EXT_MUTABLE_DESCRIPTOR_TYPE),
    F(PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT, EXT_NON_SEAMLESS_CUBE_MAP),
    F(PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT, EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT),
    F(PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT, EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS),
    F(PHYSICAL_DEVICE_SHADER_MODULE_IDENTIFIER_FEATURES_EXT, EXT_SHADER_MODULE_IDENTIFIER),
    F(PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT, EXT_MULTI_DRAW),
    F(PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR, KHR_SHADER_CLOCK),
    F(PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR, KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT),
    F(PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR, KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW),
    F(PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR, KHR_FRAGMENT_SHADER_BARYCENTRIC),
    F(PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT, EXT_CONDITIONAL_RENDERING),
    F(PHYSICAL_DEVICE_YCBCR_IMAGE_ARRAYS_FEATURES_EXT, EXT_YCBCR_IMAGE_ARRAYS),
    F(PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT, EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED),
    F(PHYSICAL_DEVICE_LEGACY_DITHERING_FEATURES_EXT, EXT_LEGACY_DITHERING),
    F(PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_EXT, EXT_DEPTH_CLAMP_ZERO_ONE),
    // --pipeline-stats
    F(PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR, KHR_PIPELINE_EXECUTABLE_PROPERTIES),
};
#undef F

// Each struct's size and flag names from the registry (generated from vk.xml).
std::vector<ExtFeatureStruct> make_table() {
  std::vector<ExtFeatureStruct> table;
  const auto add = [&](VkStructureType s, const char* extension, bool from_archive) {
    const registry::Struct* st = registry::find_struct(s);
    ExtFeatureStruct e{s, st->size, extension, from_archive, {}};
    for (const registry::Member& m : st->members())
      if (m.type == registry::Type::bool32) e.members.push_back(m.name());
    table.push_back(std::move(e));
  };
  for (const auto& [s, extension] : kFromArchive) add(s, extension, true);
  for (const auto& [s, extension] : kAllSupported) add(s, extension, false);
  return table;
}

// Which 1.x struct holds a promoted archive struct's flags on a 1.3 device.
bool is_image_robustness(VkStructureType s) { return s == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES; }

const vk::Features::Struct* find_struct(const vk::Features& f, VkStructureType s) {
  for (const auto& st : f.structs())
    if (st.stype == s) return &st;
  return nullptr;
}

// A feature struct as bytes: sType, null pNext, the flags.
std::vector<std::uint64_t> struct_bytes(VkStructureType s, const std::vector<VkBool32>& bools) {
  std::vector<std::uint64_t> buf((kBoolsAt + bools.size() * sizeof(VkBool32) + 7) / 8, 0);
  std::memcpy(buf.data(), &s, sizeof s);
  std::memcpy(reinterpret_cast<char*>(buf.data()) + kBoolsAt, bools.data(), bools.size() * sizeof(VkBool32));
  return buf;
}

void enable(vk::Features& f, VkStructureType s, const std::vector<VkBool32>& bools) {
  const auto buf = struct_bytes(s, bools);
  f.enable_struct(buf.data(), kBoolsAt + bools.size() * sizeof(VkBool32));
}

std::vector<VkBool32> read_bools(const void* vk_struct, std::size_t count) {
  std::vector<VkBool32> b(count);
  std::memcpy(b.data(), static_cast<const char*>(vk_struct) + kBoolsAt, count * sizeof(VkBool32));
  return b;
}

}  // namespace

const std::vector<ExtFeatureStruct>& ext_feature_structs() {
  static const std::vector<ExtFeatureStruct> table = make_table();
  return table;
}

const ExtFeatureStruct* find_ext_feature_struct(VkStructureType stype) {
  for (const auto& e : ext_feature_structs())
    if (e.stype == stype) return &e;
  return nullptr;
}

bool extension_denied(std::string_view name, const std::vector<VkExtensionProperties>& all) {
  static constexpr std::string_view kDenied[] = {
      VK_AMD_NEGATIVE_VIEWPORT_HEIGHT_EXTENSION_NAME,  // illegal next to maintenance1
      VK_NV_RAY_TRACING_EXTENSION_NAME,                // known to upset pipeline replay
      VK_AMD_SHADER_INFO_EXTENSION_NAME,               // Mesa turns its pipeline cache off with it
      VK_EXT_DEVICE_FAULT_EXTENSION_NAME,
      VK_NV_SHADING_RATE_IMAGE_EXTENSION_NAME,  // excludes the KHR shading rate an archive may want
      VK_EXT_FRAGMENT_DENSITY_MAP_EXTENSION_NAME,
  };
  for (auto d : kDenied)
    if (name == d) return true;
  if (name == VK_EXT_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME)  // not both EXT and KHR
    for (const auto& e : all)
      if (std::string_view(e.extensionName) == VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME) return true;
  // Window-system extensions need instance extensions a replay has no use for.
  for (std::string_view w : {"swapchain", "present", "display", "surface", "full_screen"})
    if (name.find(w) != std::string_view::npos) return true;
  return false;
}

Capabilities Capabilities::everything() {
  Capabilities c;
  c.all_ = true;
  c.api_ = VK_API_VERSION_1_3;
  return c;
}

Capabilities::Capabilities(std::uint32_t api, const std::vector<std::string>& extensions, const vk::Features& enabled)
    : api_(api), extensions_(extensions.begin(), extensions.end()) {
  for (auto& n : feature_names(enabled)) features_.insert(std::move(n));
}

bool Capabilities::has_extension(std::string_view name) const { return all_ || extensions_.count(std::string(name)); }
bool Capabilities::has_feature(std::string_view name) const { return all_ || features_.count(std::string(name)); }

std::vector<std::string> feature_names(const vk::Features& f) {
  std::vector<std::string> out;
  vk::Features core;
  for (const auto& s : f.structs()) {
    const ExtFeatureStruct* e = find_ext_feature_struct(s.stype);
    if (!e) {
      enable(core, s.stype, s.bools);
      continue;
    }
    for (std::size_t i = 0; i < s.bools.size(); ++i) {
      if (!s.bools[i]) continue;
      out.push_back(std::string(e->extension) + "." +
                    (i < e->members.size() ? std::string(e->members[i]) : "member" + std::to_string(i)));
    }
  }
  auto names = core.names();
  out.insert(out.begin(), names.begin(), names.end());
  return out;
}

std::vector<std::string> missing_features(const vk::Features& requested, const vk::Features& supported) {
  vk::Features lacking;
  for (const auto& s : requested.structs()) {
    const auto* have = find_struct(supported, s.stype);
    std::vector<VkBool32> bools(s.bools.size(), VK_FALSE);
    for (std::size_t i = 0; i < bools.size(); ++i)
      bools[i] = s.bools[i] && !(have && i < have->bools.size() && have->bools[i]);
    enable(lacking, s.stype, bools);
  }
  return feature_names(lacking);
}

vk::Features feature_query(std::uint32_t api_version, const std::vector<std::string>& extensions) {
  vk::Features like;
  const auto add = [&](VkStructureType s, std::size_t size) {
    enable(like, s, std::vector<VkBool32>((size - kBoolsAt) / sizeof(VkBool32), VK_FALSE));
  };
  add(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, sizeof(VkPhysicalDeviceFeatures2));
  if (api_version >= VK_API_VERSION_1_2) {
    add(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, sizeof(VkPhysicalDeviceVulkan11Features));
    add(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, sizeof(VkPhysicalDeviceVulkan12Features));
  }
  if (api_version >= VK_API_VERSION_1_3)
    add(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, sizeof(VkPhysicalDeviceVulkan13Features));
  else if (std::find(extensions.begin(), extensions.end(), VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME) != extensions.end())
    add(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES, sizeof(VkPhysicalDeviceImageRobustnessFeatures));
  for (const auto& e : ext_feature_structs())
    if (std::find(extensions.begin(), extensions.end(), e.extension) != extensions.end()) add(e.stype, e.size);
  return like;
}

vk::Features replay_features(const vk::Features& supported, const VkPhysicalDeviceFeatures2* archive,
                             std::uint32_t api_version, vk::Features& requested) {
  // The archive's flags, with image robustness moved to where this device
  // keeps it.
  requested = vk::Features();
  bool robust_image = false;
  if (archive) {
    VkPhysicalDeviceFeatures2 core = *archive;
    core.pNext = nullptr;
    core.features = {};
    core.features.robustBufferAccess = archive->features.robustBufferAccess;
    requested.enable_struct(core);
    for (auto* p = static_cast<const VkBaseInStructure*>(archive->pNext); p; p = p->pNext) {
      if (is_image_robustness(p->sType)) {
        robust_image = reinterpret_cast<const VkPhysicalDeviceImageRobustnessFeatures*>(p)->robustImageAccess;
      } else if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES) {
        robust_image = reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(p)->robustImageAccess;
      } else if (const ExtFeatureStruct* e = find_ext_feature_struct(p->sType); e && e->from_archive) {
        enable(requested, p->sType, read_bools(p, (e->size - kBoolsAt) / sizeof(VkBool32)));
      }
    }
    if (robust_image) {
      if (api_version >= VK_API_VERSION_1_3)
        requested.enable("vulkan13.robustImageAccess");
      else
        enable(requested, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES, {VK_TRUE});
    }
  }

  vk::Features out;
  for (const auto& s : supported.structs()) {
    std::vector<VkBool32> bools = s.bools;
    const ExtFeatureStruct* e = find_ext_feature_struct(s.stype);
    const bool from_archive = (e && e->from_archive) || is_image_robustness(s.stype);
    if (from_archive) {
      const auto* want = find_struct(requested, s.stype);
      for (std::size_t i = 0; i < bools.size(); ++i)
        bools[i] = bools[i] && want && i < want->bools.size() && want->bools[i];
    }
    if (s.stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
      bools[0] = bools[0] && archive && archive->features.robustBufferAccess;  // robustBufferAccess
    if (s.stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES) bools[0] = bools[0] && robust_image;
    enable(out, s.stype, bools);
  }
  return out;
}

}  // namespace libtrace::foz::detail
