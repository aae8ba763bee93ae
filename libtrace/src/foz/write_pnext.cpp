// SPDX-License-Identifier: MIT
// pNext chains -> Fossilize JSON, struct by struct in Fossilize's member order.
#include "foz/json_out.hpp"
#include "foz/pdf2.hpp"

namespace libtrace::foz::detail {

namespace {

void write_extent(Out& o, const char* key, const VkExtent2D& e) {
  o.begin_object(key);
  o.u32("width", e.width);
  o.u32("height", e.height);
  o.end_object();
}

void write_sample_locations(Out& o, const VkSampleLocationsInfoEXT& s) {
  o.u32("sampleLocationsPerPixel", s.sampleLocationsPerPixel);
  write_extent(o, "sampleLocationGridSize", s.sampleLocationGridSize);
  if (s.sampleLocationsCount) {
    o.begin_array("sampleLocations");
    for (std::uint32_t i = 0; i < s.sampleLocationsCount; ++i) {
      o.begin_object();
      o.f32("x", s.pSampleLocations[i].x);
      o.f32("y", s.pSampleLocations[i].y);
      o.end_object();
    }
    o.end_array();
  }
}

template <typename T>
const T& as(const VkBaseInStructure* p) {
  return *reinterpret_cast<const T*>(p);
}

// Returns false for an sType Fossilize leaves out of JSON (an inline shader
// module or a module identifier in a stage, feedback and tooling structs).
bool write_struct(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn) {
  const int s = static_cast<int>(p->sType);
  if (ignored_stype(p->sType)) return false;
  if (s == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO || s == VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_MODULE_IDENTIFIER_CREATE_INFO_EXT)
    return false;
  if (s == VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR) {
    write_library_info(o, as<VkPipelineLibraryCreateInfoKHR>(p), true);
    return true;
  }
  o.begin_object();
  o.u32("sType", p->sType);
  switch (s) {
    case VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO:
      o.u32("domainOrigin", as<VkPipelineTessellationDomainOriginStateCreateInfo>(p).domainOrigin);
      break;
    case VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineVertexInputDivisorStateCreateInfoEXT>(p);
      o.u32("vertexBindingDivisorCount", t.vertexBindingDivisorCount);
      if (t.pVertexBindingDivisors) {
        o.begin_array("vertexBindingDivisors");
        for (std::uint32_t i = 0; i < t.vertexBindingDivisorCount; ++i) {
          o.begin_object();
          o.u32("binding", t.pVertexBindingDivisors[i].binding);
          o.u32("divisor", t.pVertexBindingDivisors[i].divisor);
          o.end_object();
        }
        o.end_array();
      }
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT:
      o.u32("flags", as<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(p).flags);
      o.u32("depthClipEnable", as<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(p).depthClipEnable);
      break;
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT:
      o.u32("flags", as<VkPipelineRasterizationStateStreamCreateInfoEXT>(p).flags);
      o.u32("rasterizationStream", as<VkPipelineRasterizationStateStreamCreateInfoEXT>(p).rasterizationStream);
      break;
    case VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO: {
      const auto& t = as<VkRenderPassMultiviewCreateInfo>(p);
      if (t.subpassCount) o.u32_array("viewMasks", t.pViewMasks, t.subpassCount);
      if (t.dependencyCount) {
        o.begin_array("viewOffsets");
        for (std::uint32_t i = 0; i < t.dependencyCount; ++i) o.raw().Int(t.pViewOffsets[i]);
        o.end_array();
      }
      if (t.correlationMaskCount) o.u32_array("correlationMasks", t.pCorrelationMasks, t.correlationMaskCount);
      break;
    }
    case VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO: {
      const auto& t = as<VkDescriptorSetLayoutBindingFlagsCreateInfo>(p);
      if (t.bindingCount) o.u32_array("bindingFlags", t.pBindingFlags, t.bindingCount);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_ADVANCED_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineColorBlendAdvancedStateCreateInfoEXT>(p);
      o.u32("srcPremultiplied", t.srcPremultiplied);
      o.u32("dstPremultiplied", t.dstPremultiplied);
      o.u32("blendOverlap", t.blendOverlap);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineRasterizationConservativeStateCreateInfoEXT>(p);
      o.u32("flags", t.flags);
      o.u32("conservativeRasterizationMode", t.conservativeRasterizationMode);
      o.f32("extraPrimitiveOverestimationSize", t.extraPrimitiveOverestimationSize);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineRasterizationLineStateCreateInfoEXT>(p);
      o.u32("lineRasterizationMode", t.lineRasterizationMode);
      o.u32("stippledLineEnable", t.stippledLineEnable);
      o.u32("lineStippleFactor", t.lineStippleFactor);
      o.u32("lineStipplePattern", t.lineStipplePattern);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO:
      o.u32("requiredSubgroupSize", as<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(p).requiredSubgroupSize);
      break;
    case VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT: {
      const auto& t = as<VkMutableDescriptorTypeCreateInfoEXT>(p);
      o.begin_array("mutableDescriptorTypeLists");
      for (std::uint32_t i = 0; i < t.mutableDescriptorTypeListCount; ++i)
        o.u32_array(nullptr, t.pMutableDescriptorTypeLists[i].pDescriptorTypes, t.pMutableDescriptorTypeLists[i].descriptorTypeCount);
      o.end_array();
      break;
    }
    case VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT:
      o.u32("stencilInitialLayout", as<VkAttachmentDescriptionStencilLayout>(p).stencilInitialLayout);
      o.u32("stencilFinalLayout", as<VkAttachmentDescriptionStencilLayout>(p).stencilFinalLayout);
      break;
    case VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT:
      o.u32("stencilLayout", as<VkAttachmentReferenceStencilLayout>(p).stencilLayout);
      break;
    case VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE: {
      const auto& t = as<VkSubpassDescriptionDepthStencilResolve>(p);
      o.u32("depthResolveMode", t.depthResolveMode);
      o.u32("stencilResolveMode", t.stencilResolveMode);
      if (t.pDepthStencilResolveAttachment) {
        o.key("depthStencilResolveAttachment");
        write_attachment_ref2(o, *t.pDepthStencilResolveAttachment);
      }
      break;
    }
    case VK_STRUCTURE_TYPE_FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR: {
      const auto& t = as<VkFragmentShadingRateAttachmentInfoKHR>(p);
      write_extent(o, "shadingRateAttachmentTexelSize", t.shadingRateAttachmentTexelSize);
      if (t.pFragmentShadingRateAttachment) {
        o.key("fragmentShadingRateAttachment");
        write_attachment_ref2(o, *t.pFragmentShadingRateAttachment);
      }
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO: {
      const auto& t = as<VkPipelineRenderingCreateInfo>(p);
      o.u32("depthAttachmentFormat", t.depthAttachmentFormat);
      o.u32("stencilAttachmentFormat", t.stencilAttachmentFormat);
      o.u32("viewMask", t.viewMask);
      if (t.colorAttachmentCount) o.u32_array("colorAttachmentFormats", t.pColorAttachmentFormats, t.colorAttachmentCount);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineColorWriteCreateInfoEXT>(p);
      if (!dyn) fail(o.where(), "VkPipelineColorWriteCreateInfoEXT outside graphics pipeline state");
      o.u32("attachmentCount", t.attachmentCount);
      if (t.pColorWriteEnables && !dyn->color_write_enable) o.u32_array("colorWriteEnables", t.pColorWriteEnables, t.attachmentCount);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineSampleLocationsStateCreateInfoEXT>(p);
      o.u32("sampleLocationsEnable", t.sampleLocationsEnable);
      const bool dynamic_enable = dyn && dyn->sample_locations_enable;
      if ((dynamic_enable || t.sampleLocationsEnable) && dyn && !dyn->sample_locations) {
        o.begin_object("sampleLocationsInfo");
        o.u32("sType", t.sampleLocationsInfo.sType);
        write_sample_locations(o, t.sampleLocationsInfo);
        o.end_object();
      }
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT:
      o.u32("provokingVertexMode", as<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(p).provokingVertexMode);
      break;
    case VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT: {
      const auto& t = as<VkSamplerCustomBorderColorCreateInfoEXT>(p);
      o.u32_array("customBorderColor", t.customBorderColor.uint32, 4);
      o.u32("format", t.format);
      break;
    }
    case VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO:
      o.u32("reductionMode", as<VkSamplerReductionModeCreateInfo>(p).reductionMode);
      break;
    case VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO: {
      const auto& t = as<VkRenderPassInputAttachmentAspectCreateInfo>(p);
      o.begin_array("aspectReferences");
      for (std::uint32_t i = 0; i < t.aspectReferenceCount; ++i) {
        o.begin_object();
        o.u32("subpass", t.pAspectReferences[i].subpass);
        o.u32("inputAttachmentIndex", t.pAspectReferences[i].inputAttachmentIndex);
        o.u32("aspectMask", t.pAspectReferences[i].aspectMask);
        o.end_object();
      }
      o.end_array();
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineDiscardRectangleStateCreateInfoEXT>(p);
      o.u32("flags", t.flags);
      o.u32("discardRectangleMode", t.discardRectangleMode);
      o.u32("discardRectangleCount", t.discardRectangleCount);
      if (dyn && !dyn->discard_rectangle) {
        if (!t.pDiscardRectangles && t.discardRectangleCount) fail(o.where(), "discard rectangles missing for a static discard rectangle count");
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
      break;
    }
    case VK_STRUCTURE_TYPE_MEMORY_BARRIER_2: {
      const auto& t = as<VkMemoryBarrier2>(p);
      o.u64("srcStageMask", t.srcStageMask);
      o.u64("srcAccessMask", t.srcAccessMask);
      o.u64("dstStageMask", t.dstStageMask);
      o.u64("dstAccessMask", t.dstAccessMask);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR: {
      const auto& t = as<VkPipelineFragmentShadingRateStateCreateInfoKHR>(p);
      if (dyn && !dyn->fragment_shading_rate) {
        write_extent(o, "fragmentSize", t.fragmentSize);
        o.u32_array("combinerOps", t.combinerOps, 2);
      }
      break;
    }
    case VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO: {
      const auto& t = as<VkSamplerYcbcrConversionCreateInfo>(p);
      o.u32("format", t.format);
      o.u32("ycbcrModel", t.ycbcrModel);
      o.u32("ycbcrRange", t.ycbcrRange);
      const VkComponentSwizzle c[] = {t.components.r, t.components.g, t.components.b, t.components.a};
      o.u32_array("components", c, 4);
      o.u32("xChromaOffset", t.xChromaOffset);
      o.u32("yChromaOffset", t.yChromaOffset);
      o.u32("chromaFilter", t.chromaFilter);
      o.u32("forceExplicitReconstruction", t.forceExplicitReconstruction);
      break;
    }
    case VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT:
      o.u32("flags", as<VkGraphicsPipelineLibraryCreateInfoEXT>(p).flags);
      break;
    case VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT:
      o.u32("negativeOneToOne", as<VkPipelineViewportDepthClipControlCreateInfoEXT>(p).negativeOneToOne);
      break;
    case VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR:
      o.u64("flags", as<VkPipelineCreateFlags2CreateInfoKHR>(p).flags);
      break;
    case VK_STRUCTURE_TYPE_RENDER_PASS_CREATION_CONTROL_EXT:
      o.u32("disallowMerging", as<VkRenderPassCreationControlEXT>(p).disallowMerging);
      break;
    case VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT: {
      const auto& t = as<VkSamplerBorderColorComponentMappingCreateInfoEXT>(p);
      o.u32("srgb", t.srgb);
      o.begin_object("components");
      o.u32("r", t.components.r);
      o.u32("g", t.components.g);
      o.u32("b", t.components.b);
      o.u32("a", t.components.a);
      o.end_object();
      break;
    }
    case VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT:
      o.u32("rasterizationSamples", as<VkMultisampledRenderToSingleSampledInfoEXT>(p).rasterizationSamples);
      o.u32("multisampledRenderToSingleSampledEnable",
            as<VkMultisampledRenderToSingleSampledInfoEXT>(p).multisampledRenderToSingleSampledEnable);
      break;
    case VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT:
      o.u32("depthBiasRepresentation", as<VkDepthBiasRepresentationInfoEXT>(p).depthBiasRepresentation);
      o.u32("depthBiasExact", as<VkDepthBiasRepresentationInfoEXT>(p).depthBiasExact);
      break;
    case VK_STRUCTURE_TYPE_RENDER_PASS_FRAGMENT_DENSITY_MAP_CREATE_INFO_EXT: {
      const auto& t = as<VkRenderPassFragmentDensityMapCreateInfoEXT>(p);
      o.begin_object("fragmentDensityMapAttachment");
      o.u32("attachment", t.fragmentDensityMapAttachment.attachment);
      o.u32("layout", t.fragmentDensityMapAttachment.layout);
      o.end_object();
      break;
    }
    case VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT:
      write_sample_locations(o, as<VkSampleLocationsInfoEXT>(p));
      break;
    case VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineRobustnessCreateInfoEXT>(p);
      o.u32("storageBuffers", t.storageBuffers);
      o.u32("vertexInputs", t.vertexInputs);
      o.u32("uniformBuffers", t.uniformBuffers);
      o.u32("images", t.images);
      break;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineViewportDepthClampControlCreateInfoEXT>(p);
      o.u32("depthClampMode", t.depthClampMode);
      if (t.pDepthClampRange) {
        o.begin_object("depthClampRange");
        o.f32("minDepthClamp", t.pDepthClampRange->minDepthClamp);
        o.f32("maxDepthClamp", t.pDepthClampRange->maxDepthClamp);
        o.end_object();
      }
      break;
    }
    case VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR: {
      const auto& t = as<VkRenderingAttachmentLocationInfoKHR>(p);
      o.u32("colorAttachmentCount", t.colorAttachmentCount);
      if (t.pColorAttachmentLocations) o.u32_array("colorAttachmentLocations", t.pColorAttachmentLocations, t.colorAttachmentCount);
      break;
    }
    case VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR: {
      const auto& t = as<VkRenderingInputAttachmentIndexInfoKHR>(p);
      o.u32("colorAttachmentCount", t.colorAttachmentCount);
      if (t.pColorAttachmentInputIndices) o.u32_array("colorAttachmentInputIndices", t.pColorAttachmentInputIndices, t.colorAttachmentCount);
      if (t.pDepthInputAttachmentIndex) o.u32("depthInputAttachmentIndex", *t.pDepthInputAttachmentIndex);
      if (t.pStencilInputAttachmentIndex) o.u32("stencilInputAttachmentIndex", *t.pStencilInputAttachmentIndex);
      break;
    }
    default:
      fail(o.where(), "cannot write a pNext struct with unknown sType " + std::to_string(s) + " (" + stype_name(p->sType) + ")");
  }
  o.end_object();
  return true;
}

}  // namespace

void write_pnext(Out& o, const void* p, const DynamicStateInfo* dyn) {
  if (!p) return;
  o.begin_array("pNext");
  for (auto* s = static_cast<const VkBaseInStructure*>(p); s; s = s->pNext) write_struct(o, s, dyn);
  o.end_array();
}

void write_pdf2_pnext(Out& o, const void* p) {
  if (!p) return;
  o.begin_array("pNext");
  for (auto* s = static_cast<const VkBaseInStructure*>(p); s; s = s->pNext) {
    const Pdf2Struct* d = find_pdf2(s->sType);
    if (!d) fail(o.where(), "cannot write a physical device features struct with unknown sType " + std::to_string(s->sType));
    o.begin_object();
    o.u32("sType", s->sType);
    for (const Pdf2Field& f : d->fields) o.u32(f.name, pdf2_field(s, f));
    o.end_object();
  }
  o.end_array();
}

}  // namespace libtrace::foz::detail
