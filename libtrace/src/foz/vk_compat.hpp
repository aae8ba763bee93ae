// SPDX-License-Identifier: MIT
// Vulkan structs Fossilize records that Debian 12's headers (1.3.239) predate.
// Layouts and values are from the Vulkan registry; each block disappears when
// the installed headers carry the extension.
#pragma once

#include <vulkan/vulkan_core.h>

#ifndef VK_KHR_maintenance5
typedef VkFlags64 VkPipelineCreateFlags2KHR;
typedef struct VkPipelineCreateFlags2CreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkPipelineCreateFlags2KHR flags;
} VkPipelineCreateFlags2CreateInfoKHR;
inline constexpr auto VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR =
    static_cast<VkStructureType>(1000470005);
inline constexpr VkPipelineCreateFlags2KHR VK_PIPELINE_CREATE_2_CAPTURE_DATA_BIT_KHR = 0x80000000ULL;
#endif

#ifndef VK_EXT_depth_bias_control
typedef enum VkDepthBiasRepresentationEXT {
  VK_DEPTH_BIAS_REPRESENTATION_MAX_ENUM_EXT = 0x7FFFFFFF
} VkDepthBiasRepresentationEXT;
typedef struct VkDepthBiasRepresentationInfoEXT {
  VkStructureType sType;
  const void* pNext;
  VkDepthBiasRepresentationEXT depthBiasRepresentation;
  VkBool32 depthBiasExact;
} VkDepthBiasRepresentationInfoEXT;
inline constexpr auto VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT = static_cast<VkStructureType>(1000283002);
#endif

#ifndef VK_EXT_depth_clamp_control
typedef enum VkDepthClampModeEXT {
  VK_DEPTH_CLAMP_MODE_VIEWPORT_RANGE_EXT = 0,
  VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT = 1,
  VK_DEPTH_CLAMP_MODE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkDepthClampModeEXT;
typedef struct VkDepthClampRangeEXT {
  float minDepthClamp;
  float maxDepthClamp;
} VkDepthClampRangeEXT;
typedef struct VkPipelineViewportDepthClampControlCreateInfoEXT {
  VkStructureType sType;
  const void* pNext;
  VkDepthClampModeEXT depthClampMode;
  const VkDepthClampRangeEXT* pDepthClampRange;
} VkPipelineViewportDepthClampControlCreateInfoEXT;
inline constexpr auto VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT =
    static_cast<VkStructureType>(1000582001);
inline constexpr auto VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT = static_cast<VkDynamicState>(1000582000);
#endif

#ifndef VK_KHR_dynamic_rendering_local_read
typedef struct VkRenderingAttachmentLocationInfoKHR {
  VkStructureType sType;
  const void* pNext;
  uint32_t colorAttachmentCount;
  const uint32_t* pColorAttachmentLocations;
} VkRenderingAttachmentLocationInfoKHR;
typedef struct VkRenderingInputAttachmentIndexInfoKHR {
  VkStructureType sType;
  const void* pNext;
  uint32_t colorAttachmentCount;
  const uint32_t* pColorAttachmentInputIndices;
  const uint32_t* pDepthInputAttachmentIndex;
  const uint32_t* pStencilInputAttachmentIndex;
} VkRenderingInputAttachmentIndexInfoKHR;
inline constexpr auto VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR =
    static_cast<VkStructureType>(1000232001);
inline constexpr auto VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR =
    static_cast<VkStructureType>(1000232002);
#endif

#ifndef VK_EXT_shader_object
typedef struct VkPhysicalDeviceShaderObjectFeaturesEXT {
  VkStructureType sType;
  void* pNext;
  VkBool32 shaderObject;
} VkPhysicalDeviceShaderObjectFeaturesEXT;
inline constexpr auto VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT =
    static_cast<VkStructureType>(1000482000);
#endif

#if VK_EXT_DISCARD_RECTANGLES_SPEC_VERSION < 2
inline constexpr auto VK_DYNAMIC_STATE_DISCARD_RECTANGLE_MODE_EXT = static_cast<VkDynamicState>(1000099001);
#endif
