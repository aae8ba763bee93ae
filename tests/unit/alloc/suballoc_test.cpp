// SPDX-License-Identifier: MIT
#include "libtrace/alloc/suballoc.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "alloc/suballoc_util.hpp"

using namespace libtrace::alloc;

namespace {

std::uint64_t put(BlockMetadata& b, std::uint64_t size, std::uint64_t align, Kind kind = Kind::buffer) {
  const auto off = b.find(size, align, kind);
  REQUIRE(off);
  b.allocate(*off, size, kind, nullptr);
  REQUIRE(b.validate() == "");
  return *off;
}

}  // namespace

TEST_CASE("vma_suballoc: the granularity rules are VMA's") {
  CHECK_FALSE(granularity_conflict(Kind::free, Kind::image_optimal));
  CHECK(granularity_conflict(Kind::unknown, Kind::buffer));
  CHECK(granularity_conflict(Kind::buffer, Kind::image_optimal));
  CHECK(granularity_conflict(Kind::image_optimal, Kind::buffer));
  CHECK(granularity_conflict(Kind::buffer, Kind::image_unknown));
  CHECK_FALSE(granularity_conflict(Kind::buffer, Kind::buffer));
  CHECK_FALSE(granularity_conflict(Kind::buffer, Kind::image_linear));
  CHECK(granularity_conflict(Kind::image_linear, Kind::image_optimal));
  CHECK_FALSE(granularity_conflict(Kind::image_optimal, Kind::image_optimal));
  CHECK(granularity_conflict(Kind::image_unknown, Kind::image_unknown));
}

TEST_CASE("vma_suballoc: offsets honour alignment and allocations pack") {
  BlockMetadata b(1 << 20, 1);
  CHECK(put(b, 100, 1) == 0);
  CHECK(put(b, 100, 256) == 256);  // 100 rounded up to the alignment
  CHECK(put(b, 8, 4) == 100);      // the gap the alignment left is the best fit
  CHECK(put(b, 4096, 4096) == 4096);
  CHECK(b.used() == 100 + 100 + 8 + 4096);
  CHECK(b.allocation_count() == 4);
  CHECK(b.free_range_count() == 3);  // [108,256), [356,4096), [8192,end)
  CHECK(b.largest_free_range() == (1 << 20) - 8192);
  CHECK(put(b, 140, 2) == 108);
  CHECK(put(b, 150, 2) == 356);  // too big for what is left of the first gap
}

TEST_CASE("vma_suballoc: best fit takes the smallest free range that holds the allocation") {
  BlockMetadata b(10000, 1);
  const auto a = put(b, 1000, 1), gap1 = put(b, 500, 1), c = put(b, 1000, 1), gap2 = put(b, 200, 1),
             e = put(b, 1000, 1);
  b.free(gap1);
  b.free(gap2);
  CHECK(a == 0);
  CHECK(c == 1500);
  CHECK(e == 2700);
  CHECK(put(b, 150, 1) == gap2);  // 200-byte hole, not the 500-byte one
  CHECK(put(b, 300, 1) == gap1);
  CHECK(put(b, 5000, 1) == 3700);
  CHECK_FALSE(b.find(2000, 1, Kind::buffer));  // 1300 bytes left at the end
}

TEST_CASE("vma_suballoc: freeing coalesces with both neighbours") {
  BlockMetadata b(4096, 1);
  const auto x = put(b, 1024, 1), y = put(b, 1024, 1), z = put(b, 1024, 1);
  CHECK(b.free_range_count() == 1);
  b.free(x);
  b.free(z);
  CHECK(b.free_range_count() == 2);  // [0,1024) and [2048,4096)
  b.free(y);
  CHECK(b.validate() == "");
  CHECK(b.free_range_count() == 1);
  CHECK(b.largest_free() == 4096);
  CHECK(b.empty());
  CHECK(put(b, 4096, 4096) == 0);
}

TEST_CASE("vma_suballoc: a buffer and an optimal image never share a granularity page") {
  BlockMetadata b(1 << 20, 1024);
  CHECK(put(b, 100, 16, Kind::buffer) == 0);
  // The image would start on the buffer's page: pushed to the next one.
  CHECK(put(b, 100, 16, Kind::image_optimal) == 1024);
  // Buffers side by side are fine, before the image's page.
  CHECK(put(b, 100, 16, Kind::buffer) == 112);
  // An image cannot follow the buffer on page 0: it goes beside the other
  // image, on page 1.
  CHECK(put(b, 100, 16, Kind::image_optimal) == 1136);
  CHECK(put(b, 100, 16, Kind::buffer) == 224);
  // Linear images may sit next to buffers.
  CHECK(put(b, 100, 16, Kind::image_linear) == 336);
  // Too big for the rest of page 0, and a buffer cannot follow the images
  // on page 1.
  CHECK(put(b, 700, 16, Kind::buffer) == 2048);
}

