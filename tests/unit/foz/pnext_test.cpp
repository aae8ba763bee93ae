// SPDX-License-Identifier: MIT
// Every pNext struct the model reads: read, written back as the same JSON
// value, and hashed. The real archives hold only VkPipelineRenderingCreateInfo
// and mesh-shader features; these fixtures cover the rest of Fossilize's list
// in the places Fossilize records them.
#include <doctest/doctest.h>

#include <set>

#include "foz/object_test_util.hpp"
#include "foz/pnext.hpp"
#include "libtrace/core/error.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

const char* const kStage = R"("flags":0,"name":"main","module":"00000000000000a1")";

const std::string kGraphics =
    std::string(R"({"version":6,"graphicsPipelines":{"00000000000000f1":{
  "flags":0,"basePipelineHandle":"0000000000000000","basePipelineIndex":-1,"layout":"00000000000000b1",
  "renderPass":"0000000000000000","subpass":0,
  "tessellationState":{"flags":0,"patchControlPoints":3,"pNext":[{"sType":1000117003,"domainOrigin":1}]},
  "dynamicState":{"flags":0,"dynamicState":[0,1]},
  "multisampleState":{"flags":0,"rasterizationSamples":4,"sampleShadingEnable":0,"minSampleShading":0.0,
    "alphaToOneEnable":0,"alphaToCoverageEnable":0,"sampleMask":[15],
    "pNext":[{"sType":1000143002,"sampleLocationsEnable":1,"sampleLocationsInfo":{"sType":1000143000,
      "sampleLocationsPerPixel":4,"sampleLocationGridSize":{"width":1,"height":1},
      "sampleLocations":[{"x":0.25,"y":0.25},{"x":0.75,"y":0.25},{"x":0.25,"y":0.75},{"x":0.75,"y":0.75}]}}]},
  "vertexInputState":{"flags":0,"attributes":[{"location":0,"binding":0,"offset":0,"format":106}],
    "bindings":[{"binding":0,"stride":16,"inputRate":1}],
    "pNext":[{"sType":1000190001,"vertexBindingDivisorCount":1,"vertexBindingDivisors":[{"binding":0,"divisor":4}]}]},
  "rasterizationState":{"flags":0,"depthBiasConstantFactor":1.0,"depthBiasSlopeFactor":2.0,"depthBiasClamp":0.5,
    "depthBiasEnable":1,"depthClampEnable":0,"polygonMode":0,"rasterizerDiscardEnable":0,"frontFace":0,"lineWidth":1.0,"cullMode":0,
    "pNext":[{"sType":1000102001,"flags":0,"depthClipEnable":1},{"sType":1000028002,"flags":0,"rasterizationStream":1},
      {"sType":1000101001,"flags":0,"conservativeRasterizationMode":1,"extraPrimitiveOverestimationSize":0.5},
      {"sType":1000259001,"lineRasterizationMode":3,"stippledLineEnable":1,"lineStippleFactor":2,"lineStipplePattern":61680},
      {"sType":1000254001,"provokingVertexMode":1},{"sType":1000283002,"depthBiasRepresentation":1,"depthBiasExact":1}]},
  "inputAssemblyState":{"flags":0,"topology":10,"primitiveRestartEnable":0},
  "colorBlendState":{"flags":0,"logicOp":0,"logicOpEnable":0,"blendConstants":[0.0,0.0,0.0,0.0],
    "attachments":[{"dstAlphaBlendFactor":0,"srcAlphaBlendFactor":1,"dstColorBlendFactor":7,"srcColorBlendFactor":6,
      "colorWriteMask":15,"alphaBlendOp":0,"colorBlendOp":0,"blendEnable":1}],
    "pNext":[{"sType":1000148002,"srcPremultiplied":1,"dstPremultiplied":0,"blendOverlap":2},
      {"sType":1000381001,"attachmentCount":1,"colorWriteEnables":[1]}]},
  "viewportState":{"flags":0,"viewportCount":1,"scissorCount":1,
    "pNext":[{"sType":1000355001,"negativeOneToOne":1},
      {"sType":1000582001,"depthClampMode":1,"depthClampRange":{"minDepthClamp":0.0,"maxDepthClamp":0.5}}]},
  "depthStencilState":{"flags":0,"stencilTestEnable":1,"maxDepthBounds":1.0,"minDepthBounds":0.0,"depthBoundsTestEnable":0,
    "depthWriteEnable":1,"depthTestEnable":1,"depthCompareOp":3,
    "front":{"compareOp":7,"writeMask":255,"reference":1,"compareMask":255,"passOp":2,"failOp":0,"depthFailOp":0},
    "back":{"compareOp":7,"writeMask":255,"reference":1,"compareMask":255,"passOp":2,"failOp":0,"depthFailOp":0}},
  "stages":[{)") +
    kStage + R"(,"stage":1,"pNext":[{"sType":1000225001,"requiredSubgroupSize":32}]},
    {)" +
    kStage +
    R"(,"stage":2,"specializationInfo":{"dataSize":4,"data":"AQAAAA==","mapEntries":[{"offset":0,"size":4,"constantID":7}]}},
    {)" +
    kStage + R"(,"stage":4},{)" + kStage + R"(,"stage":16}],
  "pNext":[{"sType":1000044002,"depthAttachmentFormat":126,"stencilAttachmentFormat":126,"viewMask":0,"colorAttachmentFormats":[37,44]},
    {"sType":1000099001,"flags":0,"discardRectangleMode":1,"discardRectangleCount":1,"discardRectangles":[{"x":1,"y":2,"width":3,"height":4}]},
    {"sType":1000226001,"fragmentSize":{"width":2,"height":2},"combinerOps":[0,1]},
    {"sType":1000068000,"storageBuffers":2,"vertexInputs":1,"uniformBuffers":2,"images":2},
    {"sType":1000376002,"rasterizationSamples":4,"multisampledRenderToSingleSampledEnable":1},
    {"sType":1000232001,"colorAttachmentCount":2,"colorAttachmentLocations":[1,0]},
    {"sType":1000232002,"colorAttachmentCount":2,"colorAttachmentInputIndices":[0,1],"depthInputAttachmentIndex":2},
    {"sType":1000470005,"flags":2}]}}})";

