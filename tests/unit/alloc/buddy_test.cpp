// SPDX-License-Identifier: MIT
// Expected offsets follow the buddy rules of VMA's documentation (power-of-two
// nodes split in halves, merged back when both are free), worked out by hand.
#include "libtrace/alloc/buddy.hpp"

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "alloc/suballoc_util.hpp"

using namespace libtrace::alloc;

namespace {

std::uint64_t put(BuddyMetadata& b, std::uint64_t size, std::uint64_t align = 1, Kind kind = Kind::buffer) {
  return test::place(b, Request{size, align, kind, false});
}

void drop(BuddyMetadata& b, std::uint64_t offset) {
  b.free(offset);
  REQUIRE(b.validate() == "");
}

}  // namespace

TEST_CASE("vma_buddy: a node splits down to the smallest power of two that holds the allocation") {
  BuddyMetadata b(1024, 1);
  CHECK(b.level_count() == 6);  // 1024 down to VMA's 32-byte minimum
  CHECK(put(b, 100) == 0);      // a 128-byte node: 512, 256 and 128 left free beside it
  CHECK(b.free_range_count() == 3);
  CHECK(put(b, 100) == 128);
  CHECK(put(b, 200) == 256);
  CHECK(b.largest_free_range() == 512);
  CHECK(put(b, 30) == 512);  // the 512-byte node split down to 32
  CHECK(b.free_range_count() == 4);
  CHECK(b.largest_free_range() == 256);  // [768, 1024)
  CHECK(b.used() == 430);
  CHECK_FALSE(b.find(Request{300, 1, Kind::buffer, false}));  // no free 512-byte node left
  CHECK(b.find(Request{256, 1, Kind::buffer, false}) == 768u);
}

TEST_CASE("vma_buddy: freed buddies merge back, up to the whole block") {
  BuddyMetadata b(1024, 1);
  put(b, 100);
  put(b, 100);
  put(b, 200);
  put(b, 30);
  drop(b, 512);  // merges with every free buddy up to the 512-byte node
  CHECK(b.free_range_count() == 1);
  drop(b, 0);  // its buddy at 128 is taken
  CHECK(b.free_range_count() == 2);
  drop(b, 128);  // 0 and 128 merge; 256 is taken
  CHECK(b.free_range_count() == 2);
  drop(b, 256);
  CHECK(b.free_range_count() == 1);
  CHECK(b.empty());
  CHECK(b.largest_free_range() == 1024);
  CHECK(b.find(Request{1024, 1, Kind::buffer, false}) == 0u);
}

TEST_CASE("vma_buddy: a block that is not a power of two uses the largest one below") {
  BuddyMetadata b(1000, 1);
  CHECK(b.usable_size() == 512);
  CHECK(b.free_range_count() == 2);  // the free root and the unusable rest
  CHECK_FALSE(b.find(Request{513, 1, Kind::buffer, false}));
  CHECK(put(b, 512) == 0);
  CHECK(b.free_range_count() == 1);
}

TEST_CASE("vma_buddy: the first aligned free node, in free-list order (freed nodes first)") {
  BuddyMetadata b(1024, 1);
  CHECK(put(b, 32) == 0);
  CHECK(put(b, 32, 64) == 64);  // the free 32 at 32 is not aligned: the 64 at 64 is split
  BuddyMetadata c(1024, 1);
  const auto a = put(c, 32), x = put(c, 32), y = put(c, 32), d = put(c, 32);
  CHECK((a == 0 && x == 32 && y == 64 && d == 96));
  drop(c, a);
  drop(c, d);
  CHECK(put(c, 32) == 96);  // freed last, found first; not the lowest address
  CHECK(put(c, 32) == 0);
}

TEST_CASE("vma_buddy: what might be an optimal image starts a bufferImageGranularity page") {
  // As VMA 2.x: looked for as a whole aligned page, then split down to its
  // own size, so the rest of the page is free for the next allocations.
  BuddyMetadata b(4096, 1024);
  CHECK(b.node_size_for(Request{100, 16, Kind::image_optimal, false}) == 128);
  CHECK(put(b, 100, 16, Kind::image_optimal) == 0);
  CHECK(put(b, 100, 16, Kind::buffer) == 128);         // the 128-byte node beside it
  CHECK(put(b, 100, 16, Kind::unknown) == 1024);       // the next page's start
  CHECK(put(b, 100, 16, Kind::image_linear) == 1152);  // the last split's right half comes first
  CHECK_FALSE(b.find(Request{2049, 1, Kind::image_linear, false}));
  CHECK_FALSE(BuddyMetadata(512, 1024).find(Request{16, 1, Kind::image_optimal, false}));  // a page beyond the block
}

TEST_CASE("vma_buddy: VMA's minimum node and level limit; no margins; no upper stack") {
  CHECK(BuddyMetadata(1 << 20, 1).node_size_for(Request{1, 1, Kind::buffer, false}) == 32);
  const BuddyMetadata huge(1ull << 40, 1);
  CHECK(huge.level_count() == 30);
  CHECK(huge.node_size_for(Request{1, 1, Kind::buffer, false}) == 2048);
  auto m = make_suballocator(Algorithm::buddy, 1024, 1, 16);
  CHECK(m->find(Request{32, 1, Kind::buffer, false}) == 0u);
  CHECK_FALSE(m->find(Request{32, 1, Kind::buffer, true}));
  std::vector<void*> victims;
  std::uint64_t cost = 0;
  CHECK_FALSE(m->find_evicting(
      Request{2048, 1, Kind::buffer, false}, [](void*) { return true; }, victims, cost));
}

TEST_CASE("vma_buddy: random allocations and frees keep every invariant") {
  std::mt19937_64 rng(5);
  BuddyMetadata b((1 << 22) + 12345, 512);
  struct Live {
    std::uint64_t offset, size;
  };
  std::vector<Live> live;
  std::uint64_t placed = 0;
  for (int i = 0; i < 20000; ++i) {
    if (!test::free_some(b, live, rng, 45)) {
      const Request r{1 + rng() % (1 << (rng() % 17)), 1ull << (rng() % 10), static_cast<Kind>(1 + rng() % 5), false};
      const auto off = b.find(r);
      if (!off) continue;
      CHECK(*off % r.alignment == 0);
      b.allocate(*off, r, nullptr);
      live.push_back({*off, r.size});
      ++placed;
    }
    if (i % 500 == 0) {
      REQUIRE(b.validate() == "");
      const std::uint64_t largest = b.largest_free_range();
      CHECK_FALSE(b.find(Request{largest + 1, 1, Kind::buffer, false}));
      if (largest) CHECK(b.find(Request{largest, 1, Kind::buffer, false}));
    }
  }
  REQUIRE(b.validate() == "");
  CHECK(placed > 1000);
  for (const Live& l : live) b.free(l.offset);
  CHECK(b.empty());
  CHECK(b.free_range_count() == 2);  // the root and the unusable 12345 bytes
  CHECK(b.validate() == "");
}