TEST_CASE("vma_suballoc: a place whose end page holds a conflicting resource is refused") {
  BlockMetadata c(8192, 1024);
  const auto x = put(c, 1536, 1, Kind::image_optimal);
  CHECK(x == 0);
  CHECK(put(c, 512, 1, Kind::image_optimal) == 1536);  // images may share a page
  c.free(x);
  // In [0,1536) a 1200-byte buffer would end on the image's page.
  CHECK(put(c, 1200, 1, Kind::buffer) == 2048);
  CHECK(put(c, 1000, 1, Kind::buffer) == 0);  // ends on page 0: fine
}

TEST_CASE("vma_suballoc: granularity 1 or a non-power of two means no pages") {
  BlockMetadata b(4096, 3);
  CHECK(b.granularity() == 1);
  CHECK(put(b, 10, 1, Kind::buffer) == 0);
  CHECK(put(b, 10, 1, Kind::image_optimal) == 10);
}

TEST_CASE("vma_suballoc: exhaustion, zero sizes and a full block") {
  BlockMetadata b(1024, 1);
  CHECK_FALSE(b.find(0, 1, Kind::buffer));
  CHECK_FALSE(b.find(1025, 1, Kind::buffer));
  CHECK(put(b, 1024, 1) == 0);
  CHECK_FALSE(b.find(1, 1, Kind::buffer));
  CHECK(b.free_range_count() == 0);
  CHECK(b.largest_free() == 0);
  BlockMetadata odd(1000, 1);
  CHECK(put(odd, 10, 1) == 0);
  CHECK_FALSE(odd.find(100, 1024, Kind::buffer));  // alignment pushes past the end
}

TEST_CASE("vma_suballoc: resize in place grows into free space and shrinks") {
  BlockMetadata b(4096, 1);
  const auto a = put(b, 1000, 1);
  const auto c = put(b, 1000, 1);
  CHECK_FALSE(b.resize(a, 1500));  // c follows directly
  CHECK(b.resize(c, 3000));
  CHECK(b.validate() == "");
  CHECK(b.used() == 4000);
  CHECK(b.resize(c, 100));
  CHECK(b.validate() == "");
  CHECK(b.used() == 1100);
  CHECK(b.largest_free() == 4096 - 1100);
  CHECK_FALSE(b.resize(12345, 10));
}

TEST_CASE("vma_suballoc: random allocations and frees keep every invariant") {
  std::mt19937_64 rng(7);
  BlockMetadata b(64 << 20, 4096);
  struct Live {
    std::uint64_t offset, size, align;
    Kind kind;
  };
  std::vector<Live> live;
  std::uint64_t failures = 0;
  for (int i = 0; i < 20000; ++i) {
    if (!test::free_some(b, live, rng, 45)) {
      const std::uint64_t size = 1 + rng() % (1 << (rng() % 20));
      const std::uint64_t align = 1ull << (rng() % 13);
      const Kind kind = static_cast<Kind>(1 + rng() % 5);
      const auto off = b.find(size, align, kind);
      if (!off) {
        ++failures;
        continue;
      }
      CHECK(*off % align == 0);
      b.allocate(*off, size, kind, nullptr);
      live.push_back({*off, size, align, kind});
    }
    if (i % 1000 == 0) {
      REQUIRE(b.validate() == "");
      // Nothing larger than the largest free range fits.
      CHECK_FALSE(b.find(b.largest_free_range() + 1, 1, Kind::buffer));
    }
  }
  REQUIRE(b.validate() == "");
  // No two live allocations overlap, and none that conflict share a page.
  std::sort(live.begin(), live.end(), [](const Live& x, const Live& y) { return x.offset < y.offset; });
  for (std::size_t i = 1; i < live.size(); ++i) {
    CHECK(live[i - 1].offset + live[i - 1].size <= live[i].offset);
    const bool same = align_down(live[i - 1].offset + live[i - 1].size - 1, 4096) == align_down(live[i].offset, 4096);
    if (same) CHECK_FALSE(granularity_conflict(live[i - 1].kind, live[i].kind));
  }
  for (const Live& l : live) b.free(l.offset);
  CHECK(b.empty());
  CHECK(b.free_range_count() == 1);
  CHECK(b.validate() == "");
}

