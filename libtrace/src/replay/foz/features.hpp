// SPDX-License-Identifier: MIT
// Which device features and extensions a replay enables, and the names the
// requirement checks and reports use for them.
//
// Like Fossilize's replayer, a replay enables every feature the device has,
// except the ones that change how the driver compiles pipelines: those
// (robustness, mesh shading, shading rate, descriptor buffers, ...) are
// enabled exactly as the archive's application info recorded them, so that
// the cache the replay warms is the one the application will look up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "libtrace/vk/device.hpp"

namespace libtrace::foz::detail {

// An extension's feature struct: all VkBool32 after sType and pNext.
struct ExtFeatureStruct {
  VkStructureType stype;
  std::size_t size;                  // sizeof the struct
  const char* extension;             // the extension that defines it
  bool from_archive;                 // enabled as the archive says, not "all supported"
  std::vector<const char*> members;  // names, in order (may be shorter than the struct)
};
const std::vector<ExtFeatureStruct>& ext_feature_structs();
const ExtFeatureStruct* find_ext_feature_struct(VkStructureType stype);

// Device extensions a replay never enables: obsolete, conflicting, window
// system or debugging ones that can disable caches (as Fossilize filters).
bool extension_denied(std::string_view name, const std::vector<VkExtensionProperties>& all);

// What a device has enabled, by name: core features as vk::Features names
// them ("geometryShader", "vulkan12.shaderInt8"), extension features as
// "VK_EXT_mesh_shader.meshShader", and extensions.
class Capabilities {
 public:
  // A null device has everything.
  static Capabilities everything();
  Capabilities() = default;
  Capabilities(std::uint32_t api, const std::vector<std::string>& extensions, const vk::Features& enabled);

  bool all() const { return all_; }
  std::uint32_t api_version() const { return api_; }
  bool has_extension(std::string_view name) const;
  bool has_feature(std::string_view name) const;

 private:
  bool all_ = false;
  std::uint32_t api_ = 0;
  std::unordered_set<std::string> extensions_, features_;
};

// Whether pipelines may be asked for from the cache alone
// (VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT): Vulkan 1.3's
// pipelineCreationCacheControl is enabled. (Before 1.3 it is an extension's
// feature struct, which the device is not given.)
inline bool has_cache_control(const Capabilities& caps) {
  return caps.has_feature("vulkan13.pipelineCreationCacheControl");
}

// Names for the true flags of a feature set (core ones as vk::Features names
// them, extension ones as "VK_EXT_mesh_shader.meshShader").
std::vector<std::string> feature_names(const vk::Features& f);

// The feature set to enable: everything in `supported`, except that the
// archive-controlled flags (robustBufferAccess, robustImageAccess and the
// from_archive structs) are taken from the archive's
// VkPhysicalDeviceFeatures2 chain (null: all off). `requested` gets the
// archive's own flags (to report what the device lacks).
vk::Features replay_features(const vk::Features& supported, const VkPhysicalDeviceFeatures2* archive,
                             std::uint32_t api_version, vk::Features& requested);

// Names of the flags `requested` has and `supported` lacks.
std::vector<std::string> missing_features(const vk::Features& requested, const vk::Features& supported);

// The structs to query for: core ones and the extension structs of
// `extensions`.
vk::Features feature_query(std::uint32_t api_version, const std::vector<std::string>& extensions);

}  // namespace libtrace::foz::detail
