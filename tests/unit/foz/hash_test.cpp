// SPDX-License-Identifier: MIT
// Fossilize's hash recipes: every entry of every archive Fossilize wrote must
// hash to the name Fossilize stored it under.
#include <doctest/doctest.h>

#include <map>

#include "foz/object_test_util.hpp"
#include "libtrace/core/error.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

TEST_CASE("foz hash: every entry of every real archive hashes to its name") {
  std::size_t checked = 0;
  std::map<Tag, std::size_t> per_tag;
  for (const std::string& path : test::real_archives()) {
    test::ParsedArchive a(path);
    for (const auto& [key, object] : a.objects) {
      INFO(a.where.at(key));
      CHECK(foz::compute_hash(object, a.lookup(), a.where.at(key)) == key.second);
      ++checked;
      ++per_tag[key.first];
    }
  }
  CHECK(per_tag[Tag::graphics_pipeline] >= 1);
  CHECK(per_tag[Tag::render_pass] >= 1);
  CHECK(per_tag[Tag::sampler] >= 1);
  if (test::real_archives().size() == 4) CHECK(checked == 15 + 3007 + 436 + 436);
}

TEST_CASE("foz hash: application info and link keys") {
  test::ParsedArchive a(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  const foz::Object& app = a.objects.at({Tag::application_info, 0x72991ed96a80f842ull});
  CHECK(app.hash == 0x72991ed96a80f842ull);  // computed while parsing, equal to the key
  REQUIRE(app.application);
  CHECK(std::string(app.application->pApplicationName) == "vkcube");
  CHECK(app.application->apiVersion == 4194304u);
  REQUIRE(app.features);
  CHECK(app.features->pNext == nullptr);
  const foz::Object& link = a.objects.at({Tag::application_blob_link, 0x0b2676b1d8fe7e9full});
  CHECK(link.link.application == 0x72991ed96a80f842ull);
  CHECK(link.link.tag == Tag::sampler);
  CHECK(link.link.hash == 0x27ceff9929c09a63ull);
  CHECK(link.hash == 0x0b2676b1d8fe7e9full);
  // Every object of the capture has its link.
  for (const auto& [key, o] : a.objects) {
    if (key.first == Tag::application_info || key.first == Tag::application_blob_link) continue;
    foz::Object l;
    l.tag = Tag::application_blob_link;
    l.link = {0x72991ed96a80f842ull, key.first, key.second};
    CHECK(a.objects.count({Tag::application_blob_link, foz::compute_hash(l, {}, "x")}) == 1);
  }
}

TEST_CASE("foz hash: an application info from fossilize-opt (empty objects) has the null-application hash") {
  foz::Arena arena;
  const foz::Object o =
      foz::parse_payload(R"({"version":6,"applicationInfo":{},"physicalDeviceFeatures":{}})", arena, "x");
  CHECK(o.application == nullptr);
  CHECK(o.features == nullptr);
  // Hasher over u64(0), u64(0): four zero units.
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 4; ++i) h *= 0x100000001b3ull;
  CHECK(o.hash == h);
}

TEST_CASE("foz hash: a graphics pipeline needs its render pass, and state Fossilize ignores does not count") {
  test::ParsedArchive a(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  const foz::Object& p = a.objects.at({Tag::graphics_pipeline, 0xe3b925b0c1c00de1ull});
  CHECK_THROWS_WITH_AS(foz::compute_hash(p, {}, "x.foz: entry"),
                       "x.foz: entry: cannot hash: render pass 2ffdabedb67ac3c1 is not available", libtrace::Error);
  const auto* ci = p.as<VkGraphicsPipelineCreateInfo>();
  auto* rs = const_cast<VkPipelineRasterizationStateCreateInfo*>(ci->pRasterizationState);
  auto* ds = const_cast<VkPipelineDynamicStateCreateInfo*>(ci->pDynamicState);
  REQUIRE(rs);
  REQUIRE(ds);
  const foz::Hash before = foz::compute_hash(p, a.lookup(), "x");
  // Depth bias factors only count when depth bias is on.
  rs->depthBiasClamp = 5.0f;
  CHECK(foz::compute_hash(p, a.lookup(), "x") == before);
  rs->depthBiasEnable = VK_TRUE;
  CHECK(foz::compute_hash(p, a.lookup(), "x") != before);
  rs->depthBiasEnable = VK_FALSE;
  rs->depthBiasClamp = 0.0f;
  // Viewport and scissor are dynamic in vkcube, the line width is not.
  rs->lineWidth = 2.0f;
  CHECK(foz::compute_hash(p, a.lookup(), "x") != before);
  rs->lineWidth = 1.0f;
  CHECK(foz::compute_hash(p, a.lookup(), "x") == before);
}

TEST_CASE("foz hash: flags that do not change the pipeline are normalized away") {
  test::ParsedArchive a(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  const foz::Object& p = a.objects.at({Tag::graphics_pipeline, 0xe3b925b0c1c00de1ull});
  auto* ci = const_cast<VkGraphicsPipelineCreateInfo*>(p.as<VkGraphicsPipelineCreateInfo>());
  ci->flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR | VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
  CHECK(foz::compute_hash(p, a.lookup(), "x") == 0xe3b925b0c1c00de1ull);
  ci->flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT;
  CHECK(foz::compute_hash(p, a.lookup(), "x") != 0xe3b925b0c1c00de1ull);
  CHECK(foz::normalized_pipeline_flags(
            VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR | VK_PIPELINE_CREATE_DERIVATIVE_BIT |
            VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT | 0x80000000ull) == VK_PIPELINE_CREATE_DERIVATIVE_BIT);
}

TEST_CASE("foz hash: a sampler's capture-replay flag does not count, its LOD does") {
  test::ParsedArchive a(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  const foz::Object& s = a.objects.at({Tag::sampler, 0x27ceff9929c09a63ull});
  auto* ci = const_cast<VkSamplerCreateInfo*>(s.as<VkSamplerCreateInfo>());
  ci->flags = VK_SAMPLER_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_EXT;
  CHECK(foz::compute_hash(s, {}, "x") == 0x27ceff9929c09a63ull);
  ci->maxLod = 2.0f;
  CHECK(foz::compute_hash(s, {}, "x") != 0x27ceff9929c09a63ull);
}