TEST_CASE("vma_suballoc: find_evicting picks the cheapest window of free and evictable ranges") {
  BlockMetadata b(4096, 1);
  int a = 1, keep = 2, c = 3, d = 4;
  b.allocate(0, 1024, Kind::buffer, &a);
  b.allocate(1024, 1024, Kind::buffer, &keep);
  b.allocate(2048, 512, Kind::buffer, &c);
  b.allocate(2560, 512, Kind::buffer, &d);
  REQUIRE(b.validate() == "");
  auto evictable = [&](void* u) { return u != &keep; };
  std::vector<void*> victims;
  std::uint64_t cost = 0;
  // 2048 bytes: not across `keep`; from 2048 it costs c and d (1024 bytes).
  auto off = b.find_evicting(Request{2048, 1, Kind::buffer}, evictable, victims, cost);
  REQUIRE(off);
  CHECK(*off == 2048);
  CHECK(cost == 1024);
  CHECK(victims == std::vector<void*>{&c, &d});
  // 1024 bytes: the free tail costs nothing.
  off = b.find_evicting(Request{1024, 1, Kind::buffer}, evictable, victims, cost);
  REQUIRE(off);
  CHECK(*off == 3072);
  CHECK(cost == 0);
  CHECK(victims.empty());
  // 1536 bytes: [2560, 4096) costs only d.
  off = b.find_evicting(Request{1536, 512, Kind::buffer}, evictable, victims, cost);
  REQUIRE(off);
  CHECK(*off == 2560);
  CHECK(victims == std::vector<void*>{&d});
  // Nothing may pass `keep`, and 3072 bytes do not fit beside it.
  CHECK_FALSE(b.find_evicting(Request{3072, 1, Kind::buffer}, evictable, victims, cost));
  CHECK(victims.empty());
}

TEST_CASE("vma_suballoc: an alignment larger than the block leaves only offset 0") {
  BlockMetadata b(4096, 1);
  CHECK(put(b, 16, 1ull << 40) == 0);
  CHECK_FALSE(b.find(16, 1ull << 40, Kind::buffer));
  CHECK_FALSE(b.find(16, 1ull << 63, Kind::buffer));
}

TEST_CASE("vma_suballoc: VMA_DEBUG_MARGIN before the first allocation, once between neighbours, after the last") {
  BlockMetadata b(1024, 1, 16);
  CHECK(put(b, 100, 1) == 16);
  const auto mid = put(b, 100, 1);
  CHECK(mid == 132);              // 116 + one margin, not two
  CHECK(put(b, 100, 64) == 256);  // 232 + 16 = 248, aligned up
  b.free(mid);
  // The gap [116, 256) is 140 bytes: 110 and two margins do not fit there.
  CHECK(put(b, 110, 1) == 372);  // 356 + 16
  CHECK(put(b, 108, 1) == 132);  // 108 + 2 * 16 = 140 do
  // [482, 1024) is left: 542 bytes, 510 once the margins are taken.
  CHECK_FALSE(b.find(511, 1, Kind::buffer));
  CHECK(put(b, 510, 1) == 498);
  // Growing in place keeps the margin before the block's end.
  CHECK_FALSE(b.resize(498, 511));
  CHECK(b.resize(498, 400));
  CHECK(b.resize(498, 510));
  CHECK(b.validate() == "");
  CHECK(b.margin() == 16);
}

TEST_CASE("vma_suballoc: pool flags choose the algorithm; make_suballocator builds each") {
  CHECK(pool_algorithm(0) == Algorithm::free_list);
  CHECK(pool_algorithm(0x2) == Algorithm::free_list);  // IGNORE_BUFFER_IMAGE_GRANULARITY only
  CHECK(pool_algorithm(0x4) == Algorithm::linear);
  CHECK(pool_algorithm(0x8) == Algorithm::buddy);
  CHECK(pool_algorithm(0x6) == Algorithm::linear);
  for (Algorithm a : {Algorithm::free_list, Algorithm::linear, Algorithm::buddy}) {
    CAPTURE(algorithm_name(a));
    auto s = make_suballocator(a, 4096, 1, 0);
    CHECK(s->algorithm() == a);
    CHECK(s->size() == 4096);
    CHECK(s->empty());
    CHECK(s->free_range_count() == 1);
    const Request r{100, 1, Kind::buffer, false};
    const auto off = s->find(r);
    REQUIRE(off);
    s->allocate(*off, r, nullptr);
    CHECK(s->used() == 100);
    CHECK(s->validate() == "");
    // Only the free list resizes in place.
    CHECK(s->resize(*off, 200) == (a == Algorithm::free_list));
  }
}
