// SPDX-License-Identifier: MIT
// Fossilize's hashing of pNext chains (hash_pnext_chain / hash_pnext_struct in
// fossilize.cpp): the sType, then the members that matter given the dynamic
// state, in Fossilize's order.
#include "foz/model.hpp"
#include "foz/pdf2.hpp"

namespace libtrace::foz::detail {

namespace {

template <typename T>
const T& as(const VkBaseInStructure* p) {
  return *reinterpret_cast<const T*>(p);
}

template <typename T>
const T* need(const T* p, std::uint32_t count, const std::string& where, const char* what) {
  if (!p && count) fail(where, std::string("cannot hash: ") + what + " is missing for a count of " + std::to_string(count));
  return p;
}

void hash_ref2(Hasher& h, const VkAttachmentReference2& r) {
  h.u32(r.attachment);
  h.u32(r.layout);
  h.u32(r.aspectMask);
}

void hash_struct(Hasher& h, const VkBaseInStructure* p, const DynamicStateInfo* dyn, VkGraphicsPipelineLibraryFlagsEXT state,
                 const std::string& where) {
  const auto d = [dyn](bool DynamicStateInfo::*m) { return dyn && dyn->*m; };
  switch (static_cast<int>(p->sType)) {
    case VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO:
      h.u32(d(&DynamicStateInfo::tessellation_domain_origin) ? 0 : as<VkPipelineTessellationDomainOriginStateCreateInfo>(p).domainOrigin);
      return;
    case VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineVertexInputDivisorStateCreateInfoEXT>(p);
      h.u32(t.vertexBindingDivisorCount);
      need(t.pVertexBindingDivisors, t.vertexBindingDivisorCount, where, "vertexBindingDivisors");
      for (std::uint32_t i = 0; i < t.vertexBindingDivisorCount; ++i) {
        h.u32(t.pVertexBindingDivisors[i].binding);
        h.u32(t.pVertexBindingDivisors[i].divisor);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT:
      h.u32(as<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(p).flags);
      h.u32(d(&DynamicStateInfo::depth_clip_enable) ? 0 : as<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(p).depthClipEnable);
      return;
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT:
      h.u32(as<VkPipelineRasterizationStateStreamCreateInfoEXT>(p).flags);
      h.u32(d(&DynamicStateInfo::rasterization_stream) ? 0 : as<VkPipelineRasterizationStateStreamCreateInfoEXT>(p).rasterizationStream);
      return;
    case VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO: {
      const auto& t = as<VkRenderPassMultiviewCreateInfo>(p);
      h.u32(t.subpassCount);
      for (std::uint32_t i = 0; i < t.subpassCount; ++i) h.u32(t.pViewMasks[i]);
      h.u32(t.dependencyCount);
      for (std::uint32_t i = 0; i < t.dependencyCount; ++i) h.s32(t.pViewOffsets[i]);
      h.u32(t.correlationMaskCount);
      for (std::uint32_t i = 0; i < t.correlationMaskCount; ++i) h.u32(t.pCorrelationMasks[i]);
      return;
    }
    case VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO: {
      const auto& t = as<VkDescriptorSetLayoutBindingFlagsCreateInfo>(p);
      h.u32(t.bindingCount);
      for (std::uint32_t i = 0; i < t.bindingCount; ++i) h.u32(t.pBindingFlags[i]);
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_ADVANCED_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineColorBlendAdvancedStateCreateInfoEXT>(p);
      if (d(&DynamicStateInfo::color_blend_advanced)) {
        h.u32(0);
      } else {
        h.u32(t.srcPremultiplied);
        h.u32(t.dstPremultiplied);
        h.u32(t.blendOverlap);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineRasterizationConservativeStateCreateInfoEXT>(p);
      h.u32(t.flags);
      h.u32(d(&DynamicStateInfo::conservative_rasterization_mode) ? 0 : t.conservativeRasterizationMode);
      h.f32(d(&DynamicStateInfo::extra_primitive_overestimation_size) ? 0.0f : t.extraPrimitiveOverestimationSize);
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineRasterizationLineStateCreateInfoEXT>(p);
      const bool can_stipple = d(&DynamicStateInfo::line_stipple_enable) || t.stippledLineEnable;
      const bool stipple_values = can_stipple && !d(&DynamicStateInfo::line_stipple);
      h.u32(d(&DynamicStateInfo::line_rasterization_mode) ? 0 : t.lineRasterizationMode);
      h.u32(d(&DynamicStateInfo::line_stipple_enable) ? 0 : t.stippledLineEnable);
      h.u32(stipple_values ? t.lineStippleFactor : 0);
      h.u32(stipple_values ? t.lineStipplePattern : 0);
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO:
      h.u32(as<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(p).requiredSubgroupSize);
      return;
    case VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT: {
      const auto& t = as<VkMutableDescriptorTypeCreateInfoEXT>(p);
      h.u32(t.mutableDescriptorTypeListCount);
      for (std::uint32_t i = 0; i < t.mutableDescriptorTypeListCount; ++i) {
        const auto& l = t.pMutableDescriptorTypeLists[i];
        h.u32(l.descriptorTypeCount);
        for (std::uint32_t j = 0; j < l.descriptorTypeCount; ++j) h.s32(l.pDescriptorTypes[j]);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT:
      h.u32(as<VkAttachmentDescriptionStencilLayout>(p).stencilInitialLayout);
      h.u32(as<VkAttachmentDescriptionStencilLayout>(p).stencilFinalLayout);
      return;
    case VK_STRUCTURE_TYPE_FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR: {
      const auto& t = as<VkFragmentShadingRateAttachmentInfoKHR>(p);
      if (!t.pFragmentShadingRateAttachment) {
        h.u32(0);
        return;
      }
      hash_ref2(h, *t.pFragmentShadingRateAttachment);
      h.u32(t.shadingRateAttachmentTexelSize.width);
      h.u32(t.shadingRateAttachmentTexelSize.height);
      if (t.pFragmentShadingRateAttachment->pNext) fail(where, "cannot hash: a pNext chain on the fragment shading rate attachment");
      return;
    }
    case VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE: {
      const auto& t = as<VkSubpassDescriptionDepthStencilResolve>(p);
      if (!t.pDepthStencilResolveAttachment) {
        h.u32(0);
        return;
      }
      h.u32(t.depthResolveMode);
      h.u32(t.stencilResolveMode);
      hash_ref2(h, *t.pDepthStencilResolveAttachment);
      for (auto* q = static_cast<const VkBaseInStructure*>(t.pDepthStencilResolveAttachment->pNext); q; q = q->pNext)
        if (!ignored_stype(q->sType) && q->sType != VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT)
          fail(where, "cannot hash: the depth/stencil resolve attachment's pNext holds " + stype_name(q->sType));
      hash_pnext_chain(h, t.pDepthStencilResolveAttachment->pNext, nullptr, 0, where);
      return;
    }
    case VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT:
      h.u32(as<VkAttachmentReferenceStencilLayout>(p).stencilLayout);
      return;
    case VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO: {
      const auto& t = as<VkPipelineRenderingCreateInfo>(p);
      const bool formats = (state & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) != 0;
      const bool view_mask = (state & (VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT |
                                       VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                                       VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT)) != 0;
      if (formats) h.u32(t.colorAttachmentCount);
      if (view_mask) h.u32(t.viewMask);
      if (formats) {
        need(t.pColorAttachmentFormats, t.colorAttachmentCount, where, "colorAttachmentFormats");
        for (std::uint32_t i = 0; i < t.colorAttachmentCount; ++i) h.u32(t.pColorAttachmentFormats[i]);
        h.u32(t.depthAttachmentFormat);
        h.u32(t.stencilAttachmentFormat);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineColorWriteCreateInfoEXT>(p);
      h.u32(t.attachmentCount);
      // Fossilize hashes the enables only when it knows the state is static.
      if (dyn && !dyn->color_write_enable) {
        need(t.pColorWriteEnables, t.attachmentCount, where, "colorWriteEnables");
        for (std::uint32_t i = 0; i < t.attachmentCount; ++i) h.u32(t.pColorWriteEnables[i]);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineSampleLocationsStateCreateInfoEXT>(p);
      const bool dynamic_enable = d(&DynamicStateInfo::sample_locations_enable);
      h.u32(dynamic_enable ? 0 : t.sampleLocationsEnable);
      if ((dynamic_enable || t.sampleLocationsEnable) && !d(&DynamicStateInfo::sample_locations)) {
        const auto& s = t.sampleLocationsInfo;
        if (s.pNext) fail(where, "cannot hash: a pNext chain on sampleLocationsInfo");
        h.u32(s.sampleLocationGridSize.width);
        h.u32(s.sampleLocationGridSize.height);
        h.u32(s.sampleLocationsPerPixel);
        h.u32(s.sampleLocationsCount);
        need(s.pSampleLocations, s.sampleLocationsCount, where, "sampleLocations");
        for (std::uint32_t i = 0; i < s.sampleLocationsCount; ++i) {
          h.f32(s.pSampleLocations[i].x);
          h.f32(s.pSampleLocations[i].y);
        }
      } else {
        h.u32(0);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT:
      h.u32(d(&DynamicStateInfo::provoking_vertex_mode) ? 0 : as<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(p).provokingVertexMode);
      return;
    case VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT: {
      const auto& t = as<VkSamplerCustomBorderColorCreateInfoEXT>(p);
      for (std::uint32_t c : t.customBorderColor.uint32) h.u32(c);
      h.u32(t.format);
      return;
    }
    case VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO:
      h.u32(as<VkSamplerReductionModeCreateInfo>(p).reductionMode);
      return;
    case VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO: {
      const auto& t = as<VkRenderPassInputAttachmentAspectCreateInfo>(p);
      h.u32(t.aspectReferenceCount);
      for (std::uint32_t i = 0; i < t.aspectReferenceCount; ++i) {
        h.u32(t.pAspectReferences[i].subpass);
        h.u32(t.pAspectReferences[i].inputAttachmentIndex);
        h.u32(t.pAspectReferences[i].aspectMask);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineDiscardRectangleStateCreateInfoEXT>(p);
      h.u32(t.flags);
      h.u32(d(&DynamicStateInfo::discard_rectangle_mode) ? 0 : t.discardRectangleMode);
      h.u32(t.discardRectangleCount);
      if (dyn && !dyn->discard_rectangle) {
        need(t.pDiscardRectangles, t.discardRectangleCount, where, "discardRectangles");
        for (std::uint32_t i = 0; i < t.discardRectangleCount; ++i) {
          h.s32(t.pDiscardRectangles[i].offset.x);
          h.s32(t.pDiscardRectangles[i].offset.y);
          h.u32(t.pDiscardRectangles[i].extent.width);
          h.u32(t.pDiscardRectangles[i].extent.height);
        }
      }
      return;
    }
    case VK_STRUCTURE_TYPE_MEMORY_BARRIER_2: {
      const auto& t = as<VkMemoryBarrier2>(p);
      h.u64(t.srcStageMask);
      h.u64(t.srcAccessMask);
      h.u64(t.dstStageMask);
      h.u64(t.dstAccessMask);
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR: {
      const auto& t = as<VkPipelineFragmentShadingRateStateCreateInfoKHR>(p);
      if (dyn && !dyn->fragment_shading_rate) {
        h.u32(t.fragmentSize.width);
        h.u32(t.fragmentSize.height);
        h.u32(t.combinerOps[0]);
        h.u32(t.combinerOps[1]);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO: {
      const auto& t = as<VkSamplerYcbcrConversionCreateInfo>(p);
      for (std::uint32_t v : {std::uint32_t(t.format), std::uint32_t(t.ycbcrModel), std::uint32_t(t.ycbcrRange),
                              std::uint32_t(t.components.r), std::uint32_t(t.components.g), std::uint32_t(t.components.b),
                              std::uint32_t(t.components.a), std::uint32_t(t.xChromaOffset), std::uint32_t(t.yChromaOffset),
                              std::uint32_t(t.chromaFilter), std::uint32_t(t.forceExplicitReconstruction)})
        h.u32(v);
      return;
    }
    case VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT:
      h.u32(as<VkGraphicsPipelineLibraryCreateInfoEXT>(p).flags);
      return;
    case VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR:
      hash_library_info(h, as<VkPipelineLibraryCreateInfoKHR>(p));
      return;
    case VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT:
      h.u32(d(&DynamicStateInfo::depth_clip_negative_one_to_one) ? 0 : as<VkPipelineViewportDepthClipControlCreateInfoEXT>(p).negativeOneToOne);
      return;
    case VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR:
      h.u64(normalize_pipeline_flags(as<VkPipelineCreateFlags2CreateInfoKHR>(p).flags));
      return;
    case VK_STRUCTURE_TYPE_RENDER_PASS_CREATION_CONTROL_EXT:
      h.u32(as<VkRenderPassCreationControlEXT>(p).disallowMerging);
      return;
    case VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT: {
      const auto& t = as<VkSamplerBorderColorComponentMappingCreateInfoEXT>(p);
      h.u32(t.srgb);
      h.u32(t.components.r);
      h.u32(t.components.g);
      h.u32(t.components.b);
      h.u32(t.components.a);
      return;
    }
    case VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT:
      h.u32(as<VkMultisampledRenderToSingleSampledInfoEXT>(p).multisampledRenderToSingleSampledEnable);
      h.u32(as<VkMultisampledRenderToSingleSampledInfoEXT>(p).rasterizationSamples);
      return;
    case VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT:
      if (!dyn || !dyn->depth_bias) {
        h.u32(as<VkDepthBiasRepresentationInfoEXT>(p).depthBiasExact);
        h.u32(as<VkDepthBiasRepresentationInfoEXT>(p).depthBiasRepresentation);
      } else {
        h.u32(0);
      }
      return;
    case VK_STRUCTURE_TYPE_RENDER_PASS_FRAGMENT_DENSITY_MAP_CREATE_INFO_EXT:
      h.u32(as<VkRenderPassFragmentDensityMapCreateInfoEXT>(p).fragmentDensityMapAttachment.attachment);
      h.u32(as<VkRenderPassFragmentDensityMapCreateInfoEXT>(p).fragmentDensityMapAttachment.layout);
      return;
    case VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT: {
      const auto& t = as<VkSampleLocationsInfoEXT>(p);
      h.u32(t.sampleLocationsCount);
      h.u32(t.sampleLocationGridSize.width);
      h.u32(t.sampleLocationGridSize.height);
      h.u32(t.sampleLocationsPerPixel);
      for (std::uint32_t i = 0; i < t.sampleLocationsCount; ++i) {
        h.f32(t.pSampleLocations[i].x);
        h.f32(t.pSampleLocations[i].y);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineRobustnessCreateInfoEXT>(p);
      h.u32(t.images);
      h.u32(t.vertexInputs);
      h.u32(t.uniformBuffers);
      h.u32(t.storageBuffers);
      return;
    }
    case VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT: {
      const auto& t = as<VkPipelineViewportDepthClampControlCreateInfoEXT>(p);
      if (d(&DynamicStateInfo::depth_clamp_range)) return;
      h.u32(t.depthClampMode);
      if (t.depthClampMode == VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT && t.pDepthClampRange) {
        h.f32(t.pDepthClampRange->minDepthClamp);
        h.f32(t.pDepthClampRange->maxDepthClamp);
      } else {
        h.u32(0);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR: {
      const auto& t = as<VkRenderingAttachmentLocationInfoKHR>(p);
      h.u32(t.colorAttachmentCount);
      if (t.pColorAttachmentLocations) {
        for (std::uint32_t i = 0; i < t.colorAttachmentCount; ++i) h.u32(t.pColorAttachmentLocations[i]);
      } else {
        h.u32(0);
      }
      return;
    }
    case VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR: {
      const auto& t = as<VkRenderingInputAttachmentIndexInfoKHR>(p);
      h.u32(t.colorAttachmentCount);
      if (t.pColorAttachmentInputIndices) {
        for (std::uint32_t i = 0; i < t.colorAttachmentCount; ++i) h.u32(t.pColorAttachmentInputIndices[i]);
      } else {
        h.u32(0);
      }
      // Fossilize's stand-in for "no index".
      h.u32(t.pDepthInputAttachmentIndex ? *t.pDepthInputAttachmentIndex : 0xffff);
      h.u32(t.pStencilInputAttachmentIndex ? *t.pStencilInputAttachmentIndex : 0xffff);
      return;
    }
    default:
      fail(where, "cannot hash a pNext struct with unknown sType " + std::to_string(p->sType) + " (" + stype_name(p->sType) + ")");
  }
}

}  // namespace

void hash_library_info(Hasher& h, const VkPipelineLibraryCreateInfoKHR& info) {
  h.u32(info.libraryCount);
  for (std::uint32_t i = 0; i < info.libraryCount; ++i) h.u64(hash_from_handle(info.pLibraries[i]));
}

void hash_pnext_chain(Hasher& h, const void* p, const DynamicStateInfo* dyn, VkGraphicsPipelineLibraryFlagsEXT state,
                      const std::string& where) {
  for (auto* s = static_cast<const VkBaseInStructure*>(p); s; s = s->pNext) {
    if (ignored_stype(s->sType)) continue;
    // An inline module or a module identifier stands for the stage's module,
    // which is hashed by the stage itself.
    if (s->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO ||
        s->sType == VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_MODULE_IDENTIFIER_CREATE_INFO_EXT)
      continue;
    h.s32(s->sType);
    hash_struct(h, s, dyn, state, where);
  }
}

void hash_pdf2_chain(Hasher& h, const void* p) {
  for (auto* s = static_cast<const VkBaseInStructure*>(p); s; s = s->pNext) {
    const Pdf2Struct* d = find_pdf2(s->sType);
    // Fossilize keeps only these structs; any other is skipped, not hashed.
    if (!d) continue;
    h.s32(s->sType);
    for (std::size_t i : d->hash_order) h.u32(pdf2_field(s, d->fields[i]));
  }
}

}  // namespace libtrace::foz::detail
