// SPDX-License-Identifier: MIT
// What pipelines need: SPIR-V capabilities, stages, pNext structs and dynamic
// states, checked against what a device has.
#include <doctest/doctest.h>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/object.hpp"
#include "replay/foz/require.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
namespace d = libtrace::foz::detail;
using foz::Tag;

namespace {

std::vector<std::uint32_t> module_with(std::vector<std::uint32_t> capabilities) {
  std::vector<std::uint32_t> w = {0x07230203, 0x00010000, 0, 10, 0};
  for (std::uint32_t c : capabilities) w.insert(w.end(), {(2u << 16) | 17u, c});  // OpCapability
  w.insert(w.end(), {(3u << 16) | 14u, 0, 1});                                    // OpMemoryModel
  w.insert(w.end(), {(2u << 16) | 17u, 10});  // a capability after the preamble is not one
  return w;
}

d::Capabilities device_with(std::uint32_t api, std::vector<std::string> exts, std::vector<std::string> features) {
  libtrace::vk::Features f;
  for (const auto& n : features) f.enable(n);
  return d::Capabilities(api, exts, f);
}

}  // namespace

TEST_CASE("foz_replay_require: SPIR-V capabilities become feature needs") {
  d::Needs n;
  const auto words = module_with({1, 2, 9, 5283});  // Shader, Geometry, Float16, MeshShadingEXT
  d::spirv_needs(words, n);
  CHECK(n.items ==
        std::vector<std::string_view>{"geometryShader", "vulkan12.shaderFloat16", "VK_EXT_mesh_shader.meshShader"});

  const auto dev = device_with(VK_API_VERSION_1_3, {}, {"geometryShader", "vulkan12.shaderFloat16"});
  CHECK(d::lacking(n, dev) == "the device lacks VK_EXT_mesh_shader.meshShader");
  CHECK(d::lacking(n, d::Capabilities::everything()) == "");

  d::Needs none;  // not SPIR-V, truncated, zero-length instruction: no needs, no crash
  d::spirv_needs(std::vector<std::uint32_t>{1, 2, 3}, none);
  auto cut = words;
  cut.resize(6);
  d::spirv_needs(cut, none);
  d::spirv_needs(std::vector<std::uint32_t>{0x07230203, 0x00010000, 0, 10, 0, 0}, none);
  CHECK(none.items.empty());
}

TEST_CASE("foz_replay_require: alternatives, core versions and extensions") {
  d::Needs n;
  n.add("core1.3|VK_EXT_extended_dynamic_state.extendedDynamicState");
  n.add("VK_KHR_pipeline_library");
  CHECK(d::lacking(n, device_with(VK_API_VERSION_1_3, {"VK_KHR_pipeline_library"}, {})) == "");
  CHECK(d::lacking(n, device_with(VK_API_VERSION_1_2, {}, {})) ==
        "the device lacks core1.3/VK_EXT_extended_dynamic_state.extendedDynamicState, VK_KHR_pipeline_library");
}

TEST_CASE("foz_replay_require: the real modules and pipelines of vkcube need nothing unusual") {
  foz::ArchiveReader r(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  foz::Arena arena;
  for (Tag t : {Tag::shader_module, Tag::graphics_pipeline}) {
    for (const auto h : r.hashes(t)) {
      const auto payload = r.read_payload(t, h);
      const auto o = foz::parse_payload(std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()),
                                        arena, "vkcube");
      d::Needs n;
      if (t == Tag::shader_module) {
        const auto* ci = o.as<VkShaderModuleCreateInfo>();
        d::spirv_needs(std::span<const std::uint32_t>(ci->pCode, ci->codeSize / 4), n);  // Shader only
      } else {
        d::pipeline_needs(o, n);  // vertex + fragment, two core dynamic states
      }
      CHECK(n.items.empty());
    }
  }
}

TEST_CASE("foz_replay_require: stages, pNext structs and dynamic states of a graphics pipeline") {
  VkPipelineShaderStageCreateInfo stages[2] = {};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_GEOMETRY_BIT;
  stages[1].stage = VK_SHADER_STAGE_MESH_BIT_EXT;
  VkPipelineRasterizationLineStateCreateInfoEXT line{};
  line.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.pNext = &line;
  const VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_CULL_MODE,
                                VK_DYNAMIC_STATE_VERTEX_INPUT_EXT};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = 3;
  dynamic.pDynamicStates = dyn;
  VkGraphicsPipelineCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  ci.stageCount = 2;
  ci.pStages = stages;
  ci.pRasterizationState = &raster;
  ci.pDynamicState = &dynamic;
  foz::Object o;
  o.tag = Tag::graphics_pipeline;
  o.create_info = &ci;
  d::Needs n;
  d::pipeline_needs(o, n);
  const auto dev = device_with(VK_API_VERSION_1_3, {"VK_EXT_line_rasterization"}, {"geometryShader"});
  CHECK(d::lacking(n, dev) ==
        "the device lacks VK_EXT_mesh_shader.meshShader/VK_NV_mesh_shader.meshShader, "
        "VK_EXT_vertex_input_dynamic_state.vertexInputDynamicState");
}
