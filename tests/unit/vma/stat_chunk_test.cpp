// SPDX-License-Identifier: MIT
#include "vma/stat_chunk.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::vma;
using namespace libtrace::vma::detail;

namespace {

// The chunk after the header of `calls`.
ChunkStats count(const std::string& calls, bool keep_going) {
  const std::string text =
      "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nPhysicalDeviceMemory,HeapCount,1\n"
      "PhysicalDeviceMemory,TypeCount,1\nPhysicalDeviceMemory,Type,0,propertyFlags,1\nConfig,End\n" +
      calls;
  Source src(std::make_unique<test::MemDecoder>(text, 1 << 20), "r.csv", ReaderOptions{});
  Chunk c;
  REQUIRE(src.next_chunk(c));
  TypeCache types;
  ChunkStats s;
  count_chunk(c, src.header(), keep_going, types, s);
  return s;
}

}  // namespace

TEST_CASE("vma_stat_chunk: counts, and events for what depends on earlier lines") {
  const ChunkStats s = count(
      "5,0.010,0,vmaCreateBuffer,0,100,1,0,0,1,0,0,0,0000000000000000,00000000000000A0,my data\n"
      "6,0.008,0,vmaCreatePool,0,0,4096,1,2,0,00000000000000B0\n"
      "\n"
      "5,0.020,1,vmaCreateBuffer,0,5000,1,0,0,1,0,0,0,00000000000000B0,0000000000000000,\n"
      "5,0.030,1,vmaFreeMemoryPages,00000000000000A0 0000000000000000 00000000000000C0\n"
      "6,0.040,2,vmaSetPoolName,00000000000000B0,pool, one\n",
      false);
  CHECK(s.lines == 6);
  CHECK(s.calls == 5);
  CHECK(s.calls_per_function[static_cast<std::size_t>(Function::CreateBuffer)] == 2);
  auto threads = s.threads;
  std::sort(threads.begin(), threads.end());
  CHECK(threads == std::vector<std::pair<std::uint32_t, std::uint64_t>>{{5, 3}, {6, 2}});
  CHECK(s.frames == std::vector<std::uint32_t>{0, 1, 2});
  CHECK(s.first_time == 0.010);
  CHECK(s.last_time == 0.040);
  CHECK(s.max_time == 0.040);
  CHECK(s.time_steps_back == 1);
  CHECK(s.failed_creations == 1);  // the buffer with a null allocation
  CHECK(s.allocations_created == 1);
  CHECK(s.size_histogram[6] == 1);  // 100 bytes
  REQUIRE(s.events.size() == 5);
  CHECK(s.events[0].kind == EventKind::create);
  CHECK(s.events[0].line == 1);
  CHECK(s.events[0].ptr == 0xA0);
  CHECK(s.events[0].bytes == 100);
  CHECK(s.events[0].type == 0);  // resolved: no pool
  auto text = [&](const Event& e) {
    REQUIRE(e.aux);
    return s.texts.substr(s.aux[e.aux].text_at, s.aux[e.aux].text_size);
  };
  CHECK(text(s.events[0]) == "my data");
  CHECK(s.events[1].kind == EventKind::pool_create);
  CHECK(s.events[1].bytes == 4096);
  REQUIRE(s.events[1].aux);
  CHECK(s.aux[s.events[1].aux].max_blocks == 2);
  CHECK(s.events[2].kind == EventKind::destroy);  // the null page is no event
  CHECK(s.events[2].line == 5);
  CHECK(s.events[3].ptr == 0xC0);
  CHECK(s.events[4].kind == EventKind::pool_name);
  CHECK(text(s.events[4]) == "pool, one");
  CHECK_FALSE(s.error);
}

TEST_CASE("vma_stat_chunk: a bad line ends the chunk, or is a note with keep_going") {
  const std::string calls = "1,0.1,0,vmaCreateAllocator\n1,0.1,0,vmaTouchAllocation,zz\n1,0.2,0,vmaDestroyAllocator\n";
  const ChunkStats strict = count(calls, false);
  CHECK(strict.calls == 1);
  REQUIRE(strict.error);
  CHECK(strict.error->line == 2);
  CHECK(strict.error->why == "vmaTouchAllocation: bad pointer 'zz' in column 5");
  const ChunkStats lenient = count(calls, true);
  CHECK(lenient.calls == 2);
  CHECK(lenient.lines == 3);
  REQUIRE(lenient.notes.size() == 1);
  CHECK(lenient.notes[0].line == 2);
  CHECK(lenient.notes[0].why == "vmaTouchAllocation: bad pointer 'zz' in column 5; line skipped");
}
