// SPDX-License-Identifier: MIT
#include "vma/stat_merge.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace libtrace::vma;
using namespace libtrace::vma::detail;

namespace {

// Two heaps, three memory types (types 0 and 2 in heap 0).
Stats two_heaps() {
  Stats s;
  s.header.config.heaps = {Heap{1 << 20, 1}, Heap{1 << 20, 0}};
  s.header.config.types = {MemoryType{0, 1}, MemoryType{1, 6}, MemoryType{0, 1}};
  return s;
}

Event event(EventKind kind, std::uint64_t ptr, std::uint64_t bytes, std::uint32_t line, int type = 0) {
  return Event{ptr, bytes, line * 0.001, line, 0, static_cast<std::int16_t>(type), kind, Function::CreateBuffer};
}

// The figures a merge left, as one comparable string.
std::string figures(const Stats& s) {
  std::string o = std::to_string(s.peak_live_allocations) + "@" + std::to_string(s.peak_live_allocations_line) + " " +
                  std::to_string(s.peak_live_bytes) + " " + std::to_string(s.live_at_end) + " " +
                  std::to_string(s.live_bytes_at_end) + " " + std::to_string(s.unknown_pointer_destroys) + " " +
                  std::to_string(s.reused_live_pointers) + " |";
  for (auto b : s.peak_bytes_per_heap) o += " " + std::to_string(b);
  o += " |";
  for (auto b : s.peak_bytes_per_type) o += " " + std::to_string(b);
  o += " |";
  for (auto n : s.lifetime_histogram) o += " " + std::to_string(n);
  return o;
}

}  // namespace

TEST_CASE("vma_stat_merge: totals keep the peaks per heap and type, and the line of the most allocations") {
  Stats s = two_heaps();
  Totals t(s, false);
  t.bytes(0, 100);
  t.count(1, 10);
  t.bytes(2, 50);  // the same heap as type 0
  t.count(1, 11);
  t.bytes(0, -100);
  t.count(-1, 0);
  t.bytes(1, 70);
  t.count(1, 13);
  t.bytes(-1, 5);  // unknown type: the total only
  t.finish();
  CHECK(s.peak_live_allocations == 2);
  CHECK(s.peak_live_allocations_line == 11);
  CHECK(s.peak_bytes_per_heap == std::vector<std::uint64_t>{150, 70});
  CHECK(s.peak_bytes_per_type == std::vector<std::uint64_t>{100, 70, 50});
  CHECK(s.peak_live_bytes == 150);
  CHECK(s.live_bytes_at_end == 125);
  CHECK(s.live_at_end == 2);
}

TEST_CASE("vma_stat_merge: split_events gives each event to one part, pool events to all, in file order") {
  ChunkStats cs;
  for (std::uint32_t i = 0; i < 200; ++i)
    cs.events.push_back(event(i % 50 == 7 ? EventKind::pool_create : EventKind::create, 0x1000 + 0x40 * i, 64, i + 1));
  std::vector<std::vector<std::uint32_t>> mine(3);
  split_events(cs, 3, mine);
  std::vector<int> seen(cs.events.size());
  for (unsigned p = 0; p < 3; ++p) {
    CHECK(std::is_sorted(mine[p].begin(), mine[p].end()));
    for (std::uint32_t i : mine[p]) {
      ++seen[i];
      if (!to_every_part(cs.events[i].kind)) CHECK(part_of(cs.events[i].ptr, 3) == p);
    }
  }
  for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == (to_every_part(cs.events[i].kind) ? 3 : 1));
}

// Random creations (some reusing live pointers), destructions (some of
// unknown pointers) and user data: one table applying everything in order and
// three parts whose deltas are added up in order leave the same figures.
TEST_CASE("vma_stat_merge: parts and their deltas add up to what one table gives") {
  std::mt19937 rng(3);
  ChunkStats cs;
  for (std::uint32_t line = 1; line <= 3000; ++line) {
    const std::uint64_t ptr = 0x100 + 0x10 * (rng() % 300);
    switch (rng() % 4) {
      case 0:
      case 1:
        cs.events.push_back(event(EventKind::create, ptr, 1 + rng() % 5000, line, static_cast<int>(rng() % 3)));
        break;
      case 2: cs.events.push_back(event(EventKind::destroy, ptr, 0, line)); break;
      default: cs.events.push_back(event(EventKind::user_data, ptr, 0, line)); break;
    }
  }

  Stats one = two_heaps();
  Totals t1(one, false);
  LiveTable table;
  table.apply_all(cs, 0, 0, t1);
  t1.finish();
  std::vector<LeakRef> leaks1;
  table.collect(one, true, 0, leaks1);

  Stats split = two_heaps();
  Totals t3(split, false);
  constexpr unsigned kParts = 3;
  std::vector<LiveTable> parts(kParts);
  std::vector<std::vector<std::uint32_t>> mine(kParts);
  split_events(cs, kParts, mine);
  std::vector<Delta> deltas(cs.events.size());
  std::vector<std::vector<SecondChange>> seconds(kParts);
  for (unsigned p = kParts; p-- > 0;) parts[p].apply_part(cs, 0, 0, p, mine[p], deltas.data(), seconds[p]);
  std::vector<std::size_t> next(kParts);
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    const Delta& d = deltas[i];
    if (d.bytes) t3.bytes(d.type, d.bytes);
    if (d.count) t3.count(d.count, cs.events[i].line);
    if (d.second) {
      const SecondChange& c = seconds[d.part][next[d.part]++];
      t3.bytes(c.type, c.bytes);
    }
  }
  t3.finish();
  std::vector<LeakRef> leaks3;
  for (unsigned p = 0; p < kParts; ++p) parts[p].collect(split, p == 0, p, leaks3);

  CHECK(one.reused_live_pointers > 0);
  CHECK(one.unknown_pointer_destroys > 0);
  CHECK(figures(split) == figures(one));
  CHECK(leaks3.size() == leaks1.size());
}
