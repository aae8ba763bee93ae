// SPDX-License-Identifier: MIT
#include "libtrace/vma/recording.hpp"

#include <doctest/doctest.h>

#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::vma;

namespace {

std::unique_ptr<Reader> read(const std::string& text, ReaderOptions opt = {}) {
  return std::make_unique<Reader>(std::make_unique<test::MemDecoder>(text, 5), "r.csv", std::move(opt));
}

const std::string kHead18 = "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n";

}  // namespace

TEST_CASE("vma_reader: config section of a real 1.8 recording") {
  InputFile in(test::data("vma/inexor_vma_replays_rst_1.8.csv"));
  Reader r(open_decoder(in), in.name());
  const Config& c = r.header().config;
  CHECK(r.header().version == Version{1, 8});
  CHECK(c.physical_device.at("deviceName") == "GeForce GTX 660M");
  CHECK(c.heaps.size() == 2);
  CHECK(c.types.size() == 11);
  CHECK(c.types[10].property_flags == 14);
  CHECK(c.extensions.at("VK_AMD_device_coherent_memory") == "0");
  std::size_t n = 0;
  while (r.next()) ++n;
  CHECK(n == 36);
}

TEST_CASE("vma_reader: columns, user data with commas, pointer spellings, lists") {
  auto r = read(kHead18 +
                "7,0.5,3,vmaCreateBuffer,0,768,1,0,32,2,0,0,0,(nil),000001D85B8B1A80,a, b,c\n"
                "7,0.5,3,vmaFreeMemoryPages,0x10 0x20 \n"
                "7,0.5,3,vmaDestroyBuffer,000001D85B8B1A80,\n");
  const Call* c = r->next();
  REQUIRE(c);
  CHECK(c->line == 5);
  CHECK(c->thread == 7);
  CHECK(c->frame == 3);
  CHECK(c->function == Function::CreateBuffer);
  CHECK(c->num.size() == 11);
  CHECK(c->num[1] == 768);
  CHECK(c->num[9] == 0);
  CHECK(c->num[10] == 0x000001D85B8B1A80ull);
  CHECK(c->text == "a, b,c");
  c = r->next();
  REQUIRE(c);
  REQUIRE(c->lists.size() == 1);
  CHECK(c->lists[0] == std::vector<std::uint64_t>{0x10, 0x20});
  c = r->next();
  REQUIRE(c);
  CHECK(c->num[0] == 0x000001D85B8B1A80ull);
  CHECK(r->next() == nullptr);
}

TEST_CASE("vma_reader: errors name the line; keep_going counts warnings") {
  auto r = read(kHead18 + "1,0.0,0,vmaCreateAllocator\n1,0.0,0,vmaDestroyBuffer\n");
  REQUIRE(r->next());
  CHECK_THROWS_WITH_AS(r->next(), "r.csv: line 6: vmaDestroyBuffer: too few columns (0 of 1)", Error);

  std::vector<std::string> seen;
  ReaderOptions opt;
  opt.keep_going = true;
  opt.warnings = [&](const std::string& where, const std::string& why) { seen.push_back(where + ": " + why); };
  auto k =
      read(kHead18 +
               "1,0.0,0,vmaCreateAllocator\n1,0.0,0,vmaDestroyBuffer\n1,0.0,0,vmaDestroyAllocator\n1,0.0,0,vmaUnmapMem",
           opt);
  int n = 0;
  while (k->next()) ++n;
  CHECK(n == 2);
  CHECK(k->warnings() == 2);
  REQUIRE(seen.size() == 2);
  CHECK(seen[1] == "r.csv: line 8: last line has no line end (the recording was cut off); dropped");
}

TEST_CASE("vma_reader: the 6-column vmaCreatePool of the last 1.8 recorder") {
  auto r = read(kHead18 + "1,0.0,0,vmaCreatePool,2,0,1024,1,4,00000000000000AA\n");
  const Call* c = r->next();
  REQUIRE(c);
  CHECK(c->num.front() == 2);
  CHECK(c->num.back() == 0xAA);
}

TEST_CASE("vma_reader: warnings and errors come in order with the calls, read ahead or not") {
  // More calls than one batch holds, malformed lines among them.
  std::string text = kHead18;
  for (int i = 0; i < 1000; ++i) {
    text += std::to_string(i) + ",0.5,0,vmaTouchAllocation,0000000000000001\n";
    if (i % 97 == 0) text += "1,0.5,0,vmaTouchAllocation\n";
  }
  text += "1,0.5,0,vmaTouch";
  for (const bool ahead : {false, true}) {
    std::vector<std::string> events;
    ReaderOptions opt;
    opt.keep_going = true;
    opt.read_ahead = ahead;
    opt.warnings = [&](const std::string& where, const std::string&) { events.push_back("warning " + where); };
    auto r = read(text, opt);
    while (const Call* c = r->next()) events.push_back("call " + std::to_string(c->thread));
    CHECK(r->next() == nullptr);
    CHECK(r->warnings() == 12);
    REQUIRE(events.size() == 1012);
    CHECK(events[0] == "call 0");
    CHECK(events[1] == "warning r.csv: line 6");
    CHECK(events[2] == "call 1");
    CHECK(events[99] == "warning r.csv: line 104");
    CHECK(events.back() == "warning r.csv: line 1016");

    opt.keep_going = false;
    auto strict = read(text, opt);
    REQUIRE(strict->next());
    CHECK_THROWS_WITH_AS(strict->next(), "r.csv: line 6: vmaTouchAllocation: too few columns (0 of 1)", Error);
    CHECK(strict->next() == nullptr);
  }
}
