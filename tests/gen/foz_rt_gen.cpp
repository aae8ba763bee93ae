// SPDX-License-Identifier: MIT
// Writes tests/data/foz/raytracing/raytracing.foz: one ray-tracing pipeline
// (raygen, miss and a triangles hit group with a closest-hit shader, built
// from the .spvasm beside it with spirv-as), its descriptor set layout (a
// TLAS and a storage image) and pipeline layout. The create infos are
// ordinary Vulkan structs with hashes for handles, serialized by the object
// model and filed under the hashes its Fossilize recipes compute, as
// Fossilize's layer would have recorded them. lavapipe has no ray tracing:
// this is what proves the ray-tracing path on a real GPU.
// usage: foz-rt-gen RAYGEN.spv MISS.spv CLOSEST_HIT.spv OUT.foz
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/object.hpp"

namespace foz = libtrace::foz;

namespace {

std::vector<std::uint32_t> read_spirv(const char* path) {
  std::ifstream f(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f.good() && !f.eof()) throw libtrace::Error(libtrace::Errc::io, path, "cannot read");
  if (bytes.size() < 20 || bytes.size() % 4 != 0 || bytes.compare(0, 4, "\x03\x02\x23\x07") != 0)
    throw libtrace::Error(libtrace::Errc::bad_magic, path, "not a SPIR-V binary");
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

class Out {
 public:
  explicit Out(const char* path) : w_(path), path_(path) {}
  // Files `create_info` under its Fossilize hash, which it returns.
  foz::Hash add(foz::Tag tag, const void* create_info) {
    foz::Object o;
    o.tag = tag;
    o.create_info = create_info;
    const foz::Lookup none = [](foz::Tag, foz::Hash) -> const foz::Object* { return nullptr; };
    o.hash = foz::compute_hash(o, none, path_);
    const std::string json = foz::serialize_payload(o, path_);
    // Plain, with a CRC: the same bytes with any zlib.
    w_.write(tag, o.hash,
             std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(json.data()), json.size()),
             {foz::PayloadFormat::none, 0, true});
    return o.hash;
  }
  void commit() { w_.commit(); }

 private:
  foz::ArchiveWriter w_;
  std::string path_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: foz-rt-gen RAYGEN.spv MISS.spv CLOSEST_HIT.spv OUT.foz\n");
    return 2;
  }
  try {
    Out out(argv[4]);
    foz::Hash modules[3];
    for (int i = 0; i < 3; ++i) {
      const auto code = read_spirv(argv[1 + i]);
      VkShaderModuleCreateInfo m{};
      m.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
      m.codeSize = code.size() * 4;
      m.pCode = code.data();
      modules[i] = out.add(foz::Tag::shader_module, &m);
    }

    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1, VK_SHADER_STAGE_RAYGEN_BIT_KHR, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_RAYGEN_BIT_KHR, nullptr},
    };
    VkDescriptorSetLayoutCreateInfo sl{};
    sl.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    sl.bindingCount = 2;
    sl.pBindings = bindings;
    const auto set_layout = foz::handle_from_hash<VkDescriptorSetLayout>(out.add(foz::Tag::descriptor_set_layout, &sl));

    VkPipelineLayoutCreateInfo pl{};
    pl.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &set_layout;
    const auto layout = foz::handle_from_hash<VkPipelineLayout>(out.add(foz::Tag::pipeline_layout, &pl));

    VkPipelineShaderStageCreateInfo stages[3] = {};
    const VkShaderStageFlagBits kinds[] = {VK_SHADER_STAGE_RAYGEN_BIT_KHR, VK_SHADER_STAGE_MISS_BIT_KHR,
                                           VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR};
    for (int i = 0; i < 3; ++i) {
      stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      stages[i].stage = kinds[i];
      stages[i].module = foz::handle_from_hash<VkShaderModule>(modules[i]);
      stages[i].pName = "main";
    }
    VkRayTracingShaderGroupCreateInfoKHR groups[3] = {};
    for (auto& g : groups) {
      g.sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR;
      g.generalShader = g.closestHitShader = g.anyHitShader = g.intersectionShader = VK_SHADER_UNUSED_KHR;
    }
    groups[0].type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR;
    groups[0].generalShader = 0;
    groups[1].type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR;
    groups[1].generalShader = 1;
    groups[2].type = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR;
    groups[2].closestHitShader = 2;
    VkRayTracingPipelineCreateInfoKHR rt{};
    rt.sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR;
    rt.stageCount = 3;
    rt.pStages = stages;
    rt.groupCount = 3;
    rt.pGroups = groups;
    rt.maxPipelineRayRecursionDepth = 1;
    rt.layout = layout;
    rt.basePipelineIndex = -1;
    const foz::Hash pipeline = out.add(foz::Tag::raytracing_pipeline, &rt);
    out.commit();
    std::printf("%s: raytracing pipeline %s\n", argv[4], foz::hash_hex(pipeline).c_str());
  } catch (const libtrace::Error& e) {
    std::fprintf(stderr, "foz-rt-gen: %s\n", e.what());
    return 1;
  }
  return 0;
}
