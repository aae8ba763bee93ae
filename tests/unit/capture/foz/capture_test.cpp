// SPDX-License-Identifier: MIT
// The capture layer's recording half, without a device: the entries of an
// archive are handed to FozCapture as the live create infos an application
// would pass (handles where the archive has hashes), in file order. What it
// records must be the same entries, with the same payloads, in the same order.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "capture/foz/capture.hpp"
#include "capture/foz/recorder.hpp"
#include "libtrace/foz/archive.hpp"
#include "libtrace/foz/object.hpp"
#include "test_util.hpp"

namespace {

using namespace libtrace;
using foz::Hash;
using foz::Tag;

// Any value but the hash itself, so that a handle the capture failed to map
// shows up as a wrong hash.
std::uint64_t handle_of(Hash h) { return ~h; }

void feed(capture::FozCapture& cap, const foz::Object& o) {
  for (const foz::Reference& r : o.references) {
    const std::uint64_t h = handle_of(r.hash);
    std::memcpy(r.handle, &h, sizeof h);
  }
  const std::uint64_t self = handle_of(o.hash);
  switch (o.tag) {
    case Tag::sampler: cap.sampler(*o.as<VkSamplerCreateInfo>(), foz::handle_from_hash<VkSampler>(self)); break;
    case Tag::descriptor_set_layout:
      cap.set_layout(*o.as<VkDescriptorSetLayoutCreateInfo>(), foz::handle_from_hash<VkDescriptorSetLayout>(self));
      break;
    case Tag::pipeline_layout:
      cap.pipeline_layout(*o.as<VkPipelineLayoutCreateInfo>(), foz::handle_from_hash<VkPipelineLayout>(self));
      break;
    case Tag::shader_module:
      cap.shader_module(*o.as<VkShaderModuleCreateInfo>(), foz::handle_from_hash<VkShaderModule>(self));
      break;
    case Tag::render_pass: cap.render_pass(o.create_info, foz::handle_from_hash<VkRenderPass>(self)); break;
    default: {
      capture::PreparedPipelines p = cap.prepare(o.tag, o.create_info, 1);
      const VkPipeline made = foz::handle_from_hash<VkPipeline>(self);
      cap.created(p, &made, 1);
    }
  }
}

using Entries = std::vector<std::pair<std::pair<Tag, Hash>, std::vector<std::uint8_t>>>;

Entries entries_of(const std::string& path) {
  foz::ArchiveReader r(path);
  Entries out;
  for (const foz::Entry& e : r.entries()) {
    std::vector<std::uint8_t> payload;
    r.read_payload(e, payload);
    out.push_back({{e.tag, e.hash}, std::move(payload)});
  }
  return out;
}

// Records every object of `source` through a FozCapture and returns what
// the recorder wrote.
std::string capture_again(const std::string& source, const test::ScratchDir& dir) {
  foz::ArchiveReader src(source);
  foz::Arena arena;
  const auto& all = src.entries();
  // The archive's application info, or (an archive without one) what a
  // device created without an application info and features records.
  const auto app_entry =
      std::find_if(all.begin(), all.end(), [](const foz::Entry& e) { return e.tag == Tag::application_info; });
  foz::Object app;
  if (app_entry != all.end()) {
    const auto bytes = src.read_payload(Tag::application_info, app_entry->hash);
    app = foz::parse_payload({reinterpret_cast<const char*>(bytes.data()), bytes.size()}, arena, "app");
    app.hash = foz::compute_hash(app, {}, "app");
    REQUIRE(app.hash == app_entry->hash);
  } else {
    app = foz::application_object(nullptr, VkDeviceCreateInfo{}, arena);
  }
  {
    auto recorder = std::make_shared<capture::FozRecorder>(capture::RecorderOptions{dir / "cap", ""}, app);
    capture::FozCapture cap(recorder);
    for (const foz::Entry& e : all) {
      if (e.tag == Tag::application_info || e.tag == Tag::application_blob_link) continue;
      const auto bytes = src.read_payload(e.tag, e.hash);
      feed(cap, foz::parse_payload({reinterpret_cast<const char*>(bytes.data()), bytes.size()}, arena, "entry"));
    }
    recorder->stop();
  }
  return dir / ("cap." + foz::hash_hex(app.hash) + ".1.foz");
}

}  // namespace

TEST_CASE("capture: Fossilize's own capture of vkcube, fed back as live create infos, comes out the same") {
  test::ScratchDir dir;
  const std::string source = test::data("foz/vkcube.72991ed96a80f842.1.foz");
  const Entries want = entries_of(source), got = entries_of(capture_again(source, dir));
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("entry " << i << ": " << foz::describe_entry(want[i].first.first, want[i].first.second));
    CHECK(got[i].first == want[i].first);  // order too: link, then object, dependencies first
    CHECK(got[i].second == want[i].second);
  }
}

TEST_CASE("capture: ray-tracing and compute pipelines and their layouts are recorded with their hashes") {
  for (const char* name : {"foz/raytracing/raytracing.foz", "foz/synth_compute.foz"}) {
    INFO(name);
    test::ScratchDir dir;
    const std::string source = test::data(name);
    Entries want = entries_of(source), got = entries_of(capture_again(source, dir));
    // The sources keep no links, or others; compare the objects.
    const auto objects = [](Entries e) {
      std::map<std::pair<Tag, Hash>, std::vector<std::uint8_t>> m;
      for (auto& [k, v] : e)
        if (k.first != Tag::application_blob_link && k.first != Tag::application_info) m.emplace(k, std::move(v));
      return m;
    };
    const auto w = objects(std::move(want)), g = objects(std::move(got));
    CHECK(w.size() == g.size());
    for (const auto& [k, v] : w) {
      INFO(foz::describe_entry(k.first, k.second));
      const auto it = g.find(k);
      REQUIRE(it != g.end());
      CHECK(it->second == v);
    }
  }
}
