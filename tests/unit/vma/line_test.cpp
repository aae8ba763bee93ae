// SPDX-License-Identifier: MIT
#include "vma/line.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "test_util.hpp"

using namespace libtrace::vma;
using namespace libtrace::vma::detail;

namespace {

bool same(const Call& a, const Call& b) {
  return a.thread == b.thread && a.time == b.time && a.frame == b.frame && a.function == b.function && a.num == b.num &&
         a.lists == b.lists && a.text == b.text && a.has_text == b.has_text;
}

// What the reader would do with one line (its '\n' included): the fast parser,
// else the reference parser. Checks that the fast parser only accepts what
// the reference parser accepts, with the same call, and returns whether it
// accepted.
bool fast_agrees(const std::string& line_nl, Version v = Version{1, 8}) {
  Call fast, ref;
  const char* begin = line_nl.data();
  const char* after = parse_call_fast(begin, begin + line_nl.size(), v, fast);
  std::string_view line(line_nl);
  line = line.substr(0, line.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const auto why = parse_call(line, v, ref);
  if (!after) return false;
  CHECK_MESSAGE(!why, line_nl);
  CHECK_MESSAGE(same(fast, ref), line_nl);
  CHECK(after == begin + line_nl.find('\n') + 1);
  return true;
}

}  // namespace

TEST_CASE("vma_line: the fast parser takes the lines real recordings are made of") {
  CHECK(fast_agrees("12552,0.000,0,vmaCreateAllocator\n"));
  CHECK(fast_agrees("12552,0.000,0,vmaCreateAllocator\r\n"));
  CHECK(fast_agrees(
      "12560,0.003,0,vmaCreateBuffer,0,131072,128,0,32,3,0,0,0,0000000000000000,000001D85B8B0090,00000000DEADBEEF\n"));
  CHECK(fast_agrees("12560,0.003,0,vmaCreateBuffer,0,131072,128,0,32,3,0,0,0,0000000000000000,000001D85B8B0090,\n"));
  CHECK(fast_agrees(
      "12560,0.003,0,vmaCreateBuffer,0,131072,128,0,32,3,0,0,0,0000000000000000,000001D85B8B0090,a, b ,c\r\n"));
  CHECK(fast_agrees(
      "12556,0.002,0,vmaCreateImage,0,1,126,256,256,1,5,1,1,0,32,0,0,0,1,0,0,0,0000000000000000,000001D85B8B0090,\n"));
  CHECK(fast_agrees(
      "12560,0.004,0,vmaAllocateMemoryForBuffer,65536,256,15,1,1,0,1,0,0,0,0000000000000000,000001D85B8B0090,\n"));
  CHECK(fast_agrees(
      "1,0.5,0,vmaAllocateMemoryPages,65536,256,15,0,1,0,0,0,0000000000000000,00000000000000A0 00000000000000B0,\n"));
  CHECK(fast_agrees("1,0.5,0,vmaFreeMemoryPages,00000000000000A0 00000000000000B0\n"));
  CHECK(fast_agrees("1,0.5,0,vmaFreeMemoryPages,0x10  0x20 \n"));
  CHECK(
      fast_agrees("1,0.5,0,vmaDefragmentationBegin,0,000001D85B8E9900 "
                  "000001D85B8E2688,,18446744073709551615,4294967295,0,0,0000000000000000,0000000000000000\n"));
  CHECK(fast_agrees("1,0.5,0,vmaFlushAllocation,(nil),0,18446744073709551615\n"));
  CHECK(fast_agrees("1,0.5,0,vmaDestroyBuffer,000001D85B8B1A80,\n"));
  CHECK(fast_agrees("1,0.5,0,vmaSetPoolName,000001D85B8B1A80,Pool 1, generated\n"));
  CHECK(fast_agrees("1,0.5,0,vmaSetAllocationUserData,000001D85B8B1A80\n"));
  CHECK(fast_agrees("1,0.0,0,vmaCreatePool,2,0,1024,1,4,00000000000000AA\n"));
  CHECK(fast_agrees("1,0.0,0,vmaCreatePool,2,0,1024,1,4,0,00000000000000AA\n"));
  CHECK(fast_agrees("1,0.0,0,vmaCreatePool,2,0,1024,1,4,0,00000000000000AA\n", Version{1, 7}));
  CHECK(fast_agrees("1,0.0,0,vmaResizeAllocation,00000000000000AA,5\n", Version{1, 4}));
}

TEST_CASE("vma_line: the fast parser leaves malformed and unusual lines to the reference parser") {
  for (const char* line : {
           "\n",
           " \n",
           "\r\n",
           "x,0.1,0,vmaDestroyAllocator\n",
           "1,0.1,0,vmaFrobnicate,1\n",
           "1,0.0,0,vmaDestroyBuffer\n",
           "1,0.0,0,vmaDestroyBuffer,0000000000000001,2\n",
           "1,0.0,0,vmaDestroyBuffer,0000000000000001,,\n",
           "1,0.0,0,vmaDestroyBuffer,0000000000000001, \t\n",
           "1,0.0,0,vmaCreateAllocator \n",
           "1,0.0,0,vmaCreateAllocator\r\r\n",
           "1,-0.5,0,vmaCreateAllocator\n",
           "1,1e3,0,vmaCreateAllocator\n",
           "4294967296,0.0,0,vmaCreateAllocator\n",
           "1,0.0,4294967296,vmaCreateAllocator\n",
           "1,0.0,0,vmaCreatePool,2,0,1024,1,4,0,0x1,x\n",
           "1,0.0,0,vmaMapMemory,0000000000000001\r0\n",
           "1,0.0,0,vmaFreeMemoryPages,0000000000000001\r0000000000000002\n",
           "1,0.5,0,vmaAllocateMemoryForImage,65536,256,15,2,1,0,1,0,0,0,0000000000000000,000001D85B8B0090,\n",
           "1,0.5,0,vmaFlushAllocation,0000000000000001,0,18446744073709551616\n",
       }) {
    Call c;
    const std::string s = line;
    CHECK_FALSE_MESSAGE(parse_call_fast(s.data(), s.data() + s.size(), Version{1, 8}, c), line);
  }
  // Functions outside the file's version.
  CHECK_FALSE(fast_agrees("1,0.0,0,vmaResizeAllocation,00000000000000AA,5\n"));
  CHECK_FALSE(fast_agrees("1,0.0,0,vmaFreeMemory,00000000000000AA\n", Version{1, 0}));
}

TEST_CASE("vma_line: on mutated lines the fast parser accepts only what the reference parser accepts") {
  const std::vector<std::string> seeds = {
      "12560,0.003,0,vmaCreateBuffer,0,131072,128,0,32,3,0,0,0,0000000000000000,000001D85B8B0090,00000000DEADBEEF\n",
      "12556,0.002,0,vmaCreateImage,0,1,126,256,256,1,5,1,1,0,32,0,0,0,1,0,0,0,0000000000000000,000001D85B8B0090,\n",
      "1,0.5,0,vmaFreeMemoryPages,00000000000000A0 00000000000000B0\n",
      "1,0.5,0,vmaDefragmentationBegin,0,000001D85B8E9900 "
      "0x2688,,18446744073709551615,4294967295,0,0,(nil),0000000000000000\n",
      "1,0.0,0,vmaCreatePool,2,0,1024,1,4,00000000000000AA\n",
      "1,0.5,0,vmaAllocateMemoryForImage,65536,256,15,1,0,0,1,0,0,0,0000000000000000,000001D85B8B0090,x\r\n",
  };
  std::mt19937_64 rng(11);
  int accepted = 0;
  for (int i = 0; i < 40000; ++i) {
    const std::string line = test::mutate_vma_line(seeds[rng() % seeds.size()], rng);
    accepted += fast_agrees(line);
  }
  CHECK(accepted > 1000);  // the check above had something to compare
}

TEST_CASE("vma_line: times are finite decimal seconds") {
  double t = 0;
  CHECK(parse_time("12.345", t));
  CHECK(t == 12.345);
  // std::from_chars reads these; no recorder writes them, and neither a
  // duration nor a JSON number can hold them.
  for (const char* bad : {"inf", "-inf", "infinity", "nan", "nan(1)", "1e400", ""})
    CHECK_MESSAGE(!parse_time(bad, t), bad);
  Call c;
  CHECK(parse_call("1,inf,0,vmaCreateAllocator", Version{1, 8}, c) == "bad time");
  // A Config section under a version line that has none.
  CHECK(parse_call("Config,Begin", Version{1, 2}, c)->find("has no Config section") != std::string::npos);
}