const std::string kLibrary = R"({"version":6,"graphicsPipelines":{"00000000000000f2":{
  "flags":2048,"basePipelineHandle":"0000000000000000","basePipelineIndex":-1,"layout":"00000000000000b1",
  "renderPass":"0000000000000000","subpass":0,
  "pNext":[{"sType":1000320002,"flags":1},{"libraries":["00000000000000f1","00000000000000f3"],"sType":1000290000}]}}})";

const std::string kSampler = R"({"version":6,"samplers":{"00000000000000c1":{"flags":0,"minFilter":1,"magFilter":1,
  "maxAnisotropy":1.0,"compareOp":0,"anisotropyEnable":0,"mipmapMode":0,"addressModeU":3,"addressModeV":3,"addressModeW":3,
  "borderColor":1000287003,"unnormalizedCoordinates":0,"compareEnable":0,"mipLodBias":0.0,"minLod":0.0,"maxLod":0.0,
  "pNext":[{"sType":1000287000,"customBorderColor":[1065353216,0,0,1065353216],"format":37},
    {"sType":1000130001,"reductionMode":1},{"sType":1000411001,"srgb":1,"components":{"r":0,"g":0,"b":0,"a":0}},
    {"sType":1000156000,"format":1000156003,"ycbcrModel":2,"ycbcrRange":0,"components":[0,0,0,0],"xChromaOffset":0,
     "yChromaOffset":0,"chromaFilter":1,"forceExplicitReconstruction":0}]}}})";

const std::string kSetLayout = R"({"version":6,"setLayouts":{"00000000000000d1":{"flags":0,"bindings":[
  {"descriptorType":1000351000,"descriptorCount":1,"stageFlags":16,"binding":0}],
  "pNext":[{"sType":1000161000,"bindingFlags":[4]},{"sType":1000351002,"mutableDescriptorTypeLists":[[2,3,6]]}]}}})";

