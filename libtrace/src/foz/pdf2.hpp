// SPDX-License-Identifier: MIT
// The PhysicalDeviceFeatures2 structs Fossilize keeps in an application info
// (those known to change shader compilation). Each is sType, pNext and
// VkBool32 features, so one table drives reading, writing and hashing.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>

#include "foz/vk_compat.hpp"

namespace libtrace::foz::detail {

struct Pdf2Field {
  const char* name;
  std::size_t offset;
};

struct Pdf2Struct {
  VkStructureType s_type;
  std::size_t size;
  std::span<const Pdf2Field> fields;        // in the order Fossilize writes JSON
  std::span<const std::size_t> hash_order;  // indices into fields
};

#define TRAK_F(T, name) \
  Pdf2Field { #name, offsetof(T, name) }

inline constexpr Pdf2Field kRobustness2[] = {TRAK_F(VkPhysicalDeviceRobustness2FeaturesEXT, robustBufferAccess2),
                                             TRAK_F(VkPhysicalDeviceRobustness2FeaturesEXT, robustImageAccess2),
                                             TRAK_F(VkPhysicalDeviceRobustness2FeaturesEXT, nullDescriptor)};
inline constexpr Pdf2Field kImageRobustness[] = {TRAK_F(VkPhysicalDeviceImageRobustnessFeatures, robustImageAccess)};
inline constexpr Pdf2Field kFsrEnums[] = {
    TRAK_F(VkPhysicalDeviceFragmentShadingRateEnumsFeaturesNV, fragmentShadingRateEnums),
    TRAK_F(VkPhysicalDeviceFragmentShadingRateEnumsFeaturesNV, supersampleFragmentShadingRates),
    TRAK_F(VkPhysicalDeviceFragmentShadingRateEnumsFeaturesNV, noInvocationFragmentShadingRates)};
inline constexpr Pdf2Field kFsr[] = {
    TRAK_F(VkPhysicalDeviceFragmentShadingRateFeaturesKHR, pipelineFragmentShadingRate),
    TRAK_F(VkPhysicalDeviceFragmentShadingRateFeaturesKHR, primitiveFragmentShadingRate),
    TRAK_F(VkPhysicalDeviceFragmentShadingRateFeaturesKHR, attachmentFragmentShadingRate)};
inline constexpr Pdf2Field kMeshExt[] = {
    TRAK_F(VkPhysicalDeviceMeshShaderFeaturesEXT, taskShader),
    TRAK_F(VkPhysicalDeviceMeshShaderFeaturesEXT, meshShader),
    TRAK_F(VkPhysicalDeviceMeshShaderFeaturesEXT, multiviewMeshShader),
    TRAK_F(VkPhysicalDeviceMeshShaderFeaturesEXT, primitiveFragmentShadingRateMeshShader),
    TRAK_F(VkPhysicalDeviceMeshShaderFeaturesEXT, meshShaderQueries)};
inline constexpr Pdf2Field kMeshNv[] = {TRAK_F(VkPhysicalDeviceMeshShaderFeaturesNV, taskShader),
                                        TRAK_F(VkPhysicalDeviceMeshShaderFeaturesNV, meshShader)};
inline constexpr Pdf2Field kDescriptorBuffer[] = {
    TRAK_F(VkPhysicalDeviceDescriptorBufferFeaturesEXT, descriptorBuffer),
    TRAK_F(VkPhysicalDeviceDescriptorBufferFeaturesEXT, descriptorBufferCaptureReplay),
    TRAK_F(VkPhysicalDeviceDescriptorBufferFeaturesEXT, descriptorBufferImageLayoutIgnored),
    TRAK_F(VkPhysicalDeviceDescriptorBufferFeaturesEXT, descriptorBufferPushDescriptors)};
inline constexpr Pdf2Field kShaderObject[] = {TRAK_F(VkPhysicalDeviceShaderObjectFeaturesEXT, shaderObject)};
inline constexpr Pdf2Field kPrimitivesGenerated[] = {
    TRAK_F(VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT, primitivesGeneratedQuery),
    TRAK_F(VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT, primitivesGeneratedQueryWithRasterizerDiscard),
    TRAK_F(VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT, primitivesGeneratedQueryWithNonZeroStreams)};
inline constexpr Pdf2Field k2dViewOf3d[] = {TRAK_F(VkPhysicalDeviceImage2DViewOf3DFeaturesEXT, image2DViewOf3D),
                                            TRAK_F(VkPhysicalDeviceImage2DViewOf3DFeaturesEXT, sampler2DViewOf3D)};
#undef TRAK_F

inline constexpr std::size_t kInOrder[] = {0, 1, 2, 3, 4};
// Fossilize hashes these two in an order of their own.
inline constexpr std::size_t kFsrEnumsHash[] = {2, 0, 1};
inline constexpr std::size_t kPrimitivesGeneratedHash[] = {0, 2, 1};

template <typename T, std::size_t N>
constexpr Pdf2Struct pdf2(VkStructureType s, const Pdf2Field (&f)[N], std::span<const std::size_t> order = {}) {
  return {s, sizeof(T), f, order.empty() ? std::span<const std::size_t>(kInOrder, N) : order};
}

inline constexpr Pdf2Struct kPdf2Structs[] = {
    pdf2<VkPhysicalDeviceRobustness2FeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
                                                 kRobustness2),
    pdf2<VkPhysicalDeviceImageRobustnessFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES,
                                                  kImageRobustness),
    pdf2<VkPhysicalDeviceFragmentShadingRateEnumsFeaturesNV>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_ENUMS_FEATURES_NV, kFsrEnums, kFsrEnumsHash),
    pdf2<VkPhysicalDeviceFragmentShadingRateFeaturesKHR>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR, kFsr),
    pdf2<VkPhysicalDeviceMeshShaderFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT, kMeshExt),
    pdf2<VkPhysicalDeviceMeshShaderFeaturesNV>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_NV, kMeshNv),
    pdf2<VkPhysicalDeviceDescriptorBufferFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
                                                      kDescriptorBuffer),
    pdf2<VkPhysicalDeviceShaderObjectFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT,
                                                  kShaderObject),
    pdf2<VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT, kPrimitivesGenerated,
        kPrimitivesGeneratedHash),
    pdf2<VkPhysicalDeviceImage2DViewOf3DFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT,
                                                     k2dViewOf3d),
};

inline const Pdf2Struct* find_pdf2(VkStructureType s) {
  for (const Pdf2Struct& d : kPdf2Structs)
    if (d.s_type == s) return &d;
  return nullptr;
}

inline VkBool32& pdf2_field(void* st, const Pdf2Field& f) {
  return *reinterpret_cast<VkBool32*>(static_cast<char*>(st) + f.offset);
}
inline VkBool32 pdf2_field(const void* st, const Pdf2Field& f) {
  return *reinterpret_cast<const VkBool32*>(static_cast<const char*>(st) + f.offset);
}

}  // namespace libtrace::foz::detail
