// SPDX-License-Identifier: MIT
#include "libtrace/vma/sim.hpp"

#include <doctest/doctest.h>

#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::vma;

namespace {

const std::string& kConfig = test::kVegaConfig;

SimResult run(const std::string& calls) {
  return simulate(std::make_unique<test::MemDecoder>(kConfig + calls, 64), "sim.csv", SimOptions{});
}

}  // namespace

TEST_CASE("vma_sim: memory types chosen as VMA does for each usage") {
  auto r = std::make_unique<Reader>(std::make_unique<test::MemDecoder>(kConfig), "c.csv");
  const Config& c = r->header().config;
  CHECK(resolve_memory_type(c, 1, 0, 0, 0, ~0u) == 0);       // GPU_ONLY: device local
  CHECK(resolve_memory_type(c, 2, 0, 0, 0, ~0u) == 1);       // CPU_ONLY: host visible + coherent
  CHECK(resolve_memory_type(c, 3, 0, 0, 0, ~0u) == 2);       // CPU_TO_GPU: visible, prefers device local
  CHECK(resolve_memory_type(c, 4, 0, 0, 0, ~0u) == 3);       // GPU_TO_CPU: visible, prefers cached
  CHECK(resolve_memory_type(c, 1, 0, 0, 0b0110, ~0u) == 2);  // memoryTypeBits rule out type 0
  CHECK(resolve_memory_type(c, 0, 16, 0, 0, ~0u) == -1);     // nothing lazily allocated
}

TEST_CASE("vma_sim: buffers share a block; a dedicated one gets its own; empty blocks are kept once") {
  const SimResult r =
      run("1,0.0,0,vmaCreateBuffer,0,1048576,1,0,0,1,0,0,0,0000000000000000,00000000000000A1,\n"
          "1,0.0,0,vmaCreateBuffer,0,1048576,1,0,0,1,0,0,0,0000000000000000,00000000000000A2,\n"
          "1,0.0,0,vmaCreateBuffer,0,1048576,1,0,1,1,0,0,0,0000000000000000,00000000000000A3,\n"
          "1,0.1,0,vmaDestroyBuffer,00000000000000A1\n"
          "1,0.1,0,vmaDestroyBuffer,00000000000000A2\n"
          "1,0.1,0,vmaDestroyBuffer,00000000000000A3\n");
  CHECK_FALSE(r.error);
  CHECK(r.buffers == 3);
  CHECK(r.dedicated == 1);
  REQUIRE(r.heaps.size() == 3);
  CHECK(r.heaps[0].peak_committed == (256ull << 20) + (1ull << 20));
  CHECK(r.heaps[0].peak_blocks == 2);
  CHECK(r.heaps[0].used_at_peak == 3ull << 20);
  CHECK(r.heaps[0].committed_at_end == 256ull << 20);  // one empty block stays
}

TEST_CASE("vma_sim: small heaps get blocks of an eighth of the heap; pools use their block size") {
  const SimResult r =
      run("1,0.0,0,vmaCreateBuffer,0,4096,1,0,0,3,0,0,0,0000000000000000,00000000000000B1,\n"
          "1,0.0,0,vmaCreatePool,1,0,65536,2,0,0,00000000000000C1\n"
          "1,0.0,0,vmaCreateBuffer,0,4096,1,0,0,0,0,0,0,00000000000000C1,00000000000000B2,\n");
  CHECK(r.heaps[2].peak_committed == 32ull << 20);  // 256 MiB heap / 8
  CHECK(r.heaps[1].peak_committed == 2 * 65536);    // the pool's two minimum blocks
  CHECK(r.pools == 1);
}

TEST_CASE("vma_sim: a recording without Config (format 1.0 label) replays with unresolved types, no crash") {
  // The generated 1.8 recording relabelled 1.0: no memory types are known, so
  // every placement is unresolved, and frees of those must not look types up.
  std::string text = test::read_file(test::data("vma/generated_1.8_1000.csv"));
  const auto first = text.find('\n') + 1;
  text.replace(first, text.find('\n', first) - first, "1,0");
  SimOptions opt;
  opt.keep_going = true;
  opt.warnings = [](const std::string&, const std::string&) {};
  const SimResult r = simulate(std::make_unique<test::MemDecoder>(text, 4096), "g10.csv", opt);
  CHECK_FALSE(r.error);
  CHECK(r.unresolved > 0);
}

