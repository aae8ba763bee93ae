// SPDX-License-Identifier: MIT
#include "libtrace/vma_sim.hpp"

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
  CHECK(resolve_memory_type(c, 1, 0, 0, 0, ~0u) == 0);  // GPU_ONLY: device local
  CHECK(resolve_memory_type(c, 2, 0, 0, 0, ~0u) == 1);  // CPU_ONLY: host visible + coherent
  CHECK(resolve_memory_type(c, 3, 0, 0, 0, ~0u) == 2);  // CPU_TO_GPU: visible, prefers device local
  CHECK(resolve_memory_type(c, 4, 0, 0, 0, ~0u) == 3);  // GPU_TO_CPU: visible, prefers cached
  CHECK(resolve_memory_type(c, 1, 0, 0, 0b0110, ~0u) == 2);  // memoryTypeBits rule out type 0
  CHECK(resolve_memory_type(c, 0, 16, 0, 0, ~0u) == -1);     // nothing lazily allocated
}

TEST_CASE("vma_sim: buffers share a block; a dedicated one gets its own; empty blocks are kept once") {
  const SimResult r = run(
      "1,0.0,0,vmaCreateBuffer,0,1048576,1,0,0,1,0,0,0,0000000000000000,00000000000000A1,\n"
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
  const SimResult r = run(
      "1,0.0,0,vmaCreateBuffer,0,4096,1,0,0,3,0,0,0,0000000000000000,00000000000000B1,\n"
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
