// SPDX-License-Identifier: MIT
// Writes a large layer-like .foz archive for the benchmarks: objects zlib
// level 1 with CRCs, links uncompressed with CRCs (what VK_LAYER_fossilize
// writes), payloads shaped after the vkcube capture's JSON with varied state
// and handles, shader modules as JSON + NUL + varint bytes. Archives made
// with the same --shared seed share their layouts, modules, render passes
// and the first --overlap pipelines, so merging them finds duplicates.
//
// usage: foz-gen OUT.foz PIPELINES SEED [OVERLAP] [SHARED_SEED]
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "libtrace/foz/archive.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

std::string hx(std::uint64_t v) { return foz::hash_hex(v); }

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng() % n); }
  std::uint64_t hash() { return rng() | 1; }
};

std::string graphics(Gen& g, std::uint64_t h, std::uint64_t layout, std::uint64_t pass, std::uint64_t vs,
                     std::uint64_t fs) {
  std::string attrs;
  const unsigned n_attr = g.pick(5);
  for (unsigned i = 0; i < n_attr; ++i)
    attrs += std::string(i ? "," : "") + R"({"location":)" + std::to_string(i) + R"(,"binding":0,"offset":)" +
             std::to_string(i * 16) + R"(,"format":)" + std::to_string(97 + g.pick(13)) + "}";
  std::string dyn;
  const unsigned n_dyn = 1 + g.pick(6);
  for (unsigned i = 0; i < n_dyn; ++i) dyn += (i ? "," : "") + std::to_string(i + g.pick(3));
  const bool blend = g.pick(2);
  return R"({"version":6,"graphicsPipelines":{")" + hx(h) +
         R"(":{"flags":0,"basePipelineHandle":"0000000000000000","basePipelineIndex":-1,"layout":")" + hx(layout) +
         R"(","renderPass":")" + hx(pass) + R"(","subpass":0,"dynamicState":{"flags":0,"dynamicState":[)" + dyn +
         R"(]},"multisampleState":{"flags":0,"rasterizationSamples":)" + std::to_string(1u << g.pick(3)) +
         R"(,"sampleShadingEnable":0,"minSampleShading":0.0,"alphaToOneEnable":0,"alphaToCoverageEnable":0},)"
         R"("vertexInputState":{"flags":0,"attributes":[)" +
         attrs + R"(],"bindings":[{"binding":0,"stride":)" + std::to_string(16 * (n_attr + 1)) +
         R"(,"inputRate":0}]},"rasterizationState":{"flags":0,)"
         R"("depthBiasConstantFactor":0.0,"depthBiasSlopeFactor":0.0,"depthBiasClamp":0.0,"depthBiasEnable":0,)"
         R"("depthClampEnable":0,"polygonMode":)" +
         std::to_string(g.pick(3)) + R"(,"rasterizerDiscardEnable":0,"frontFace":)" + std::to_string(g.pick(2)) +
         R"(,"lineWidth":1.0,"cullMode":)" + std::to_string(g.pick(4)) +
         R"(},"inputAssemblyState":{"flags":0,"topology":)" + std::to_string(g.pick(6)) +
         R"(,"primitiveRestartEnable":0},"colorBlendState":{"flags":0,"logicOp":0,"logicOpEnable":0,)"
         R"("blendConstants":[0.0,0.0,0.0,0.0],"attachments":[{"dstAlphaBlendFactor":)" +
         std::to_string(blend ? 7 : 0) + R"(,"srcAlphaBlendFactor":)" + std::to_string(blend ? 6 : 0) +
         R"(,"dstColorBlendFactor":)" + std::to_string(blend ? 7 : 0) + R"(,"srcColorBlendFactor":)" +
         std::to_string(blend ? 6 : 0) + R"(,"colorWriteMask":15,"alphaBlendOp":0,"colorBlendOp":0,"blendEnable":)" +
         std::to_string(blend) +
         R"(}]},"viewportState":{"flags":0,"viewportCount":1,"scissorCount":1},"depthStencilState":{"flags":0,)"
         R"("stencilTestEnable":0,"maxDepthBounds":0.0,"minDepthBounds":0.0,"depthBoundsTestEnable":0,)"
         R"("depthWriteEnable":)" +
         std::to_string(g.pick(2)) + R"(,"depthTestEnable":1,"depthCompareOp":)" + std::to_string(1 + g.pick(7)) +
         R"(,"front":{"compareOp":7,"writeMask":0,"reference":0,"compareMask":0,"passOp":0,"failOp":0,)"
         R"("depthFailOp":0},"back":{"compareOp":7,"writeMask":0,"reference":0,"compareMask":0,"passOp":0,)"
         R"("failOp":0,"depthFailOp":0}},"stages":[{"flags":0,"name":"main","module":")" +
         hx(vs) + R"(","stage":1},{"flags":0,"name":"main","module":")" + hx(fs) + R"(","stage":16}]}}})";
}

std::string base64(Gen& g, unsigned bytes) {
  static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string s;
  for (unsigned i = 0; i < (bytes + 2) / 3 * 4; ++i) s += k[g.pick(64)];
  return s;
}

