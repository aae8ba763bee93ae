// SPDX-License-Identifier: MIT
// The replay plan: --range and --shard parsing, shards that cover the
// selection exactly once, ranges per type, already-done pipelines, and
// several archives seen as one (on the real archives).
#include <doctest/doctest.h>

#include <filesystem>
#include <set>

#include "foz/foz_test_util.hpp"
#include "replay/foz/plan.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::PipelineType;
using foz::Tag;

TEST_CASE("foz_replay_plan: ranges and shards are parsed strictly") {
  auto r = foz::parse_range("compute:10-20");
  CHECK(r.type == PipelineType::compute);
  CHECK(r.range.first == 10);
  CHECK(r.range.last == 20);
  r = foz::parse_range("7");
  CHECK_FALSE(r.type);
  CHECK(r.range.first == 7);
  CHECK(r.range.last == 7);
  r = foz::parse_range("graphics:5-");
  CHECK(r.range.first == 5);
  CHECK(r.range.last == UINT64_MAX);
  r = foz::parse_range("-3");
  CHECK(r.range.first == 0);
  CHECK(r.range.last == 3);
  for (const char* bad : {"", "-", "3-2", "x", "1-x", "mesh:1-2", "compute:", "1--2", " 1"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(foz::parse_range(bad), libtrace::Error);
  }
  const auto s = foz::parse_shard("2/5");
  CHECK(s.index == 2);
  CHECK(s.count == 5);
  for (const char* bad : {"5/5", "1/0", "1", "a/b", "-1/3", "1/3/4"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(foz::parse_shard(bad), libtrace::Error);
  }
  CHECK(foz::parse_pipeline_type("raytracing") == PipelineType::raytracing);
  CHECK_FALSE(foz::parse_pipeline_type("mesh"));
}

TEST_CASE("foz_replay_plan: the shards of any selection are contiguous, disjoint, near-equal and cover it") {
  for (std::uint64_t n : {0ull, 1ull, 2ull, 7ull, 100ull, 1500ull, 4294967311ull}) {
    for (std::uint64_t parts : {1ull, 2ull, 3ull, 16ull, 1000ull}) {
      std::uint64_t expect_begin = 0;
      for (std::uint64_t i = 0; i < parts; ++i) {
        const auto [b, e] = foz::detail::shard_bounds({i, parts}, n);
        CHECK(b == expect_begin);
        CHECK(e >= b);
        CHECK(e - b <= n / parts + 1);
        CHECK(e - b >= n / parts);
        expect_begin = e;
      }
      CHECK(expect_begin == n);
    }
  }
}

TEST_CASE("foz_replay_plan: synth_compute's 1500 compute pipelines, by range, shard and done set") {
  const std::string path = test::data("foz/synth_compute.foz");
  const foz::detail::Sources src({path}, {});
  auto plan = foz::detail::make_plan(src, {}, {}, nullptr);
  REQUIRE(plan.items.size() == 1500);
  CHECK(plan.counts[1].total == 1500);
  CHECK(plan.counts[0].total == 0);
  CHECK(plan.in_archives[1] == 1500);
  for (std::size_t i = 0; i < plan.items.size(); ++i) {
    CHECK(plan.items[i].index == i);
    CHECK(plan.items[i].type == PipelineType::compute);
    if (i) CHECK(plan.items[i - 1].hash < plan.items[i].hash);  // Fossilize's ascending order
  }
  const auto all = plan.items;

  // Ranges: per type, adding up; a graphics range leaves compute alone.
  plan =
      foz::detail::make_plan(src, {foz::parse_range("compute:10-19"), foz::parse_range("compute:15-24")}, {}, nullptr);
  REQUIRE(plan.items.size() == 15);
  CHECK(plan.items.front().index == 10);
  CHECK(plan.items.back().index == 24);
  plan = foz::detail::make_plan(src, {foz::parse_range("graphics:0-3")}, {}, nullptr);
  CHECK(plan.items.size() == 1500);
  plan = foz::detail::make_plan(src, {foz::parse_range("1490-")}, {}, nullptr);
  CHECK(plan.items.size() == 10);

  // Shards of a range: their union is the range, each pipeline once.
  std::set<std::uint64_t> seen;
  for (std::uint64_t i = 0; i < 7; ++i) {
    plan = foz::detail::make_plan(src, {foz::parse_range("100-199")}, {i, 7}, nullptr);
    CHECK(plan.counts[1].total == plan.items.size());
    for (const auto& it : plan.items) {
      CHECK(it.index >= 100);
      CHECK(it.index <= 199);
      CHECK(seen.insert(it.hash).second);
    }
  }
  CHECK(seen.size() == 100);

  // Already done: counted, not listed.
  struct Some final : foz::detail::DoneSet {
    std::set<std::uint64_t> h;
    bool contains(Tag t, std::uint64_t hash) const override { return t == Tag::compute_pipeline && h.count(hash); }
  } done;
  done.h = {all[3].hash, all[4].hash, all[1000].hash};
  plan = foz::detail::make_plan(src, {foz::parse_range("0-9")}, {}, &done);
  CHECK(plan.counts[1].total == 10);
  CHECK(plan.counts[1].already_done == 2);
  CHECK(plan.items.size() == 8);
}

TEST_CASE("foz_replay_plan: several archives are one: union of hashes, first archive wins") {
  const foz::detail::Sources src(
      {test::data("foz/vkcube.72991ed96a80f842.1.foz"), test::data("foz/edge/truncated_header.foz"),
       test::data("foz/vkcube.72991ed96a80f842.1.foz")},
      {});
  const auto g = src.hashes(Tag::graphics_pipeline);
  CHECK(g.size() == 144);  // vkcube's one + the capture's 143 readable
  CHECK(std::is_sorted(g.begin(), g.end()));
  const auto f = src.find(Tag::graphics_pipeline, 0xe3b925b0c1c00de1ull);
  REQUIRE(f);
  CHECK(f.reader == src.readers().front().get());
  CHECK_FALSE(src.find(Tag::graphics_pipeline, 0x1234));
  CHECK_THROWS_AS(foz::detail::Sources({}, {}), libtrace::Error);
  CHECK_THROWS_AS(foz::detail::Sources({"/nonexistent.foz"}, {}), libtrace::Error);
}

TEST_CASE("foz_replay_plan: pipelines chosen by hash, of any type, and nothing else") {
  const foz::detail::Sources src({test::data("foz/vkcube.72991ed96a80f842.1.foz"), test::data("foz/synth_compute.foz")},
                                 {});
  const auto compute = src.hashes(Tag::compute_pipeline);
  REQUIRE(compute.size() == 1500);
  const std::vector<std::uint64_t> only = {compute[700], 0xe3b925b0c1c00de1ull, compute[3], 0x1234};
  const auto plan = foz::detail::make_plan(src, {}, {}, nullptr, &only);
  REQUIRE(plan.items.size() == 3);
  CHECK(plan.items[0].type == PipelineType::graphics);
  CHECK(plan.items[0].hash == 0xe3b925b0c1c00de1ull);
  CHECK(plan.items[1].index == 3);
  CHECK(plan.items[2].index == 700);
  CHECK(plan.counts[0].total == 1);
  CHECK(plan.counts[1].total == 2);
  const std::vector<std::uint64_t> none = {0x1234};
  CHECK(foz::detail::make_plan(src, {}, {}, nullptr, &none).items.empty());
}
