/* SPDX-License-Identifier: MIT */
/*
 * VK_AMD_gpa_interface, written from its specification (extension 134,
 * revision 1): the Vulkan headers of Debian 12 (1.3.239) only reserve the
 * number. C and C++; include it after <vulkan/vulkan_core.h>. An application
 * written against the specification compiles against this header alone, and
 * runs on AMD's drivers or, anywhere else, under trak's VK_LAYER_TRAK_gpa.
 *
 * When the installed headers define the extension (VK_AMD_gpa_interface),
 * they win and this header adds nothing.
 */
#ifndef TRAK_VK_AMD_GPA_INTERFACE_H_
#define TRAK_VK_AMD_GPA_INTERFACE_H_ 1

#include <vulkan/vulkan_core.h>

#ifndef VK_AMD_gpa_interface
#define VK_AMD_gpa_interface 1

#ifdef __cplusplus
extern "C" {
#endif

VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkGpaSessionAMD)

#define VK_AMD_GPA_INTERFACE_SPEC_VERSION 1
#define VK_AMD_GPA_INTERFACE_EXTENSION_NAME "VK_AMD_gpa_interface"
#define VK_AMD_GPA_INTERFACE_EXTENSION_NUMBER 134

/* 1000000000 + (134 - 1) * 1000 + offset, as every extension's enumerants.
   Core enums cannot grow from outside the registry's headers: the values are
   constants of the enum types. */
