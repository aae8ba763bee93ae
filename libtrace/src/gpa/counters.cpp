// SPDX-License-Identifier: MIT
#include "gpa/counters.hpp"

#include <string_view>

namespace libtrace::gpa {

namespace {

constexpr Counter kCounters[] = {
    {0, VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT, "ia_vertices",
     "vertices read by the input assembler (indices of indexed draws included, primitive restart not)"},
    {1, VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT, "ia_primitives",
     "primitives assembled by the input assembler"},
    {2, VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT, "vs_invocations",
     "vertex shader invocations (a vertex shared by primitives may be shaded once or more)"},
    {3, VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT, "gs_invocations",
     "geometry shader invocations (instanced geometry shaders count each instance)"},
    {4, VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT, "gs_primitives",
     "primitives emitted by geometry shaders"},
    {5, VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT, "clipping_invocations",
     "primitives that reached the clipping stage"},
    {6, VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT, "clipping_primitives",
     "primitives output by the clipping stage"},
    {7, VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT, "fs_invocations",
     "fragment shader invocations (helper invocations may or may not count)"},
    {8, VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT, "tcs_patches",
     "patches processed by tessellation control shaders"},
    {9, VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT, "tes_invocations",
     "tessellation evaluation shader invocations"},
    {10, VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT, "cs_invocations",
     "compute shader invocations (workgroups times workgroup size)"},
};

}  // namespace

std::span<const Counter> counters() { return kCounters; }

const Counter* find_counter(std::uint32_t event) { return event < std::size(kCounters) ? &kCounters[event] : nullptr; }

const Counter* find_counter(std::string_view name) {
  for (const Counter& c : kCounters)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace libtrace::gpa
