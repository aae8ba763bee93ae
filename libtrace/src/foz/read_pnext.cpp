// SPDX-License-Identifier: MIT
// JSON -> pNext chains: "pNext": [{"sType": N, ...}, ...] in chain order. An
// sType Fossilize does not record is an error, never dropped.
#include <string>

#include "foz/json_in.hpp"
#include "foz/pdf2.hpp"

namespace libtrace::foz::detail {

namespace {

template <typename T>
T* make(const Node& n, VkStructureType s) {
  T* t = n.ctx().arena.make<T>();
  t->sType = s;
  return t;
}

void read_extent(const Node& n, VkExtent2D& e) {
  n.only({"width", "height"});
  e.width = n.u32("width");
  e.height = n.u32("height");
}

void read_sample_locations_info(const Node& n, VkSampleLocationsInfoEXT& info, bool with_stype) {
  if (with_stype) n.only({"sType", "sampleLocationsPerPixel", "sampleLocationGridSize", "sampleLocations"});
  info.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT;
  if (with_stype && n.u32("sType") != VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT) n.at("sType").fail("must be VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT");
  info.sampleLocationsPerPixel = n.enum_<VkSampleCountFlagBits>("sampleLocationsPerPixel");
  read_extent(n.at("sampleLocationGridSize"), info.sampleLocationGridSize);
  if (n.has("sampleLocations"))
    info.pSampleLocations = n.array<VkSampleLocationEXT>("sampleLocations", &info.sampleLocationsCount,
                                                         [](const Node& e, VkSampleLocationEXT& l) {
                                                           e.only({"x", "y"});
                                                           l.x = e.f32("x");
                                                           l.y = e.f32("y");
                                                         });
}

// One create-info extension struct; `library_tag` is for pipeline libraries.
const VkBaseInStructure* read_struct(const Node& n, VkStructureType s, Tag library_tag) {
  Arena& arena = n.ctx().arena;
  switch (static_cast<int>(s)) {
    case VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO: {
      n.only({"sType", "domainOrigin"});
      auto* t = make<VkPipelineTessellationDomainOriginStateCreateInfo>(n, s);
      t->domainOrigin = n.enum_<VkTessellationDomainOrigin>("domainOrigin");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "vertexBindingDivisorCount", "vertexBindingDivisors"});
      auto* t = make<VkPipelineVertexInputDivisorStateCreateInfoEXT>(n, s);
      t->vertexBindingDivisorCount = n.u32("vertexBindingDivisorCount");
      if (n.has("vertexBindingDivisors")) {
        std::uint32_t count = 0;
        t->pVertexBindingDivisors = n.array<VkVertexInputBindingDivisorDescriptionEXT>(
            "vertexBindingDivisors", &count, [](const Node& e, VkVertexInputBindingDivisorDescriptionEXT& d) {
              e.only({"binding", "divisor"});
              d.binding = e.u32("binding");
              d.divisor = e.u32("divisor");
            });
        if (count != t->vertexBindingDivisorCount) n.at("vertexBindingDivisors").fail("has " + std::to_string(count) + " elements, vertexBindingDivisorCount is " + std::to_string(t->vertexBindingDivisorCount));
      }
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "flags", "depthClipEnable"});
      auto* t = make<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(n, s);
      t->flags = n.u32("flags");
      t->depthClipEnable = n.u32("depthClipEnable");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT: {
      n.only({"sType", "flags", "rasterizationStream"});
      auto* t = make<VkPipelineRasterizationStateStreamCreateInfoEXT>(n, s);
      t->flags = n.u32("flags");
      t->rasterizationStream = n.u32("rasterizationStream");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO: {
      n.only({"sType", "viewMasks", "viewOffsets", "correlationMasks"});
      auto* t = make<VkRenderPassMultiviewCreateInfo>(n, s);
      if (n.has("viewMasks")) t->pViewMasks = n.u32_array("viewMasks", &t->subpassCount);
      if (n.has("viewOffsets"))
        t->pViewOffsets = n.array<std::int32_t>("viewOffsets", &t->dependencyCount, [](const Node& e, std::int32_t& v) { v = e.as_s32(); });
      if (n.has("correlationMasks")) t->pCorrelationMasks = n.u32_array("correlationMasks", &t->correlationMaskCount);
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO: {
      n.only({"sType", "bindingFlags"});
      auto* t = make<VkDescriptorSetLayoutBindingFlagsCreateInfo>(n, s);
      if (n.has("bindingFlags")) t->pBindingFlags = n.u32_array("bindingFlags", &t->bindingCount);
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_ADVANCED_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "srcPremultiplied", "dstPremultiplied", "blendOverlap"});
      auto* t = make<VkPipelineColorBlendAdvancedStateCreateInfoEXT>(n, s);
      t->srcPremultiplied = n.u32("srcPremultiplied");
      t->dstPremultiplied = n.u32("dstPremultiplied");
      t->blendOverlap = n.enum_<VkBlendOverlapEXT>("blendOverlap");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "flags", "conservativeRasterizationMode", "extraPrimitiveOverestimationSize"});
      auto* t = make<VkPipelineRasterizationConservativeStateCreateInfoEXT>(n, s);
      t->flags = n.u32("flags");
      t->conservativeRasterizationMode = n.enum_<VkConservativeRasterizationModeEXT>("conservativeRasterizationMode");
      t->extraPrimitiveOverestimationSize = n.f32("extraPrimitiveOverestimationSize");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "lineRasterizationMode", "stippledLineEnable", "lineStippleFactor", "lineStipplePattern"});
      auto* t = make<VkPipelineRasterizationLineStateCreateInfoEXT>(n, s);
      t->lineRasterizationMode = n.enum_<VkLineRasterizationModeEXT>("lineRasterizationMode");
      t->stippledLineEnable = n.u32("stippledLineEnable");
      t->lineStippleFactor = n.u32("lineStippleFactor");
      const std::uint32_t pattern = n.u32("lineStipplePattern");
      if (pattern > 0xffff) n.at("lineStipplePattern").fail("does not fit 16 bits");
      t->lineStipplePattern = static_cast<std::uint16_t>(pattern);
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO: {
      n.only({"sType", "requiredSubgroupSize"});
      auto* t = make<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(n, s);
      t->requiredSubgroupSize = n.u32("requiredSubgroupSize");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT: {
      n.only({"sType", "mutableDescriptorTypeLists"});
      auto* t = make<VkMutableDescriptorTypeCreateInfoEXT>(n, s);
      if (n.has("mutableDescriptorTypeLists"))
        t->pMutableDescriptorTypeLists = n.array<VkMutableDescriptorTypeListEXT>(
            "mutableDescriptorTypeLists", &t->mutableDescriptorTypeListCount, [](const Node& l, VkMutableDescriptorTypeListEXT& out) {
              const std::size_t count = l.array_size();
              auto* types = l.ctx().arena.make<VkDescriptorType>(count);
              for (std::size_t i = 0; i < count; ++i) types[i] = l[i].as_enum<VkDescriptorType>();
              out.descriptorTypeCount = static_cast<std::uint32_t>(count);
              out.pDescriptorTypes = types;
            });
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT: {
      n.only({"sType", "stencilInitialLayout", "stencilFinalLayout"});
      auto* t = make<VkAttachmentDescriptionStencilLayout>(n, s);
      t->stencilInitialLayout = n.enum_<VkImageLayout>("stencilInitialLayout");
      t->stencilFinalLayout = n.enum_<VkImageLayout>("stencilFinalLayout");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT: {
      n.only({"sType", "stencilLayout"});
      auto* t = make<VkAttachmentReferenceStencilLayout>(n, s);
      t->stencilLayout = n.enum_<VkImageLayout>("stencilLayout");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE: {
      n.only({"sType", "depthResolveMode", "stencilResolveMode", "depthStencilResolveAttachment"});
      auto* t = make<VkSubpassDescriptionDepthStencilResolve>(n, s);
      t->depthResolveMode = n.enum_<VkResolveModeFlagBits>("depthResolveMode");
      t->stencilResolveMode = n.enum_<VkResolveModeFlagBits>("stencilResolveMode");
      if (n.has("depthStencilResolveAttachment")) {
        auto* r = arena.make<VkAttachmentReference2>();
        read_attachment_ref2(n.at("depthStencilResolveAttachment"), *r);
        t->pDepthStencilResolveAttachment = r;
      }
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR: {
      n.only({"sType", "shadingRateAttachmentTexelSize", "fragmentShadingRateAttachment"});
      auto* t = make<VkFragmentShadingRateAttachmentInfoKHR>(n, s);
      read_extent(n.at("shadingRateAttachmentTexelSize"), t->shadingRateAttachmentTexelSize);
      if (n.has("fragmentShadingRateAttachment")) {
        auto* r = arena.make<VkAttachmentReference2>();
        read_attachment_ref2(n.at("fragmentShadingRateAttachment"), *r);
        t->pFragmentShadingRateAttachment = r;
      }
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO: {
      n.only({"sType", "depthAttachmentFormat", "stencilAttachmentFormat", "viewMask", "colorAttachmentFormats"});
      auto* t = make<VkPipelineRenderingCreateInfo>(n, s);
      t->depthAttachmentFormat = n.enum_<VkFormat>("depthAttachmentFormat");
      t->stencilAttachmentFormat = n.enum_<VkFormat>("stencilAttachmentFormat");
      t->viewMask = n.u32("viewMask");
      if (n.has("colorAttachmentFormats"))
        t->pColorAttachmentFormats = n.array<VkFormat>("colorAttachmentFormats", &t->colorAttachmentCount,
                                                       [](const Node& e, VkFormat& f) { f = e.as_enum<VkFormat>(); });
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT: {
      n.only({"sType", "attachmentCount", "colorWriteEnables"});
      auto* t = make<VkPipelineColorWriteCreateInfoEXT>(n, s);
      t->attachmentCount = n.u32("attachmentCount");
      if (n.has("colorWriteEnables")) t->pColorWriteEnables = n.u32_array_sized("colorWriteEnables", t->attachmentCount);
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "sampleLocationsEnable", "sampleLocationsInfo"});
      auto* t = make<VkPipelineSampleLocationsStateCreateInfoEXT>(n, s);
      t->sampleLocationsEnable = n.u32("sampleLocationsEnable");
      t->sampleLocationsInfo.sType = VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT;
      if (n.has("sampleLocationsInfo")) read_sample_locations_info(n.at("sampleLocationsInfo"), t->sampleLocationsInfo, true);
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "provokingVertexMode"});
      auto* t = make<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(n, s);
      t->provokingVertexMode = n.enum_<VkProvokingVertexModeEXT>("provokingVertexMode");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT: {
      n.only({"sType", "customBorderColor", "format"});
      auto* t = make<VkSamplerCustomBorderColorCreateInfoEXT>(n, s);
      const Node c = n.at("customBorderColor");
      if (c.array_size() != 4) c.fail("must have 4 elements");
      for (std::size_t i = 0; i < 4; ++i) t->customBorderColor.uint32[i] = c[i].as_u32();
      t->format = n.enum_<VkFormat>("format");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO: {
      n.only({"sType", "reductionMode"});
      auto* t = make<VkSamplerReductionModeCreateInfo>(n, s);
      t->reductionMode = n.enum_<VkSamplerReductionMode>("reductionMode");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO: {
      n.only({"sType", "aspectReferences"});
      auto* t = make<VkRenderPassInputAttachmentAspectCreateInfo>(n, s);
      t->pAspectReferences = n.array<VkInputAttachmentAspectReference>(
          "aspectReferences", &t->aspectReferenceCount, [](const Node& e, VkInputAttachmentAspectReference& a) {
            e.only({"subpass", "inputAttachmentIndex", "aspectMask"});
            a.subpass = e.u32("subpass");
            a.inputAttachmentIndex = e.u32("inputAttachmentIndex");
            a.aspectMask = e.u32("aspectMask");
          });
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT: {
      n.only({"sType", "flags", "discardRectangleMode", "discardRectangleCount", "discardRectangles"});
      auto* t = make<VkPipelineDiscardRectangleStateCreateInfoEXT>(n, s);
      t->flags = n.u32("flags");
      t->discardRectangleMode = n.enum_<VkDiscardRectangleModeEXT>("discardRectangleMode");
      t->discardRectangleCount = n.u32("discardRectangleCount");
      if (n.has("discardRectangles")) {
        std::uint32_t count = 0;
        t->pDiscardRectangles = n.array<VkRect2D>("discardRectangles", &count, [](const Node& e, VkRect2D& r) {
          e.only({"x", "y", "width", "height"});
          r.offset.x = e.s32("x");
          r.offset.y = e.s32("y");
          r.extent.width = e.u32("width");
          r.extent.height = e.u32("height");
        });
        if (count != t->discardRectangleCount) n.at("discardRectangles").fail("has " + std::to_string(count) + " elements, discardRectangleCount is " + std::to_string(t->discardRectangleCount));
      }
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_MEMORY_BARRIER_2: {
      n.only({"sType", "srcStageMask", "srcAccessMask", "dstStageMask", "dstAccessMask"});
      auto* t = make<VkMemoryBarrier2>(n, s);
      t->srcStageMask = n.u64("srcStageMask");
      t->srcAccessMask = n.u64("srcAccessMask");
      t->dstStageMask = n.u64("dstStageMask");
      t->dstAccessMask = n.u64("dstAccessMask");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR: {
      n.only({"sType", "fragmentSize", "combinerOps"});
      auto* t = make<VkPipelineFragmentShadingRateStateCreateInfoKHR>(n, s);
      if (n.has("fragmentSize")) read_extent(n.at("fragmentSize"), t->fragmentSize);
      if (n.has("combinerOps")) {
        const Node c = n.at("combinerOps");
        if (c.array_size() != 2) c.fail("must have 2 elements");
        for (std::size_t i = 0; i < 2; ++i) t->combinerOps[i] = c[i].as_enum<VkFragmentShadingRateCombinerOpKHR>();
      }
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO: {
      n.only({"sType", "format", "ycbcrModel", "ycbcrRange", "components", "xChromaOffset", "yChromaOffset", "chromaFilter",
              "forceExplicitReconstruction"});
      auto* t = make<VkSamplerYcbcrConversionCreateInfo>(n, s);
      t->format = n.enum_<VkFormat>("format");
      t->ycbcrModel = n.enum_<VkSamplerYcbcrModelConversion>("ycbcrModel");
      t->ycbcrRange = n.enum_<VkSamplerYcbcrRange>("ycbcrRange");
      const Node c = n.at("components");
      if (c.array_size() != 4) c.fail("must have 4 elements");
      t->components = {c[0].as_enum<VkComponentSwizzle>(), c[1].as_enum<VkComponentSwizzle>(),
                       c[2].as_enum<VkComponentSwizzle>(), c[3].as_enum<VkComponentSwizzle>()};
      t->xChromaOffset = n.enum_<VkChromaLocation>("xChromaOffset");
      t->yChromaOffset = n.enum_<VkChromaLocation>("yChromaOffset");
      t->chromaFilter = n.enum_<VkFilter>("chromaFilter");
      t->forceExplicitReconstruction = n.u32("forceExplicitReconstruction");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT: {
      n.only({"sType", "flags"});
      auto* t = make<VkGraphicsPipelineLibraryCreateInfoEXT>(n, s);
      t->flags = n.u32("flags");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR:
      return reinterpret_cast<const VkBaseInStructure*>(read_library_info(n, library_tag, true));
    case VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT: {
      n.only({"sType", "negativeOneToOne"});
      auto* t = make<VkPipelineViewportDepthClipControlCreateInfoEXT>(n, s);
      t->negativeOneToOne = n.u32("negativeOneToOne");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR: {
      n.only({"sType", "flags"});
      auto* t = make<VkPipelineCreateFlags2CreateInfoKHR>(n, s);
      t->flags = n.u64("flags");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_RENDER_PASS_CREATION_CONTROL_EXT: {
      n.only({"sType", "disallowMerging"});
      auto* t = make<VkRenderPassCreationControlEXT>(n, s);
      t->disallowMerging = n.u32("disallowMerging");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT: {
      n.only({"sType", "srgb", "components"});
      auto* t = make<VkSamplerBorderColorComponentMappingCreateInfoEXT>(n, s);
      t->srgb = n.u32("srgb");
      const Node c = n.at("components");
      c.only({"r", "g", "b", "a"});
      t->components = {c.enum_<VkComponentSwizzle>("r"), c.enum_<VkComponentSwizzle>("g"),
                       c.enum_<VkComponentSwizzle>("b"), c.enum_<VkComponentSwizzle>("a")};
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT: {
      n.only({"sType", "rasterizationSamples", "multisampledRenderToSingleSampledEnable"});
      auto* t = make<VkMultisampledRenderToSingleSampledInfoEXT>(n, s);
      t->rasterizationSamples = n.enum_<VkSampleCountFlagBits>("rasterizationSamples");
      t->multisampledRenderToSingleSampledEnable = n.u32("multisampledRenderToSingleSampledEnable");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT: {
      n.only({"sType", "depthBiasRepresentation", "depthBiasExact"});
      auto* t = make<VkDepthBiasRepresentationInfoEXT>(n, s);
      t->depthBiasRepresentation = n.enum_<VkDepthBiasRepresentationEXT>("depthBiasRepresentation");
      t->depthBiasExact = n.u32("depthBiasExact");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_RENDER_PASS_FRAGMENT_DENSITY_MAP_CREATE_INFO_EXT: {
      n.only({"sType", "fragmentDensityMapAttachment"});
      auto* t = make<VkRenderPassFragmentDensityMapCreateInfoEXT>(n, s);
      const Node a = n.at("fragmentDensityMapAttachment");
      a.only({"attachment", "layout"});
      t->fragmentDensityMapAttachment.attachment = a.u32("attachment");
      t->fragmentDensityMapAttachment.layout = a.enum_<VkImageLayout>("layout");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT: {
      n.only({"sType", "sampleLocationsPerPixel", "sampleLocationGridSize", "sampleLocations"});
      auto* t = make<VkSampleLocationsInfoEXT>(n, s);
      read_sample_locations_info(n, *t, false);
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT: {
      n.only({"sType", "storageBuffers", "vertexInputs", "uniformBuffers", "images"});
      auto* t = make<VkPipelineRobustnessCreateInfoEXT>(n, s);
      t->storageBuffers = n.enum_<VkPipelineRobustnessBufferBehaviorEXT>("storageBuffers");
      t->vertexInputs = n.enum_<VkPipelineRobustnessBufferBehaviorEXT>("vertexInputs");
      t->uniformBuffers = n.enum_<VkPipelineRobustnessBufferBehaviorEXT>("uniformBuffers");
      t->images = n.enum_<VkPipelineRobustnessImageBehaviorEXT>("images");
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT: {
      n.only({"sType", "depthClampMode", "depthClampRange"});
      auto* t = make<VkPipelineViewportDepthClampControlCreateInfoEXT>(n, s);
      t->depthClampMode = n.enum_<VkDepthClampModeEXT>("depthClampMode");
      if (n.has("depthClampRange")) {
        const Node r = n.at("depthClampRange");
        r.only({"minDepthClamp", "maxDepthClamp"});
        auto* range = arena.make<VkDepthClampRangeEXT>();
        range->minDepthClamp = r.f32("minDepthClamp");
        range->maxDepthClamp = r.f32("maxDepthClamp");
        t->pDepthClampRange = range;
      }
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR: {
      n.only({"sType", "colorAttachmentCount", "colorAttachmentLocations"});
      auto* t = make<VkRenderingAttachmentLocationInfoKHR>(n, s);
      t->colorAttachmentCount = n.u32("colorAttachmentCount");
      if (n.has("colorAttachmentLocations")) t->pColorAttachmentLocations = n.u32_array_sized("colorAttachmentLocations", t->colorAttachmentCount);
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    case VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR: {
      n.only({"sType", "colorAttachmentCount", "colorAttachmentInputIndices", "depthInputAttachmentIndex", "stencilInputAttachmentIndex"});
      auto* t = make<VkRenderingInputAttachmentIndexInfoKHR>(n, s);
      t->colorAttachmentCount = n.u32("colorAttachmentCount");
      if (n.has("colorAttachmentInputIndices")) t->pColorAttachmentInputIndices = n.u32_array_sized("colorAttachmentInputIndices", t->colorAttachmentCount);
      for (auto [key, field] : {std::pair{"depthInputAttachmentIndex", &t->pDepthInputAttachmentIndex},
                                std::pair{"stencilInputAttachmentIndex", &t->pStencilInputAttachmentIndex}}) {
        if (!n.has(key)) continue;
        auto* v = arena.make<std::uint32_t>();
        *v = n.u32(key);
        *field = v;
      }
      return reinterpret_cast<VkBaseInStructure*>(t);
    }
    default:
      return nullptr;
  }
}

const VkBaseInStructure* read_pdf2_struct(const Node& n, VkStructureType s) {
  const Pdf2Struct* d = find_pdf2(s);
  if (!d) return nullptr;
  // Every feature member is required, and nothing else may be there.
  if (n.value().MemberCount() != d->fields.size() + 1) {
    for (const Pdf2Field& f : d->fields) n.at(f.name);
    n.fail("unknown member besides sType and the " + std::to_string(d->fields.size()) + " features");
  }
  void* st = n.ctx().arena.allocate(d->size, alignof(VkBaseOutStructure));
  static_cast<VkBaseOutStructure*>(st)->sType = s;
  for (const Pdf2Field& f : d->fields) pdf2_field(st, f) = n.u32(f.name);
  return static_cast<const VkBaseInStructure*>(st);
}

}  // namespace

const void* read_pnext(const Node& parent, Tag library_tag) {
  if (!parent.has("pNext")) return nullptr;
  const Node chain = parent.at("pNext");
  const std::size_t n = chain.array_size();
  const VkBaseInStructure* head = nullptr;
  VkBaseInStructure* tail = nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    const Node e = chain[i];
    const auto s = e.enum_<VkStructureType>("sType");
    auto* st = const_cast<VkBaseInStructure*>(read_struct(e, s, library_tag));
    if (!st) e.fail("unknown sType " + std::to_string(static_cast<int>(s)) + " (" + stype_name(s) + ") in a pNext chain");
    if (tail) tail->pNext = st;
    else head = st;
    tail = st;
  }
  return head;
}

void* read_pdf2_pnext(const Node& parent) {
  if (!parent.has("pNext")) return nullptr;
  const Node chain = parent.at("pNext");
  const std::size_t n = chain.array_size();
  VkBaseInStructure* head = nullptr;
  VkBaseInStructure* tail = nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    const Node e = chain[i];
    const auto s = e.enum_<VkStructureType>("sType");
    auto* st = const_cast<VkBaseInStructure*>(read_pdf2_struct(e, s));
    if (!st)
      e.fail("unknown sType " + std::to_string(static_cast<int>(s)) + " (" + stype_name(s) + ") in a physical device features chain");
    if (tail) tail->pNext = st;
    else head = st;
    tail = st;
  }
  return head;
}

}  // namespace libtrace::foz::detail