#ifdef __cplusplus
#define TRAK_VK_GPA_ENUM(type, value) static_cast<type>(value)
#else
#define TRAK_VK_GPA_ENUM(type, value) ((type)(value))
#endif
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD TRAK_VK_GPA_ENUM(VkStructureType, 1000133000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD TRAK_VK_GPA_ENUM(VkStructureType, 1000133001)
#define VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD TRAK_VK_GPA_ENUM(VkStructureType, 1000133002)
#define VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD TRAK_VK_GPA_ENUM(VkStructureType, 1000133003)
#define VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD TRAK_VK_GPA_ENUM(VkStructureType, 1000133004)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD TRAK_VK_GPA_ENUM(VkStructureType, 1000133005)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES2_AMD VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD
#define VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD TRAK_VK_GPA_ENUM(VkStructureType, 1000133006)
#define VK_OBJECT_TYPE_GPA_SESSION_AMD TRAK_VK_GPA_ENUM(VkObjectType, 1000133000)

typedef enum VkGpaPerfBlockAMD {
  VK_GPA_PERF_BLOCK_CPF_AMD = 0,
  VK_GPA_PERF_BLOCK_IA_AMD = 1,
  VK_GPA_PERF_BLOCK_VGT_AMD = 2,
  VK_GPA_PERF_BLOCK_PA_AMD = 3,
  VK_GPA_PERF_BLOCK_SC_AMD = 4,
  VK_GPA_PERF_BLOCK_SPI_AMD = 5,
  VK_GPA_PERF_BLOCK_SQ_AMD = 6,
  VK_GPA_PERF_BLOCK_SX_AMD = 7,
  VK_GPA_PERF_BLOCK_TA_AMD = 8,
  VK_GPA_PERF_BLOCK_TD_AMD = 9,
  VK_GPA_PERF_BLOCK_TCP_AMD = 10,
  VK_GPA_PERF_BLOCK_TCC_AMD = 11,
  VK_GPA_PERF_BLOCK_TCA_AMD = 12,
  VK_GPA_PERF_BLOCK_DB_AMD = 13,
  VK_GPA_PERF_BLOCK_CB_AMD = 14,
  VK_GPA_PERF_BLOCK_GDS_AMD = 15,
  VK_GPA_PERF_BLOCK_SRBM_AMD = 16,
  VK_GPA_PERF_BLOCK_GRBM_AMD = 17,
  VK_GPA_PERF_BLOCK_GRBM_SE_AMD = 18,
  VK_GPA_PERF_BLOCK_RLC_AMD = 19,
  VK_GPA_PERF_BLOCK_DMA_AMD = 20,
  VK_GPA_PERF_BLOCK_MC_AMD = 21,
  VK_GPA_PERF_BLOCK_CPG_AMD = 22,
  VK_GPA_PERF_BLOCK_CPC_AMD = 23,
  VK_GPA_PERF_BLOCK_WD_AMD = 24,
  VK_GPA_PERF_BLOCK_TCS_AMD = 25,
  VK_GPA_PERF_BLOCK_ATC_AMD = 26,
  VK_GPA_PERF_BLOCK_ATC_L2_AMD = 27,
  VK_GPA_PERF_BLOCK_MC_VM_L2_AMD = 28,
  VK_GPA_PERF_BLOCK_EA_AMD = 29,
  VK_GPA_PERF_BLOCK_RPB_AMD = 30,
  VK_GPA_PERF_BLOCK_RMI_AMD = 31,
  VK_GPA_PERF_BLOCK_UMCCH_AMD = 32,
  VK_GPA_PERF_BLOCK_GE_AMD = 33,
  VK_GPA_PERF_BLOCK_GL1A_AMD = 34,
  VK_GPA_PERF_BLOCK_GL1C_AMD = 35,
  VK_GPA_PERF_BLOCK_GL1CG_AMD = 36,
  VK_GPA_PERF_BLOCK_GL2A_AMD = 37,
  VK_GPA_PERF_BLOCK_GL2C_AMD = 38,
  VK_GPA_PERF_BLOCK_CHA_AMD = 39,
  VK_GPA_PERF_BLOCK_CHC_AMD = 40,
  VK_GPA_PERF_BLOCK_CHCG_AMD = 41,
  VK_GPA_PERF_BLOCK_GUS_AMD = 42,
  VK_GPA_PERF_BLOCK_GCR_AMD = 43,
  VK_GPA_PERF_BLOCK_PH_AMD = 44,
  VK_GPA_PERF_BLOCK_UTCL1_AMD = 45,
  VK_GPA_PERF_BLOCK_GE_DIST_AMD = 46,
  VK_GPA_PERF_BLOCK_GE_SE_AMD = 47,
  VK_GPA_PERF_BLOCK_DF_MALL_AMD = 48,
  VK_GPA_PERF_BLOCK_SQ_WGP_AMD = 49,
  VK_GPA_PERF_BLOCK_PC_AMD = 50,
  VK_GPA_PERF_BLOCK_GL1XA_AMD = 51,
  VK_GPA_PERF_BLOCK_GL1XC_AMD = 52,
  VK_GPA_PERF_BLOCK_WGS_AMD = 53,
  VK_GPA_PERF_BLOCK_EACPWD_AMD = 54,
  VK_GPA_PERF_BLOCK_EASE_AMD = 55,
  VK_GPA_PERF_BLOCK_RLCUSER_AMD = 56,
  VK_GPA_PERF_BLOCK_GE1_AMD = VK_GPA_PERF_BLOCK_GE_AMD,
  VK_GPA_PERF_BLOCK_RLCLOCAL_AMD = VK_GPA_PERF_BLOCK_RLCUSER_AMD,
  VK_GPA_PERF_BLOCK_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaPerfBlockAMD;

typedef enum VkGpaSampleTypeAMD {
  VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD = 0,
  VK_GPA_SAMPLE_TYPE_TRACE_AMD = 1,
  VK_GPA_SAMPLE_TYPE_TIMING_AMD = 2,
  VK_GPA_SAMPLE_TYPE_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaSampleTypeAMD;

typedef enum VkGpaSqShaderStageFlagBitsAMD {
  VK_GPA_SQ_SHADER_STAGE_PS_BIT_AMD = 0x00000001,
  VK_GPA_SQ_SHADER_STAGE_VS_BIT_AMD = 0x00000002,
  VK_GPA_SQ_SHADER_STAGE_GS_BIT_AMD = 0x00000004,
  VK_GPA_SQ_SHADER_STAGE_ES_BIT_AMD = 0x00000008,
  VK_GPA_SQ_SHADER_STAGE_HS_BIT_AMD = 0x00000010,
  VK_GPA_SQ_SHADER_STAGE_LS_BIT_AMD = 0x00000020,
  VK_GPA_SQ_SHADER_STAGE_CS_BIT_AMD = 0x00000040,
  VK_GPA_SQ_SHADER_STAGE_FLAG_BITS_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaSqShaderStageFlagBitsAMD;
typedef VkFlags VkGpaSqShaderStageFlagsAMD;

typedef enum VkGpaDeviceClockModeAMD {
  VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD = 0,
  VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD = 1,
  VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD = 2,
  VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD = 3,
  VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD = 4,
  VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD = 5,
  VK_GPA_DEVICE_CLOCK_MODE_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaDeviceClockModeAMD;

typedef VkFlags VkGpaPerfBlockPropertiesFlagsAMD;
typedef VkFlags VkPhysicalDeviceGpaPropertiesFlagsAMD;

typedef struct VkGpaPerfBlockPropertiesAMD {
  VkGpaPerfBlockAMD blockType;
  VkGpaPerfBlockPropertiesFlagsAMD flags;
  uint32_t instanceCount;
  uint32_t maxEventID;
  uint32_t maxGlobalOnlyCounters;
  uint32_t maxGlobalSharedCounters;
  uint32_t maxStreamingCounters;
} VkGpaPerfBlockPropertiesAMD;

typedef struct VkPhysicalDeviceGpaFeaturesAMD {
  VkStructureType sType;
  void* pNext;
  VkBool32 perfCounters;
  VkBool32 streamingPerfCounters;
  VkBool32 sqThreadTracing;
  VkBool32 clockModes;
} VkPhysicalDeviceGpaFeaturesAMD;

typedef struct VkPhysicalDeviceGpaPropertiesAMD {
  VkStructureType sType;
  void* pNext;
  VkPhysicalDeviceGpaPropertiesFlagsAMD flags;
  VkDeviceSize maxSqttSeBufferSize;
  uint32_t shaderEngineCount;
  uint32_t perfBlockCount;
  VkGpaPerfBlockPropertiesAMD* pPerfBlocks;
} VkPhysicalDeviceGpaPropertiesAMD;

typedef struct VkPhysicalDeviceGpaProperties2AMD {
  VkStructureType sType;
  void* pNext;
  uint32_t revisionId;
} VkPhysicalDeviceGpaProperties2AMD;

typedef struct VkGpaPerfCounterAMD {
  VkGpaPerfBlockAMD blockType;
  uint32_t blockInstance;
  uint32_t eventID;
} VkGpaPerfCounterAMD;

typedef struct VkGpaSampleBeginInfoAMD {
  VkStructureType sType;
  const void* pNext;
  VkGpaSampleTypeAMD sampleType;
  VkBool32 sampleInternalOperations;
  VkBool32 cacheFlushOnCounterCollection;
  VkBool32 sqShaderMaskEnable;
  VkGpaSqShaderStageFlagsAMD sqShaderMask;
  uint32_t perfCounterCount;
  const VkGpaPerfCounterAMD* pPerfCounters;
  uint32_t streamingPerfTraceSampleInterval;
  VkDeviceSize perfCounterDeviceMemoryLimit;
  VkBool32 sqThreadTraceEnable;
  VkBool32 sqThreadTraceSuppressInstructionTokens;
  VkDeviceSize sqThreadTraceDeviceMemoryLimit;
  VkPipelineStageFlags timingPreSample;
  VkPipelineStageFlags timingPostSample;
} VkGpaSampleBeginInfoAMD;

typedef struct VkGpaSessionCreateInfoAMD {
  VkStructureType sType;
  const void* pNext;
  VkGpaSessionAMD secondaryCopySource;
} VkGpaSessionCreateInfoAMD;

typedef struct VkGpaDeviceClockModeInfoAMD {
  VkStructureType sType;
  const void* pNext;
  VkGpaDeviceClockModeAMD clockMode;
  float memoryClockRatioToPeak;
  float engineClockRatioToPeak;
} VkGpaDeviceClockModeInfoAMD;

typedef struct VkGpaDeviceGetClockInfoAMD {
  VkStructureType sType;
  void* pNext;
  float memoryClockRatioToPeak;
  float engineClockRatioToPeak;
  uint32_t memoryClockFrequency;
  uint32_t engineClockFrequency;
} VkGpaDeviceGetClockInfoAMD;

typedef VkResult(VKAPI_PTR* PFN_vkCreateGpaSessionAMD)(VkDevice device, const VkGpaSessionCreateInfoAMD* pCreateInfo,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkGpaSessionAMD* pGpaSession);
typedef void(VKAPI_PTR* PFN_vkDestroyGpaSessionAMD)(VkDevice device, VkGpaSessionAMD gpaSession,
                                                    const VkAllocationCallbacks* pAllocator);
typedef VkResult(VKAPI_PTR* PFN_vkSetGpaDeviceClockModeAMD)(VkDevice device, VkGpaDeviceClockModeInfoAMD* pInfo);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaDeviceClockInfoAMD)(VkDevice device, VkGpaDeviceGetClockInfoAMD* pInfo);
typedef VkResult(VKAPI_PTR* PFN_vkCmdBeginGpaSessionAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkCmdEndGpaSessionAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkCmdBeginGpaSampleAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                        const VkGpaSampleBeginInfoAMD* pGpaSampleBeginInfo,
                                                        uint32_t* pSampleID);
typedef void(VKAPI_PTR* PFN_vkCmdEndGpaSampleAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                  uint32_t sampleID);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaSessionStatusAMD)(VkDevice device, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaSessionResultsAMD)(VkDevice device, VkGpaSessionAMD gpaSession,
                                                           uint32_t sampleID, size_t* pSizeInBytes, void* pData);
typedef VkResult(VKAPI_PTR* PFN_vkResetGpaSessionAMD)(VkDevice device, VkGpaSessionAMD gpaSession);
typedef void(VKAPI_PTR* PFN_vkCmdCopyGpaSessionResultsAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);

#ifndef VK_NO_PROTOTYPES
/* Declared as the registry headers declare every extension's commands; the
   loader exports none of them: get them with vkGetDeviceProcAddr. */
VKAPI_ATTR VkResult VKAPI_CALL vkCreateGpaSessionAMD(VkDevice device, const VkGpaSessionCreateInfoAMD* pCreateInfo,
                                                     const VkAllocationCallbacks* pAllocator,
                                                     VkGpaSessionAMD* pGpaSession);
VKAPI_ATTR void VKAPI_CALL vkDestroyGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession,
                                                  const VkAllocationCallbacks* pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL vkSetGpaDeviceClockModeAMD(VkDevice device, VkGpaDeviceClockModeInfoAMD* pInfo);
VKAPI_ATTR VkResult VKAPI_CALL vkGetGpaDeviceClockInfoAMD(VkDevice device, VkGpaDeviceGetClockInfoAMD* pInfo);
VKAPI_ATTR VkResult VKAPI_CALL vkCmdBeginGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
VKAPI_ATTR VkResult VKAPI_CALL vkCmdEndGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
VKAPI_ATTR VkResult VKAPI_CALL vkCmdBeginGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                      const VkGpaSampleBeginInfoAMD* pGpaSampleBeginInfo,
                                                      uint32_t* pSampleID);
VKAPI_ATTR void VKAPI_CALL vkCmdEndGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                uint32_t sampleID);
VKAPI_ATTR VkResult VKAPI_CALL vkGetGpaSessionStatusAMD(VkDevice device, VkGpaSessionAMD gpaSession);
VKAPI_ATTR VkResult VKAPI_CALL vkGetGpaSessionResultsAMD(VkDevice device, VkGpaSessionAMD gpaSession, uint32_t sampleID,
                                                         size_t* pSizeInBytes, void* pData);
VKAPI_ATTR VkResult VKAPI_CALL vkResetGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession);
VKAPI_ATTR void VKAPI_CALL vkCmdCopyGpaSessionResultsAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
#endif

#ifdef __cplusplus
}
#endif

#endif /* VK_AMD_gpa_interface */
#endif /* TRAK_VK_AMD_GPA_INTERFACE_H_ */