namespace {

// vmaAllocateMemory of `size` bytes (alignment 256) from `pool`, with
// allocation create flags `flags`.
std::string alloc_line(std::uint64_t ptr, std::uint64_t size, std::uint64_t pool, unsigned flags = 0) {
  char line[200];
  std::snprintf(line, sizeof line, "1,0.0,0,vmaAllocateMemory,%llu,256,15,%u,0,0,0,0,%016llX,%016llX,\n",
                static_cast<unsigned long long>(size), flags, static_cast<unsigned long long>(pool),
                static_cast<unsigned long long>(ptr));
  return line;
}

std::string free_line(std::uint64_t ptr) {
  char line[80];
  std::snprintf(line, sizeof line, "1,0.0,0,vmaFreeMemory,%016llX\n", static_cast<unsigned long long>(ptr));
  return line;
}

}  // namespace

TEST_CASE("vma_sim: a linear pool never refills a hole in the middle: one block more than a free-list pool") {
  // The same calls in a free-list pool (type 0, heap 0) and a linear one
  // (type 2, heap 2) of 64 KiB blocks: three 16 KiB allocations, the middle
  // one freed, two more. The free list refills the hole; the linear pool
  // puts the fourth at 48 KiB and has no room left for the fifth (its
  // start is still taken, so nothing wraps).
  std::string calls =
      "1,0.0,0,vmaCreatePool,0,0,65536,0,0,0,00000000000000C1\n"
      "1,0.0,0,vmaCreatePool,2,4,65536,0,0,0,00000000000000C2\n";
  for (std::uint64_t pool : {0xC1, 0xC2}) {
    const std::uint64_t p = pool << 4;
    calls += alloc_line(p + 1, 16384, pool) + alloc_line(p + 2, 16384, pool) + alloc_line(p + 3, 16384, pool);
    calls += free_line(p + 2) + alloc_line(p + 4, 16384, pool) + alloc_line(p + 5, 16384, pool);
  }
  const SimResult r = run(calls);
  CHECK_FALSE(r.error);
  CHECK(r.heaps[0].peak_blocks == 1);
  CHECK(r.heaps[0].peak_committed == 65536);
  CHECK(r.heaps[2].peak_blocks == 2);
  CHECK(r.heaps[2].peak_committed == 131072);
  CHECK(r.heaps[2].used_at_peak == 4 * 16384);
}

TEST_CASE("vma_sim: a buddy pool rounds sizes up to powers of two") {
  // Three 20000-byte allocations take 32 KiB nodes: two per 64 KiB block.
  std::string calls = "1,0.0,0,vmaCreatePool,1,8,65536,0,0,0,00000000000000C1\n";
  for (std::uint64_t p : {0xA1, 0xA2, 0xA3}) calls += alloc_line(p, 20000, 0xC1);
  const SimResult r = run(calls);
  CHECK(r.heaps[1].peak_blocks == 2);
  CHECK(r.heaps[1].peak_committed == 131072);
}

TEST_CASE("vma_sim: UPPER_ADDRESS in a linear pool makes a double stack") {
  // 16 KiB low, 16 KiB from the top, the low one freed: 40 KiB then fit
  // below the upper stack. With the flag ignored the second allocation
  // would sit at 16 KiB and the 40 KiB would need a new block.
  const std::string calls = "1,0.0,0,vmaCreatePool,0,4,65536,0,1,0,00000000000000C1\n" + alloc_line(0xA1, 16384, 0xC1) +
                            alloc_line(0xA2, 16384, 0xC1, 0x40) + free_line(0xA1) + alloc_line(0xA3, 40960, 0xC1);
  const SimResult r = run(calls);
  CHECK(r.heaps[0].peak_blocks == 1);
  CHECK(r.heaps[0].peak_committed == 65536);
}