const std::string kRenderPass = R"({"version":6,"renderPasses":{"00000000000000e1":{"flags":0,
  "dependencies":[],"attachments":[{"flags":0,"format":44,"finalLayout":2,"initialLayout":0,"loadOp":1,"storeOp":0,"samples":1,
    "stencilLoadOp":2,"stencilStoreOp":1}],
  "subpasses":[{"flags":0,"pipelineBindPoint":0,"inputAttachments":[{"attachment":0,"layout":5}],"colorAttachments":[],"preserveAttachments":[]}],
  "pNext":[{"sType":1000053000,"viewMasks":[3],"correlationMasks":[3]},
    {"sType":1000117001,"aspectReferences":[{"subpass":0,"inputAttachmentIndex":0,"aspectMask":1}]},
    {"sType":1000218002,"fragmentDensityMapAttachment":{"attachment":0,"layout":1000218000}},
    {"sType":1000458001,"disallowMerging":1}]}}})";

const std::string kRenderPass2 =
    R"({"version":6,"renderPasses2":{"00000000000000e2":{"flags":0,"correlatedViewMasks":[3],
  "dependencies":[{"dependencyFlags":0,"dstAccessMask":0,"srcAccessMask":0,"dstStageMask":0,"srcStageMask":0,"dstSubpass":0,
    "srcSubpass":4294967295,"viewOffset":0,"pNext":[{"sType":1000314000,"srcStageMask":1024,"srcAccessMask":256,
    "dstStageMask":4294967296,"dstAccessMask":8589934592}]}],
  "attachments":[{"flags":0,"format":130,"finalLayout":3,"initialLayout":0,"loadOp":1,"storeOp":0,"samples":4,
    "stencilLoadOp":2,"stencilStoreOp":1,"pNext":[{"sType":1000241002,"stencilInitialLayout":0,"stencilFinalLayout":1000241003}]},
    {"flags":0,"format":130,"finalLayout":3,"initialLayout":0,"loadOp":1,"storeOp":0,"samples":1,"stencilLoadOp":2,"stencilStoreOp":1,
    "pNext":[{"sType":1000143000,"sampleLocationsPerPixel":1,"sampleLocationGridSize":{"width":1,"height":1}}]}],
  "subpasses":[{"flags":0,"pipelineBindPoint":0,"viewMask":3,
    "depthStencilAttachment":{"attachment":0,"layout":3,"aspectMask":6,"pNext":[{"sType":1000241001,"stencilLayout":1000241002}]},
    "pNext":[{"sType":1000199001,"depthResolveMode":1,"stencilResolveMode":1,
      "depthStencilResolveAttachment":{"attachment":1,"layout":3,"aspectMask":6}},
      {"sType":1000226000,"shadingRateAttachmentTexelSize":{"width":16,"height":16},
       "fragmentShadingRateAttachment":{"attachment":1,"layout":1000164003,"aspectMask":1}}]}]}}})";

const std::string kRayTracing = R"({"version":6,"raytracingPipelines":{"00000000000000a9":{"flags":0,
  "layout":"00000000000000b1","basePipelineHandle":"0000000000000000","basePipelineIndex":-1,"maxPipelineRayRecursionDepth":2,
  "dynamicState":{"flags":0,"dynamicState":[1000347000]},
  "stages":[{"flags":0,"name":"main","module":"00000000000000a1","stage":256},{"flags":0,"name":"hit","module":"00000000000000a2","stage":1024}],
  "libraryInterface":{"maxPipelineRayPayloadSize":16,"maxPipelineRayHitAttributeSize":8},
  "libraryInfo":{"libraries":["00000000000000a8"]},
  "groups":[{"anyHitShader":4294967295,"intersectionShader":4294967295,"generalShader":0,"closestHitShader":4294967295,"type":0},
    {"anyHitShader":4294967295,"intersectionShader":4294967295,"generalShader":4294967295,"closestHitShader":1,"type":1}]}}})";

