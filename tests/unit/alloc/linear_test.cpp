// SPDX-License-Identifier: MIT
// Expected offsets follow the rules of VMA's documentation chapter "Linear
// allocation algorithm", worked out by hand for each case.
#include "libtrace/alloc/linear.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "alloc/suballoc_util.hpp"

using namespace libtrace::alloc;
using Mode = LinearMetadata::Mode;

namespace {

std::uint64_t put(LinearMetadata& b, std::uint64_t size, std::uint64_t align = 1, bool upper = false,
                  Kind kind = Kind::buffer) {
  return test::place(b, Request{size, align, kind, upper});
}

bool fits(const LinearMetadata& b, std::uint64_t size, bool upper = false) {
  return b.find(Request{size, 1, Kind::buffer, upper}).has_value();
}

void drop(LinearMetadata& b, std::uint64_t offset) {
  b.free(offset);
  REQUIRE(b.validate() == "");
}

}  // namespace

TEST_CASE("vma_linear: free-at-once: after the last allocation, holes stay, an empty block starts over") {
  LinearMetadata b(1000, 1, 0);
  CHECK(put(b, 100) == 0);
  CHECK(put(b, 100) == 100);
  CHECK(put(b, 100) == 200);
  drop(b, 100);
  CHECK(b.free_range_count() == 2);      // the hole and the end
  CHECK(b.largest_free_range() == 700);  // the end: the hole is unused, never taken
  CHECK(put(b, 100) == 300);             // not in the hole
  CHECK(put(b, 50, 64) == 448);          // 400 aligned up
  for (std::uint64_t o : {0, 200, 300, 448}) drop(b, o);
  CHECK(b.empty());
  CHECK(b.free_range_count() == 1);
  CHECK(put(b, 100) == 0);
  CHECK(b.mode() == Mode::single);
}

TEST_CASE("vma_linear: stack: freeing the last allocations makes room at the end again") {
  LinearMetadata b(1000, 1, 0);
  put(b, 100);
  const auto second = put(b, 100);
  const auto third = put(b, 100);
  drop(b, third);
  CHECK(put(b, 50) == 200);
  drop(b, 200);
  drop(b, second);
  CHECK(put(b, 700) == 100);  // right after the one left
  CHECK_FALSE(fits(b, 201));  // and nothing wraps before it
}

TEST_CASE("vma_linear: ring buffer: freed first allocations let new ones wrap to the block's start") {
  LinearMetadata b(1000, 1, 0);
  const auto a = put(b, 400), c = put(b, 400);
  CHECK(c == 400);
  drop(b, a);
  // 300 more do not fit after 800: they wrap to 0, up to the oldest live one.
  CHECK(put(b, 300) == 0);
  CHECK(b.mode() == Mode::ring_buffer);
  CHECK(put(b, 100) == 300);
  // The ring ends at 400, where the first vector starts; [800, 1000) is
  // behind the ring and not used while it lasts.
  CHECK_FALSE(fits(b, 100));
  CHECK_FALSE(fits(b, 10, true));  // no upper stack in a ring buffer
  CHECK(b.free_range_count() == 1);
  CHECK(b.largest_free_range() == 0);  // [800, 1000) is behind the ring
  // The first vector empties: the wrapped allocations become it.
  drop(b, c);
  CHECK(b.mode() == Mode::single);
  CHECK(put(b, 500) == 400);
  // Freeing the oldest again wraps the next one.
  drop(b, 0);
  CHECK(b.largest_free_range() == 300);  // before the oldest (at 300), more than the 100 at the end
  CHECK(put(b, 200) == 0);
  CHECK(b.mode() == Mode::ring_buffer);
  CHECK_FALSE(fits(b, 101));  // [200, 300) is all the ring has before 300
  CHECK(b.largest_free_range() == 100);
  CHECK(put(b, 100) == 200);
}

TEST_CASE("vma_linear: double stack: upper allocations grow down from the end until the stacks meet") {
  LinearMetadata b(1000, 1, 0);
  CHECK(put(b, 300) == 0);
  CHECK(put(b, 200, 1, true) == 800);
  CHECK(b.mode() == Mode::double_stack);
  const auto u2 = put(b, 200, 1, true);
  CHECK(u2 == 600);
  CHECK(put(b, 300) == 300);  // up to the upper stack's top
  CHECK_FALSE(fits(b, 1));
  CHECK_FALSE(fits(b, 1, true));
  CHECK(b.free_range_count() == 0);
  // Popping the upper stack's top makes room for it alone.
  drop(b, u2);
  CHECK(b.largest_free_range() == 200);
  CHECK(put(b, 100, 64, true) == 640);  // 800 - 100, aligned down
  CHECK(b.free_range_count() == 2);     // [600, 640) and [740, 800)
  CHECK(b.largest_free_range() == 40);  // between the stacks; [740, 800) is a hole
  // A lower allocation never wraps in a double stack, even with the start free.
  drop(b, 0);
  CHECK_FALSE(fits(b, 100));
  // With the upper stack gone the block is single again.
  drop(b, 800);
  drop(b, 640);
  CHECK(b.mode() == Mode::single);
  CHECK(put(b, 300) == 600);
}

TEST_CASE("vma_linear: VMA_DEBUG_MARGIN at both ends of the block and between allocations") {
  LinearMetadata b(1000, 1, 10);
  CHECK(put(b, 100) == 10);
  CHECK(put(b, 100) == 120);
  CHECK(put(b, 100, 1, true) == 890);   // its margin before the block's end
  CHECK(put(b, 100, 64, true) == 768);  // 890 - 10 - 100 = 780, aligned down
  CHECK_FALSE(fits(b, 529));            // 220 + 10 + 529 + 10 > 768
  CHECK(put(b, 528) == 230);
  LinearMetadata r(1000, 1, 10);
  const auto first = put(r, 400);
  put(r, 400);
  drop(r, first);
  CHECK_FALSE(fits(r, 401));  // wrapped at 10, a margin before 420
  CHECK(put(r, 400) == 10);
}