std::string compute(Gen& g, std::uint64_t h, std::uint64_t layout, std::uint64_t cs) {
  return R"({"version":6,"computePipelines":{")" + hx(h) + R"(":{"flags":0,"layout":")" + hx(layout) +
         R"(","basePipelineHandle":"0000000000000000","basePipelineIndex":-1,"stage":{"flags":0,"stage":32,"module":")" +
         hx(cs) + R"(","name":"main","specializationInfo":{"dataSize":12,"data":")" + base64(g, 12) +
         R"(","mapEntries":[{"offset":0,"size":4,"constantID":0},{"offset":4,"size":4,"constantID":1},)"
         R"({"offset":8,"size":4,"constantID":2}]}}}}})";
}

std::string module(Gen& g, std::uint64_t h) {
  const unsigned words = 300 + g.pick(700);
  std::string varint;
  for (unsigned i = 0; i < words; ++i) {
    std::uint32_t w = g.pick(4) ? g.pick(256) : static_cast<std::uint32_t>(g.rng());
    do {
      varint += static_cast<char>((w & 0x7f) | (w > 0x7f ? 0x80 : 0));
      w >>= 7;
    } while (w);
  }
  return R"({"version":6,"shaderModules":{")" + hx(h) + R"(":{"varintOffset":0,"varintSize":)" +
         std::to_string(varint.size()) + R"(,"codeSize":)" + std::to_string(words * 4) + R"(,"flags":0}}})" +
         std::string(1, '\0') + varint;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: foz-gen OUT.foz PIPELINES SEED [OVERLAP] [SHARED_SEED]\n");
    return 2;
  }
  const unsigned pipelines = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  const std::uint64_t seed = std::strtoull(argv[3], nullptr, 10);
  const unsigned overlap = argc > 4 ? static_cast<unsigned>(std::strtoul(argv[4], nullptr, 10)) : 0;
  const std::uint64_t shared_seed = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 1;
  try {
    foz::ArchiveWriter w(argv[1]);
    foz::EncodeOptions obj;  // the layer's: zlib level 1, CRC
    foz::EncodeOptions link;
    link.format = foz::PayloadFormat::none;
    Gen shared(shared_seed);
    const std::uint64_t app = shared.hash();
    auto put = [&](Tag t, std::uint64_t h, const std::string& json) {
      if (!w.write(t, h, bytes(json), obj)) return;
      const std::string l = R"({"version":6,"link":{"application":")" + hx(app) + R"(","tag":)" +
                            std::to_string(static_cast<unsigned>(t)) + R"(,"hash":")" + hx(h) + "\"}}";
      w.write(Tag::application_blob_link, app ^ (h * 0x9e3779b97f4a7c15ull) ^ static_cast<std::uint64_t>(t), bytes(l),
              link);
    };
    const std::string info = R"({"version":6,"applicationInfo":{"applicationName":"foz-gen","engineName":"foz-gen",)"
                             R"("applicationVersion":0,"engineVersion":0,"apiVersion":4206592},)"
                             R"("physicalDeviceFeatures":{"robustBufferAccess":0}})";
    w.write(Tag::application_info, app, bytes(info), obj);
    std::vector<std::uint64_t> set_layouts, layouts, modules, passes;
    for (int i = 0; i < 16; ++i) {
      const std::uint64_t s = shared.hash(), l = shared.hash();
      put(Tag::descriptor_set_layout, s,
          R"({"version":6,"setLayouts":{")" + hx(s) +
              R"(":{"flags":0,"bindings":[{"descriptorType":6,"descriptorCount":1,"stageFlags":1,"binding":0}]}}})");
      put(Tag::pipeline_layout, l,
          R"({"version":6,"pipelineLayouts":{")" + hx(l) + R"(":{"flags":0,"pushConstantRanges":[],"setLayouts":[")" +
              hx(s) + "\"]}}}");
      set_layouts.push_back(s);
      layouts.push_back(l);
    }
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t p = shared.hash();
      put(Tag::render_pass, p,
          R"({"version":6,"renderPasses":{")" + hx(p) + R"(":{"flags":0,"attachments":[{"flags":0,"format":)" +
              std::to_string(37 + i) +
              R"(,"finalLayout":1000001002,"initialLayout":0,"loadOp":1,"storeOp":0,"samples":1,"stencilLoadOp":2,"stencilStoreOp":1}],"subpasses":[{"flags":0,"pipelineBindPoint":0,"colorAttachments":[{"attachment":0,"layout":2}]}]}}})");
      passes.push_back(p);
    }
    for (int i = 0; i < 96; ++i) {
      const std::uint64_t m = shared.hash();
      put(Tag::shader_module, m, module(shared, m));
      modules.push_back(m);
    }
    Gen own(seed);
    Gen common(shared_seed * 7919 + 3);
    for (unsigned i = 0; i < pipelines; ++i) {
      Gen& g = i < overlap ? common : own;
      const std::uint64_t h = g.hash();
      const std::uint64_t layout = layouts[g.pick(16)];
      if (g.pick(10) < 6)
        put(Tag::graphics_pipeline, h,
            graphics(g, h, layout, passes[g.pick(4)], modules[g.pick(48)], modules[48 + g.pick(48)]));
      else
        put(Tag::compute_pipeline, h, compute(g, h, layout, modules[g.pick(96)]));
    }
    w.commit();
    std::fprintf(stderr, "foz-gen: %s: %llu entries, %llu bytes\n", argv[1],
                 static_cast<unsigned long long>(w.entries_written()),
                 static_cast<unsigned long long>(w.bytes_written()));
  } catch (const libtrace::Error& e) {
    std::fprintf(stderr, "foz-gen: %s\n", e.what());
    return 1;
  }
  return 0;
}