TEST_CASE("vma_sim: VMA_DEBUG_MARGIN spaces the allocations of a block") {
  // Two halves of a 64 KiB pool block fit exactly, but not with 16-byte
  // margins before, between and after them.
  const std::string calls = "1,0.0,0,vmaCreatePool,0,0,65536,0,0,0,00000000000000C1\n" + alloc_line(0xA1, 32768, 0xC1) +
                            alloc_line(0xA2, 32768, 0xC1);
  std::string with_margin = kConfig;
  with_margin.insert(with_margin.find("Config,End"), "Macro,VMA_DEBUG_MARGIN,16\n");
  const SimResult plain = run(calls);
  const SimResult spaced = simulate(std::make_unique<test::MemDecoder>(with_margin + calls, 64), "m.csv", SimOptions{});
  CHECK_FALSE(spaced.error);
  CHECK(plain.heaps[0].peak_blocks == 1);
  CHECK(spaced.heaps[0].peak_blocks == 2);
  CHECK(spaced.heaps[0].peak_committed == 131072);
}

TEST_CASE("vma_sim: a custom pool keeps one empty block, and its minBlockCount") {
  // Three 48 KiB allocations in 64 KiB blocks of pools with minBlockCount 0
  // and 3, all freed: the first pool keeps one block, the second three.
  std::string calls =
      "1,0.0,0,vmaCreatePool,0,0,65536,0,0,0,00000000000000C1\n"
      "1,0.0,0,vmaCreatePool,1,0,65536,3,0,0,00000000000000C2\n";
  for (std::uint64_t p : {0xA1, 0xA2, 0xA3}) calls += alloc_line(p, 49152, 0xC1) + alloc_line(p + 0x10, 49152, 0xC2);
  for (std::uint64_t p : {0xA1, 0xA2, 0xA3}) calls += free_line(p) + free_line(p + 0x10);
  const SimResult r = run(calls);
  CHECK(r.heaps[0].peak_blocks == 3);
  CHECK(r.heaps[0].committed_at_end == 65536);
  CHECK(r.heaps[1].committed_at_end == 3 * 65536);
}

TEST_CASE("vma_sim: bufferImageGranularity keeps buffers and optimal images off each other's pages") {
  // A 128 KiB pool block, 64 KiB pages. The 64 KiB image cannot share page 0
  // with the buffer at 0 and goes to 64 KiB; the second buffer fits beside
  // the first; a small optimal image after it would share their page, and
  // page 1 is full: a second block. A linear image may share a page with
  // buffers; without the granularity everything fits one block.
  auto image = [](const char* ptr, int tiling, int side) {
    return "1,0.0,0,vmaCreateImage,0,1,37," + std::to_string(side) + "," + std::to_string(side) + ",1,1,1,1," +
           std::to_string(tiling) + ",4,0,0,0,0,0,0,0,00000000000000C1," + ptr + ",\n";
  };
  auto buffer = [](const char* ptr, int bytes) {
    return "1,0.0,0,vmaCreateBuffer,0," + std::to_string(bytes) + ",1,0,0,0,0,0,0,00000000000000C1," + ptr + ",\n";
  };
  const std::string pool = "1,0.0,0,vmaCreatePool,0,0,131072,0,0,0,00000000000000C1\n";
  const std::string calls =
      pool + buffer("00000000000000A1", 1024) + image("00000000000000A2", 0, 128) + buffer("00000000000000A3", 256);
  std::string paged = kConfig;
  paged.insert(paged.find("Config,End"), "PhysicalDeviceLimits,bufferImageGranularity,65536\n");
  auto sim = [](const std::string& text) {
    return simulate(std::make_unique<test::MemDecoder>(text, 64), "g.csv", SimOptions{});
  };
  const SimResult optimal = sim(paged + calls + image("00000000000000A4", 0, 16));
  CHECK_FALSE(optimal.error);
  CHECK(optimal.heaps[0].peak_blocks == 2);
  CHECK(optimal.heaps[0].peak_committed == 2 * 131072);
  CHECK(sim(paged + calls + image("00000000000000A4", 1, 16)).heaps[0].peak_blocks == 1);
  CHECK(sim(kConfig + calls + image("00000000000000A4", 0, 16)).heaps[0].peak_blocks == 1);
  // The debug minimum raises a granularity of 1 the same way.
  std::string debug_min = kConfig;
  debug_min.insert(debug_min.find("Config,End"), "Macro,VMA_DEBUG_MIN_BUFFER_IMAGE_GRANULARITY,65536\n");
  CHECK(sim(debug_min + calls + image("00000000000000A4", 0, 16)).heaps[0].peak_blocks == 2);
}