const std::string kApplication = R"({"version":6,"applicationInfo":{"applicationName":"a","applicationVersion":1,
  "engineVersion":2,"apiVersion":4206592},"physicalDeviceFeatures":{"robustBufferAccess":1,"pNext":[
  {"sType":1000286000,"robustBufferAccess2":1,"robustImageAccess2":1,"nullDescriptor":0},{"sType":1000335000,"robustImageAccess":1},
  {"sType":1000326001,"fragmentShadingRateEnums":1,"supersampleFragmentShadingRates":0,"noInvocationFragmentShadingRates":1},
  {"sType":1000226003,"pipelineFragmentShadingRate":1,"primitiveFragmentShadingRate":0,"attachmentFragmentShadingRate":1},
  {"sType":1000328000,"taskShader":1,"meshShader":1,"multiviewMeshShader":0,"primitiveFragmentShadingRateMeshShader":0,"meshShaderQueries":1},
  {"sType":1000202000,"taskShader":0,"meshShader":1},
  {"sType":1000316002,"descriptorBuffer":1,"descriptorBufferCaptureReplay":0,"descriptorBufferImageLayoutIgnored":0,"descriptorBufferPushDescriptors":1},
  {"sType":1000482000,"shaderObject":1},
  {"sType":1000382000,"primitivesGeneratedQuery":1,"primitivesGeneratedQueryWithRasterizerDiscard":0,"primitivesGeneratedQueryWithNonZeroStreams":1},
  {"sType":1000393000,"image2DViewOf3D":1,"sampler2DViewOf3D":0}]}})";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

std::set<int> stypes_in(const void* p) {
  std::set<int> out;
  for (auto* s = static_cast<const VkBaseInStructure*>(p); s; s = s->pNext) out.insert(s->sType);
  return out;
}

}  // namespace

TEST_CASE("foz pnext: every supported struct reads, writes back the same JSON and hashes") {
  for (const std::string* json :
       {&kGraphics, &kLibrary, &kSampler, &kSetLayout, &kRenderPass, &kRenderPass2, &kRayTracing, &kApplication}) {
    foz::Arena arena;
    const foz::Object o = foz::parse_payload(*json, arena, "fixture");
    INFO(json->substr(0, 60));
    CHECK(test::same_json(foz::serialize_payload(o, "fixture"), *json));
    CHECK_NOTHROW(foz::compute_hash(o, {}, "fixture"));
  }
}