TEST_CASE("vma_linear: bufferImageGranularity between a buffer and an optimal image") {
  LinearMetadata b(1 << 16, 1024, 0);
  CHECK(put(b, 100, 16, false, Kind::buffer) == 0);
  CHECK(put(b, 100, 16, false, Kind::image_optimal) == 1024);  // off the buffer's page
  CHECK(put(b, 100, 16, false, Kind::image_optimal) == 1136);  // images may share one
  // An upper buffer must not end on a page with an image below it: its
  // page is the block's last, free of images.
  CHECK(put(b, 100, 16, true, Kind::buffer) == 65424);
  // An optimal image below it: its offset goes down to the page's start,
  // VMA 2.x's rule (it still ends on the buffer's page).
  CHECK(put(b, 100, 16, true, Kind::image_optimal) == 64512);
  // Lower ones go on after the images.
  CHECK(put(b, 100, 16, false, Kind::image_optimal) == 1248);
  CHECK(put(b, 100, 16, false, Kind::buffer) == 2048);
}

TEST_CASE("vma_linear: find_evicting frees a ring buffer's oldest allocations, only if they may go") {
  LinearMetadata b(1000, 1, 0);
  int ua = 1, ub = 2, uc = 3;
  const Request r1{400, 1, Kind::buffer, false}, r2{150, 1, Kind::buffer, false};
  b.allocate(0, r1, &ua);
  b.allocate(400, r1, &ub);
  b.allocate(800, r2, &uc);
  REQUIRE(b.validate() == "");
  std::vector<void*> victims;
  std::uint64_t cost = 0;
  CHECK_FALSE(b.find(Request{300, 1, Kind::buffer, false}));
  auto off = b.find_evicting(
      Request{300, 1, Kind::buffer, false}, [](void*) { return true; }, victims, cost);
  REQUIRE(off);
  CHECK(*off == 0);
  CHECK(victims == std::vector<void*>{&ua});
  CHECK(cost == 400);
  // 500 bytes need the two oldest, and the second may not go.
  CHECK_FALSE(b.find_evicting(
      Request{500, 1, Kind::buffer, false}, [&](void* u) { return u != &ub; }, victims, cost));
  CHECK(victims.empty());
  off = b.find_evicting(
      Request{500, 1, Kind::buffer, false}, [](void*) { return true; }, victims, cost);
  REQUIRE(off);
  CHECK(victims == std::vector<void*>{&ua, &ub});
  CHECK(cost == 800);
  // After the eviction find() gives the same place.
  for (void* v : victims) b.free(v == &ua ? 0 : 400);
  CHECK(b.find(Request{500, 1, Kind::buffer, false}) == 0u);
  // No eviction for an upper allocation.
  CHECK_FALSE(b.find_evicting(
      Request{10, 1, Kind::buffer, true}, [](void*) { return true; }, victims, cost));
}

TEST_CASE("vma_linear: random stacks, rings and frees keep every invariant") {
  std::mt19937_64 rng(11);
  for (std::uint64_t margin : {0, 8}) {
    LinearMetadata b(1 << 20, 256, margin);
    struct Live {
      std::uint64_t offset, size;
      Kind kind;
      bool upper;
    };
    std::vector<Live> live;
    std::uint64_t placed = 0;
    for (int i = 0; i < 20000; ++i) {
      if (!live.empty() && rng() % 100 < 48) {
        // Mostly the oldest or the newest, as rings and stacks free.
        const std::size_t k = rng() % 3 == 0 ? rng() % live.size() : rng() % 2 ? 0 : live.size() - 1;
        b.free(live[k].offset);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        const Request r{1 + rng() % 40000, 1ull << (rng() % 9), static_cast<Kind>(1 + rng() % 5), rng() % 8 == 0};
        const auto off = b.find(r);
        if (!off) continue;
        CHECK(*off % r.alignment == 0);
        b.allocate(*off, r, nullptr);
        live.push_back({*off, r.size, r.kind, r.upper});
        ++placed;
      }
      if (i % 500 == 0) {
        REQUIRE(b.validate() == "");
        // Nothing larger than the largest free range fits, low or high.
        const std::uint64_t over = b.largest_free_range() + 1;
        CHECK_FALSE(b.find(Request{over, 1, Kind::buffer, false}));
        CHECK_FALSE(b.find(Request{over, 1, Kind::buffer, true}));
      }
    }
    REQUIRE(b.validate() == "");
    CHECK(placed > 1000);
    std::sort(live.begin(), live.end(), [](const Live& x, const Live& y) { return x.offset < y.offset; });
    for (std::size_t i = 1; i < live.size(); ++i) {
      CHECK(live[i - 1].offset + live[i - 1].size + margin <= live[i].offset);
      // VMA's rule lets an upper allocation end on a page shared with the
      // upper one above it; everywhere else conflicting kinds keep apart.
      const bool both_upper = live[i - 1].upper && live[i].upper;
      if (!both_upper && same_page(live[i - 1].offset, live[i - 1].size, live[i].offset, 256))
        CHECK_FALSE(granularity_conflict(live[i - 1].kind, live[i].kind));
    }
    for (const Live& l : live) b.free(l.offset);
    CHECK(b.empty());
    CHECK(b.free_range_count() == 1);
    CHECK(b.mode() == Mode::single);
  }
}