TEST_CASE("vma_sim: an allocation may not end on the page where a conflicting one starts") {
  // 64 KiB pool blocks and pages: buffers at 0 and 1 KiB, the first freed.
  // Memory for an image fits the hole at 0 but would end on the page where
  // the second buffer starts, and every other place is on that page too.
  const std::string calls =
      "1,0.0,0,vmaCreatePool,0,0,65536,0,0,0,00000000000000C1\n"
      "1,0.0,0,vmaCreateBuffer,0,1024,1,0,0,0,0,0,0,00000000000000C1,00000000000000A1,\n"
      "1,0.0,0,vmaCreateBuffer,0,1024,1,0,0,0,0,0,0,00000000000000C1,00000000000000A2,\n"
      "1,0.1,0,vmaDestroyBuffer,00000000000000A1\n"
      "1,0.2,0,vmaAllocateMemoryForImage,512,256,1,0,0,0,0,0,0,0,00000000000000C1,00000000000000A3,\n";
  std::string paged = kConfig;
  paged.insert(paged.find("Config,End"), "PhysicalDeviceLimits,bufferImageGranularity,65536\n");
  const SimResult r = simulate(std::make_unique<test::MemDecoder>(paged + calls, 64), "g.csv", SimOptions{});
  CHECK_FALSE(r.error);
  CHECK(r.heaps[0].peak_blocks == 2);
  const SimResult plain = simulate(std::make_unique<test::MemDecoder>(kConfig + calls, 64), "g.csv", SimOptions{});
  CHECK(plain.heaps[0].peak_blocks == 1);
}

TEST_CASE("vma_sim: freed ranges join their free neighbours, so a block fills up again") {
  // One pool block of 16 KiB, filled by four 4 KiB buffers; each larger
  // buffer after the frees fits there only if the freed ranges were joined
  // (on both sides, then the next one, then the one before).
  auto buf = [](const char* bytes, const char* ptr) {
    return std::string("1,0.0,0,vmaCreateBuffer,0,") + bytes + ",1,0,0,0,0,0,0,00000000000000C1," + ptr + ",\n";
  };
  auto destroy = [](const char* ptr) { return std::string("1,0.1,0,vmaDestroyBuffer,") + ptr + "\n"; };
  const SimResult r = run("1,0.0,0,vmaCreatePool,1,0,16384,1,0,0,00000000000000C1\n" + buf("4096", "00000000000000A1") +
                          buf("4096", "00000000000000A2") + buf("4096", "00000000000000A3") +
                          buf("4096", "00000000000000A4") + destroy("00000000000000A2") + destroy("00000000000000A4") +
                          destroy("00000000000000A3") +  // joins A2's range and A4's
                          buf("12288", "00000000000000B1") + destroy("00000000000000B1") +
                          destroy("00000000000000A1") +  // joins the range after it
                          buf("16384", "00000000000000B2") + destroy("00000000000000B2") +
                          buf("8192", "00000000000000B3") + buf("8192", "00000000000000B4") +
                          destroy("00000000000000B3") + destroy("00000000000000B4") +  // joins the one before
                          buf("16384", "00000000000000B5"));
  CHECK_FALSE(r.error);
  CHECK(r.buffers == 9);
  CHECK(r.heaps[1].peak_blocks == 1);
  CHECK(r.heaps[1].peak_committed == 16384);
  CHECK(r.heaps[1].committed_at_end == 16384);
}