TEST_CASE("foz pnext: chains keep their order and every struct its sType") {
  foz::Arena arena;
  const foz::Object g = foz::parse_payload(kGraphics, arena, "g");
  const auto* ci = g.as<VkGraphicsPipelineCreateInfo>();
  CHECK(stypes_in(ci->pNext) ==
        std::set<int>{1000044002, 1000099001, 1000226001, 1000068000, 1000376002, 1000232001, 1000232002, 1000470005});
  CHECK(static_cast<const VkBaseInStructure*>(ci->pNext)->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  CHECK(stypes_in(ci->pRasterizationState->pNext).size() == 6);
  const auto* line = reinterpret_cast<const VkPipelineRasterizationLineStateCreateInfoEXT*>(
      static_cast<const VkBaseInStructure*>(ci->pRasterizationState->pNext)->pNext->pNext->pNext);
  CHECK(line->sType == VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT);
  CHECK(line->lineStipplePattern == 61680);
  const foz::Object lib = foz::parse_payload(kLibrary, arena, "l");
  REQUIRE(lib.references.size() == 3);  // layout and two libraries
  CHECK(lib.references[1].tag == Tag::graphics_pipeline);
  CHECK(lib.references[2].hash == 0xf3);
  const foz::Object rt = foz::parse_payload(kRayTracing, arena, "r");
  CHECK(rt.references.back().tag == Tag::raytracing_pipeline);
  CHECK(rt.references.back().hash == 0xa8);
}

TEST_CASE("foz pnext: hashes follow the members Fossilize hashes") {
  foz::Arena arena;
  const foz::Object g = foz::parse_payload(kGraphics, arena, "g");
  const foz::Hash base = foz::compute_hash(g, {}, "g");
  const auto* ci = g.as<VkGraphicsPipelineCreateInfo>();
  auto* rendering =
      const_cast<VkPipelineRenderingCreateInfo*>(static_cast<const VkPipelineRenderingCreateInfo*>(ci->pNext));
  rendering->stencilAttachmentFormat = VK_FORMAT_UNDEFINED;
  CHECK(foz::compute_hash(g, {}, "g") != base);
  rendering->stencilAttachmentFormat = VK_FORMAT_D32_SFLOAT;
  CHECK(foz::compute_hash(g, {}, "g") == base);
  // Flags2 replaces the 32-bit flags, which then do not count.
  const_cast<VkGraphicsPipelineCreateInfo*>(ci)->flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT;
  CHECK(foz::compute_hash(g, {}, "g") == base);

  // In a library that only holds the vertex input interface, the layout does
  // not count; the libraries it links do.
  const foz::Object lib = foz::parse_payload(kLibrary, arena, "l");
  const foz::Hash lib_hash = foz::compute_hash(lib, {}, "l");
  auto* l = const_cast<VkGraphicsPipelineCreateInfo*>(lib.as<VkGraphicsPipelineCreateInfo>());
  l->layout = foz::handle_from_hash<VkPipelineLayout>(0x99);
  CHECK(foz::compute_hash(lib, {}, "l") == lib_hash);
  const auto* info =
      reinterpret_cast<const VkPipelineLibraryCreateInfoKHR*>(static_cast<const VkBaseInStructure*>(l->pNext)->pNext);
  auto* libraries = const_cast<VkPipeline*>(info->pLibraries);
  libraries[0] = foz::handle_from_hash<VkPipeline>(0x98);
  CHECK(foz::compute_hash(lib, {}, "l") != lib_hash);

  const foz::Object app = foz::parse_payload(kApplication, arena, "a");
  auto* features = const_cast<VkPhysicalDeviceFeatures2*>(app.features);
  const foz::Hash app_hash = app.hash;
  features->features.robustBufferAccess = 0;
  CHECK(foz::compute_hash(app, {}, "a") != app_hash);
}

TEST_CASE("foz pnext: counts that disagree with their arrays are errors") {
  foz::Arena arena;
  std::string j = replaced(kGraphics, R"("attachmentCount":1,"colorWriteEnables":[1])",
                           R"("attachmentCount":2,"colorWriteEnables":[1])");
  CHECK_THROWS_WITH_AS(
      foz::parse_payload(j, arena, "g"),
      "g: graphicsPipelines.00000000000000f1.colorBlendState.pNext[1].colorWriteEnables: has 1 elements, expected 2",
      libtrace::Error);
  j = replaced(kGraphics, R"("sampleMask":[15])", R"("sampleMask":[15,1])");
  CHECK_THROWS_WITH_AS(foz::parse_payload(j, arena, "g"),
                       "g: graphicsPipelines.00000000000000f1.multisampleState.sampleMask: has 2 elements, expected 1",
                       libtrace::Error);
  j = replaced(kGraphics, R"("viewportCount":1,"scissorCount":1,)",
               R"("viewportCount":1,"scissorCount":1,"scissors":[],)");
  CHECK_THROWS_WITH_AS(
      foz::parse_payload(j, arena, "g"),
      "g: graphicsPipelines.00000000000000f1.viewportState.scissors: has 0 elements, scissorCount is 1",
      libtrace::Error);
}

TEST_CASE("foz pnext: every profile resolves against the registry, with code wherever a list is missing") {
  CHECK_NOTHROW(libtrace::foz::detail::check_pnext_profiles());
  std::set<int> seen;
  for (const auto& p : libtrace::foz::detail::pnext_profiles()) CHECK(seen.insert(p.s_type).second);
  CHECK(seen.size() == 40);
}
