// SPDX-License-Identifier: MIT
#include "../../libtrace/src/vma_source.hpp"

#include <doctest/doctest.h>

#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::vma;
using namespace libtrace::vma::detail;

TEST_CASE("vma_source: batches of calls, with their warnings where they are due") {
  std::string text = "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nBogus,1\nConfig,End\n";
  for (int i = 0; i < 300; ++i) text += std::to_string(i) + ",0.5,0,vmaMapMemory," + (i == 3 ? "x" : "0000000000000001") + "\n";
  text += "7,0.5,0,vmaUnmapMem";
  ReaderOptions opt;
  opt.keep_going = true;
  std::vector<std::string> header_warnings;
  opt.warnings = [&](const std::string& where, const std::string& why) { header_warnings.push_back(where + ": " + why); };
  // Blocks of 7 bytes: most lines straddle two.
  Source src(std::make_unique<test::MemDecoder>(text, 7), "r.csv", opt);
  REQUIRE(header_warnings.size() == 1);
  CHECK(header_warnings[0] == "r.csv: line 4: unknown Config option 'Bogus' kept as is");
  CHECK(src.header_warnings() == 1);

  Batch b;
  src.fill(b);
  CHECK(b.count == Batch::kCalls);
  CHECK_FALSE(b.last);
  CHECK_FALSE(b.error);
  CHECK(b.calls[0].line == 6);
  CHECK(b.calls[3].thread == 4);  // the line with thread 3 was dropped
  REQUIRE(b.notes.size() == 1);
  CHECK(b.notes[0].before == 3);
  CHECK(b.notes[0].where == "r.csv: line 9");
  CHECK(b.lines == 6 + Batch::kCalls);

  src.fill(b);
  CHECK(b.count == 299 - Batch::kCalls);
  CHECK(b.last);
  CHECK_FALSE(b.error);
  REQUIRE(b.notes.size() == 1);
  CHECK(b.notes[0].before == b.count);
  CHECK(b.notes[0].why == "last line has no line end (the recording was cut off); dropped");
  CHECK(header_warnings.size() == 1);  // batch warnings are the reader's to pass on
}

TEST_CASE("vma_source: an error ends the batch after the calls before it") {
  const std::string text = "Vulkan Memory Allocator,Calls recording\n1,2\n1,0.5,0,vmaCreateAllocator\n1,x,0,vmaCreateAllocator\n"
                           "1,0.5,0,vmaDestroyAllocator\n";
  Source src(std::make_unique<test::MemDecoder>(text, 4096), "r.csv", ReaderOptions{});
  Batch b;
  src.fill(b);
  CHECK(b.count == 1);
  CHECK(b.last);
  REQUIRE(b.error);
  CHECK_THROWS_WITH_AS(std::rethrow_exception(b.error), "r.csv: line 4: bad time", Error);
}