TEST_CASE("vma_sim: fragmentation at the peak is the blocks' unused memory outside each block's largest range") {
  // A free-list pool of 64 KiB blocks (type 0, heap 0), one made at once:
  // four 16 KiB allocations fill it, the first and third go, and 32 KiB then
  // fit in neither 16 KiB hole: a second block, the peak. There the first
  // block has 32 KiB unused in two ranges (the largest 16 KiB), the second
  // 32 KiB in one: 16 KiB of the 64 KiB unused lie outside a block's
  // largest range.
  std::string calls = "1,0.0,0,vmaCreatePool,0,0,65536,1,0,0,00000000000000C1\n";
  for (std::uint64_t p : {0xA1, 0xA2, 0xA3, 0xA4}) calls += alloc_line(p, 16384, 0xC1);
  calls += free_line(0xA1) + free_line(0xA3) + alloc_line(0xB1, 32768, 0xC1);
  const SimResult r = run(calls);
  CHECK_FALSE(r.error);
  const SimHeap& h = r.heaps[0];
  CHECK(h.peak_committed == 131072);
  CHECK(h.used_at_peak == 65536);
  CHECK(h.unused_ranges_at_peak == 3);
  CHECK(h.largest_usable_at_peak == 32768);
  CHECK(h.fragmentation_at_peak == doctest::Approx(0.25));
  // Freeing afterwards changes nothing at the peak.
  const SimResult later = run(calls + free_line(0xA2) + free_line(0xA4));
  CHECK(later.heaps[0].fragmentation_at_peak == doctest::Approx(0.25));
}

TEST_CASE("vma_sim: a block whose unused memory is one range is not fragmented, however many blocks") {
  // Three pools of one 64 KiB block each, every block half used from its
  // start: each block's unused half is one range.
  std::string calls;
  for (std::uint64_t pool : {0xC1, 0xC2, 0xC3}) {
    char line[100];
    std::snprintf(line, sizeof line, "1,0.0,0,vmaCreatePool,0,0,65536,0,0,0,%016llX\n",
                  static_cast<unsigned long long>(pool));
    calls += line + alloc_line(pool << 4, 32768, pool);
  }
  const SimResult r = run(calls);
  const SimHeap& h = r.heaps[0];
  CHECK(h.peak_committed == 3 * 65536);
  CHECK(h.unused_ranges_at_peak == 3);
  CHECK(h.largest_usable_at_peak == 32768);
  CHECK(h.fragmentation_at_peak == 0.0);
}

TEST_CASE("vma_sim: a linear pool's holes are fragmentation, its free end is not") {
  // 64 KiB linear blocks: four 8 KiB allocations, the second and third
  // freed (a hole a linear block never refills), 32 KiB after the last,
  // then 16 KiB that need a second block: the peak.
  std::string calls = "1,0.0,0,vmaCreatePool,0,4,65536,1,0,0,00000000000000C1\n";
  for (std::uint64_t p : {0xA1, 0xA2, 0xA3, 0xA4}) calls += alloc_line(p, 8192, 0xC1);
  calls += free_line(0xA2) + free_line(0xA3) + alloc_line(0xB1, 32768, 0xC1) + alloc_line(0xB2, 16384, 0xC1);
  const SimResult r = run(calls);
  CHECK_FALSE(r.error);
  const SimHeap& h = r.heaps[0];
  // Block 1: A1 [0, 8K), hole [8K, 24K), A4 [24K, 32K), B1 [32K, 64K): full
  // at the end, 16 KiB unused in one hole the block cannot reuse (its start
  // is taken, so nothing wraps). Block 2: B2 [0, 16K), 48 KiB free after it.
  CHECK(h.peak_committed == 131072);
  CHECK(h.unused_ranges_at_peak == 2);
  CHECK(h.largest_usable_at_peak == 49152);
  CHECK(h.fragmentation_at_peak == doctest::Approx(16384.0 / (16384 + 49152)));
}

TEST_CASE("vma_sim: sizes beyond any device neither wrap the sums nor hide that the heap is exceeded") {
  // A pool block of 2^64 - 1 bytes and an allocation as large: each is taken
  // as 2^62 (a signed change each), and the sums stay above the heap.
  std::string calls = "1,0.0,0,vmaCreatePool,0,0,18446744073709551615,0,0,0,00000000000000C1\n";
  calls += alloc_line(0xA1, 18446744073709551615ull, 0xC1) + alloc_line(0xA2, 4096, 0xC1) +
           alloc_line(0xA3, 18446744073709551615ull, 0);  // dedicated, in type 0's heap too
  const SimResult r = run(calls);
  CHECK_FALSE(r.error);
  const SimHeap& h = r.heaps[0];
  CHECK(h.peak_committed == 3 * (std::uint64_t{1} << 62));
  CHECK(h.over_budget_allocations > 0);
  CHECK(h.used_at_peak == 2 * (std::uint64_t{1} << 62) + 4096);
}
