// SPDX-License-Identifier: MIT
// What Fossilize records of each base create-info and of the structs in its
// arrays (fossilize.cpp's Hashing::compute_hash_*, json_value and parse_*),
// as profiles for the generic engine (foz/pnext.hpp): each struct's members
// once in JSON order and once in hash order. The "+key" hashing Fossilize
// does its own way is in custom_objects.cpp; what JSON does its own way is
// next to the object's reader and writer (read_objects.cpp, write_pipelines.cpp,
// ...).
#include "foz/custom_pnext.hpp"

namespace libtrace::foz::detail {

namespace {

using namespace custom;

#define ATTACHMENT_JSON "flags format finalLayout initialLayout loadOp storeOp samples stencilLoadOp stencilStoreOp"
#define ATTACHMENT_HASH "flags initialLayout finalLayout format loadOp storeOp stencilLoadOp stencilStoreOp samples"
#define DEPENDENCY_JSON "dependencyFlags dstAccessMask srcAccessMask dstStageMask srcStageMask dstSubpass srcSubpass"
#define DEPENDENCY_HASH "dependencyFlags dstAccessMask srcAccessMask srcSubpass dstSubpass srcStageMask dstStageMask"
#define SUBPASS_JSON \
  "pPreserveAttachments? pInputAttachments? pColorAttachments? pResolveAttachments? pDepthStencilAttachment"
#define SUBPASS_HASH                                                                           \
  "flags colorAttachmentCount inputAttachmentCount preserveAttachmentCount pipelineBindPoint " \
  "pPreserveAttachments pColorAttachments pInputAttachments pResolveAttachments? pDepthStencilAttachment?"

constexpr ObjectProfile kObjects[] = {
    {"VkApplicationInfo", "pApplicationName pEngineName applicationVersion engineVersion apiVersion",
     "applicationVersion apiVersion engineVersion pApplicationName pEngineName"},
    {"VkSamplerCreateInfo",
     "flags minFilter magFilter maxAnisotropy compareOp anisotropyEnable mipmapMode addressModeU addressModeV "
     "addressModeW borderColor unnormalizedCoordinates compareEnable mipLodBias minLod maxLod pNext",
     "+flags maxAnisotropy mipLodBias minLod maxLod minFilter magFilter mipmapMode compareEnable compareOp "
     "anisotropyEnable addressModeU addressModeV addressModeW borderColor unnormalizedCoordinates pNext",
     hash_sampler},
    {"VkDescriptorSetLayoutCreateInfo", "flags pBindings* pNext", "bindingCount flags pBindings pNext"},
    {"VkDescriptorSetLayoutBinding", "descriptorType descriptorCount stageFlags binding pImmutableSamplers?",
     "binding descriptorCount descriptorType stageFlags +immutableSamplers", hash_binding},
    {"VkPipelineLayoutCreateInfo", "flags pPushConstantRanges* pSetLayouts*",
     "setLayoutCount +setLayouts pushConstantRangeCount pPushConstantRanges flags", hash_set_layouts},
    {"VkPushConstantRange", "stageFlags size offset", "stageFlags size offset"},
    {"VkRenderPassCreateInfo", "flags pDependencies? pAttachments? pSubpasses* pNext",
     "+flags attachmentCount dependencyCount subpassCount pAttachments pDependencies pSubpasses pNext",
     hash_render_pass_flags},
    {"VkRenderPassCreateInfo2", "flags pCorrelatedViewMasks? pDependencies? pAttachments? pSubpasses* pNext",
     "flags attachmentCount dependencyCount subpassCount correlatedViewMaskCount +version pAttachments pDependencies "
     "pSubpasses pCorrelatedViewMasks pNext",
     hash_render_pass2_version},
    {"VkAttachmentDescription", ATTACHMENT_JSON, ATTACHMENT_HASH},
    {"VkAttachmentDescription2", ATTACHMENT_JSON " pNext", ATTACHMENT_HASH " pNext"},
    {"VkSubpassDependency", DEPENDENCY_JSON, DEPENDENCY_HASH},
    {"VkSubpassDependency2", DEPENDENCY_JSON " viewOffset pNext", DEPENDENCY_HASH " viewOffset pNext"},
    {"VkSubpassDescription", "flags pipelineBindPoint " SUBPASS_JSON, SUBPASS_HASH},
    {"VkSubpassDescription2", "flags pipelineBindPoint viewMask " SUBPASS_JSON " pNext",
     SUBPASS_HASH " viewMask pNext"},
    {"VkAttachmentReference", "attachment layout", "attachment layout"},
    {"VkAttachmentReference2", "attachment layout aspectMask pNext", "attachment layout aspectMask pNext"},
    {"VkPipelineShaderStageCreateInfo", "flags pName! +module stage +specializationInfo pNext",
     "flags pName stage +module pSpecializationInfo? pNext", hash_stage_module},
    {"VkSpecializationInfo", "dataSize +data pMapEntries*", "+data dataSize mapEntryCount pMapEntries",
     hash_specialization_data},
    {"VkSpecializationMapEntry", "offset size constantID", "offset size constantID"},
    {"VkPipelineDynamicStateCreateInfo", "flags pDynamicStates*=dynamicState",
     "dynamicStateCount flags pDynamicStates pNext"},
    {"VkPipelineTessellationStateCreateInfo", "flags patchControlPoints pNext",
     "flags patchControlPoints@patch_control_points pNext"},
    {"VkPipelineMultisampleStateCreateInfo",
     "flags rasterizationSamples sampleShadingEnable minSampleShading alphaToOneEnable alphaToCoverageEnable "
     "+sampleMask pNext",
     "flags alphaToCoverageEnable@alpha_to_coverage_enable alphaToOneEnable@alpha_to_one_enable minSampleShading "
     "rasterizationSamples@rasterization_samples sampleShadingEnable +sampleMask pNext",
     hash_multisample},
    {"VkPipelineVertexInputStateCreateInfo",
     "flags pVertexAttributeDescriptions*=attributes pVertexBindingDescriptions*=bindings pNext",
     "flags vertexAttributeDescriptionCount vertexBindingDescriptionCount pVertexAttributeDescriptions "
     "pVertexBindingDescriptions pNext"},
    {"VkVertexInputAttributeDescription", "location binding offset format", "offset binding format location"},
    {"VkVertexInputBindingDescription", "binding stride inputRate",
     "binding inputRate stride@vertex_input_binding_stride"},
    {"VkPipelineRasterizationStateCreateInfo",
     "flags depthBiasConstantFactor depthBiasSlopeFactor depthBiasClamp depthBiasEnable depthClampEnable polygonMode "
     "rasterizerDiscardEnable frontFace lineWidth cullMode pNext",
     "flags cullMode@cull_mode depthClampEnable@depth_clamp_enable frontFace@front_face "
     "rasterizerDiscardEnable@rasterizer_discard_enable polygonMode@polygon_mode depthBiasEnable@depth_bias_enable "
     "+depthBias +lineWidth pNext",
     hash_rasterization},
    {"VkPipelineInputAssemblyStateCreateInfo", "flags topology primitiveRestartEnable pNext",
     "flags primitiveRestartEnable@primitive_restart_enable topology pNext"},
    {"VkPipelineDepthStencilStateCreateInfo",
     "flags stencilTestEnable maxDepthBounds minDepthBounds depthBoundsTestEnable depthWriteEnable depthTestEnable "
     "depthCompareOp front back pNext",
     "flags depthBoundsTestEnable@depth_bounds_test_enable depthCompareOp@depth_compare_op "
     "depthTestEnable@depth_test_enable depthWriteEnable@depth_write_enable front back "
     "stencilTestEnable@stencil_test_enable +bounds +stencil pNext",
     hash_depth_stencil},
    {"VkStencilOpState", "compareOp writeMask reference compareMask passOp failOp depthFailOp",
     "compareOp@stencil_op depthFailOp@stencil_op failOp@stencil_op passOp@stencil_op"},
    {"VkPipelineViewportStateCreateInfo", "flags viewportCount scissorCount pViewports? +scissors pNext",
     "flags scissorCount@scissor_count viewportCount@viewport_count +scissors +viewports pNext", hash_viewport},
    {"VkPipelineColorBlendStateCreateInfo", "flags logicOp logicOpEnable +blendConstants +attachments pNext", nullptr},
    {"VkPipelineColorBlendAttachmentState",
     "dstAlphaBlendFactor srcAlphaBlendFactor dstColorBlendFactor srcColorBlendFactor colorWriteMask alphaBlendOp "
     "colorBlendOp blendEnable",
     nullptr},
    {"VkRayTracingPipelineInterfaceCreateInfoKHR", "maxPipelineRayPayloadSize maxPipelineRayHitAttributeSize pNext",
     "maxPipelineRayHitAttributeSize maxPipelineRayPayloadSize pNext"},
    {"VkRayTracingShaderGroupCreateInfoKHR",
     "anyHitShader intersectionShader generalShader closestHitShader type pNext",
     "type anyHitShader closestHitShader generalShader intersectionShader pNext"},
};

#undef ATTACHMENT_JSON
#undef ATTACHMENT_HASH
#undef DEPENDENCY_JSON
#undef DEPENDENCY_HASH
#undef SUBPASS_JSON
#undef SUBPASS_HASH

}  // namespace

std::span<const ObjectProfile> object_profiles() { return kObjects; }

}  // namespace libtrace::foz::detail
