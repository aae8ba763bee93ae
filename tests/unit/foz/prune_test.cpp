// SPDX-License-Identifier: MIT
// Pruning through merge_archives: the fossilize-prune rules (applications,
// pipeline and module keep/skip lists) plus base pipelines and libraries.
#include <doctest/doctest.h>

#include <functional>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/merge.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

std::string h(std::uint64_t v) { return foz::hash_hex(v); }

std::string keys(const foz::ArchiveReader& r) {
  std::string s;
  for (unsigned t = 0; t < foz::kTagCount; ++t)
    for (std::uint64_t v : r.hashes(static_cast<Tag>(t))) s += std::to_string(t) + ":" + std::to_string(v) + " ";
  return s;
}

}  // namespace

namespace {

// Two applications. A links graphics P1 (base P0, library P2) and compute C1;
// B links graphics P3. Layouts, set layouts and a sampler hang off them.
void write_prune_fixture(const std::string& path) {
  foz::ArchiveWriter w(path);
  auto put = [&](Tag t, std::uint64_t hash, const std::string& json) { w.write(t, hash, test::bytes(json)); };
  auto link = [&](std::uint64_t app, unsigned tag, std::uint64_t obj, std::uint64_t key) {
    put(Tag::application_blob_link, key,
        R"({"version":6,"link":{"application":")" + h(app) + R"(","tag":)" + std::to_string(tag) + R"(,"hash":")" +
            h(obj) + "\"}}");
  };
  put(Tag::application_info, 0xA,
      R"({"version":6,"applicationInfo":{"applicationName":"a"},"physicalDeviceFeatures":{}})");
  put(Tag::application_info, 0xB,
      R"({"version":6,"applicationInfo":{"applicationName":"b"},"physicalDeviceFeatures":{}})");
  put(Tag::sampler, 0x51, R"({"version":6,"samplers":{"0000000000000051":{}}})");
  put(Tag::sampler, 0x52, R"({"version":6,"samplers":{"0000000000000052":{}}})");  // nobody's
  put(Tag::descriptor_set_layout, 0x61,
      R"({"version":6,"setLayouts":{"0000000000000061":{"bindings":[{"immutableSamplers":["0000000000000051"]}]}}})");
  put(Tag::descriptor_set_layout, 0x62, R"({"version":6,"setLayouts":{"0000000000000062":{"bindings":[]}}})");
  for (auto [l, s] : {std::pair{0x71, 0x61}, std::pair{0x72, 0x62}, std::pair{0x73, 0x62}})
    put(Tag::pipeline_layout, static_cast<std::uint64_t>(l),
        R"({"version":6,"pipelineLayouts":{")" + h(static_cast<std::uint64_t>(l)) + R"(":{"setLayouts":[")" +
            h(static_cast<std::uint64_t>(s)) + R"("]}}})");
  for (std::uint64_t m : {0x81, 0x82, 0x83, 0x84}) put(Tag::shader_module, m, R"({"version":6,"shaderModules":{}})");
  put(Tag::render_pass, 0x91, R"({"version":6,"renderPasses":{}})");
  auto gfx = [&](std::uint64_t p, std::uint64_t layout, std::uint64_t module, const std::string& extra) {
    put(Tag::graphics_pipeline, p,
        R"({"version":6,"graphicsPipelines":{")" + h(p) + R"(":{"layout":")" + h(layout) +
            R"(","renderPass":"0000000000000091","stages":[{"module":")" + h(module) + "\"}]" + extra + "}}}");
  };
  gfx(0x100, 0x71, 0x83, "");  // P0, base of P1
  gfx(0x101, 0x71, 0x81, R"(,"basePipelineHandle":"0000000000000100","pNext":[{"libraries":["0000000000000102"]}])");
  gfx(0x102, 0x71, 0x84, "");  // P2, library of P1
  gfx(0x103, 0x73, 0x81, "");  // P3 (B)
  put(Tag::compute_pipeline, 0x201,
      R"({"version":6,"computePipelines":{"0000000000000201":{"layout":"0000000000000072","stage":{"module":"0000000000000082"}}}})");
  link(0xA, 6, 0x101, 0x1001);
  link(0xA, 7, 0x201, 0x1002);
  link(0xB, 6, 0x103, 0x1003);
  w.commit();
}

std::string prune(const std::string& dir, const std::function<void(foz::PruneOptions&)>& set) {
  foz::MergeOptions opt;
  opt.inputs = {dir + "/fix.foz"};
  opt.output = dir + "/out.foz";
  opt.prune.enabled = true;
  set(opt.prune);
  foz::merge_archives(opt);
  return keys(foz::ArchiveReader(opt.output));
}

}  // namespace

TEST_CASE("foz prune: applications, keep and skip lists, and what pipelines need") {
  test::ScratchDir dir;
  write_prune_fixture(dir / "fix.foz");
  // Everything any pipeline needs; the unused sampler 0x52 goes.
  CHECK(prune(dir.path, [](foz::PruneOptions&) {}) ==
        "0:10 0:11 1:81 2:97 2:98 3:113 3:114 3:115 4:129 4:130 4:131 4:132 5:145 6:256 6:257 6:258 6:259 7:513 "
        "8:4097 8:4098 8:4099 ");
  // Application A: its pipelines, P1's base and library, their needs; A's links only.
  CHECK(prune(dir.path, [](foz::PruneOptions& p) { p.applications = {0xA}; }) ==
        "0:10 1:81 2:97 2:98 3:113 3:114 4:129 4:130 4:131 4:132 5:145 6:256 6:257 6:258 7:513 8:4097 8:4098 ");
  // A skipped module takes its pipelines with it (and what only they needed).
  CHECK(prune(dir.path, [](foz::PruneOptions& p) { p.skip[4] = {0x82}; }) ==
        "0:10 0:11 1:81 2:97 2:98 3:113 3:115 4:129 4:131 4:132 5:145 6:256 6:257 6:258 6:259 8:4097 8:4098 8:4099 ");
  // A graphics keep list drops every compute pipeline too (fossilize-prune's rule).
  CHECK(prune(dir.path, [](foz::PruneOptions& p) {
          p.keep[6] = {0x103};
          p.skip_links = true;
        }) == "0:10 0:11 2:98 3:115 4:129 5:145 6:259 ");
  // A module keep list: pipelines with at least one kept module.
  CHECK(prune(dir.path, [](foz::PruneOptions& p) { p.keep[4] = {0x84}; }) ==
        "0:10 0:11 1:81 2:97 3:113 4:132 5:145 6:258 8:4097 8:4098 8:4099 ");
}
