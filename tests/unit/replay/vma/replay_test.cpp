// SPDX-License-Identifier: MIT
// Device replay on the real device the tests run with (lavapipe). Expected
// numbers come from the recordings themselves, counted here with a plain
// split of each line, and from the device's own answers to Vulkan queries
// made here directly; never from trak's reader or allocator.
#include "libtrace/replay/vma/replay.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>

#include "libtrace/core/codec.hpp"
#include "libtrace/core/io.hpp"
#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::vma;

namespace {

constexpr std::uint64_t MiB = 1ull << 20;

std::vector<std::string> split(const std::string& line, char sep = ',') {
  std::vector<std::string> f;
  std::stringstream ss(line);
  std::string x;
  while (std::getline(ss, x, sep)) f.push_back(x);
  if (!line.empty() && line.back() == sep) f.emplace_back();
  return f;
}

std::uint64_t hex(const std::string& s) { return s.empty() || s == "(nil)" ? 0 : std::stoull(s, nullptr, 16); }

// What a recording says, counted line by line: the figures VmaReplay
// prints, and the allocations never freed.
struct Truth {
  std::uint64_t calls = 0, buffers = 0, images = 0, memory = 0, pages = 0, lost = 0, pools = 0;
  std::uint64_t originally_failed = 0;
  std::set<std::string> threads;
  std::set<std::uint64_t> live;
};

Truth count(const std::string& text) {
  Truth t;
  std::stringstream in(text);
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  bool config = false;
  while (std::getline(in, line)) {
    if (line.rfind("Config,Begin", 0) == 0) config = true;
    if (config) {
      if (line.rfind("Config,End", 0) == 0) config = false;
      continue;
    }
    const auto f = split(line);
    if (f.size() < 4) continue;
    ++t.calls;
    t.threads.insert(f[0]);
    const std::string& fn = f[3];
    auto create = [&](std::uint64_t ptr, std::uint64_t& counter) {
      if (ptr) {
        ++counter;
        t.live.insert(ptr);
      } else {
        ++t.originally_failed;
      }
    };
    if (fn == "vmaCreateBuffer")
      create(hex(f[14]), t.buffers);
    else if (fn == "vmaCreateImage")
      create(hex(f[23]), t.images);
    else if (fn == "vmaAllocateMemory")
      create(hex(f[13]), t.memory);
    else if (fn == "vmaAllocateMemoryForBuffer" || fn == "vmaAllocateMemoryForImage")
      create(hex(f[15]), t.memory);
    else if (fn == "vmaCreateLostAllocation")
      create(hex(f[4]), t.lost);
    else if (fn == "vmaCreatePool")
      t.pools += hex(f.back()) != 0;
    else if (fn == "vmaAllocateMemoryPages") {
      if (f[13].empty()) ++t.originally_failed;
      for (const auto& p : split(f[13], ' ')) create(hex(p), t.pages);
    } else if (fn == "vmaDestroyBuffer" || fn == "vmaDestroyImage" || fn == "vmaFreeMemory") {
      t.live.erase(hex(f[4]));
    } else if (fn == "vmaFreeMemoryPages") {
      for (const auto& p : split(f[4], ' ')) t.live.erase(hex(p));
    }
  }
  return t;
}

// The peak of live bytes if every buffer and image gets exactly what this
// device asks for (vkGet*MemoryRequirements, queried here directly).
std::uint64_t peak_required_bytes(const std::string& text, VkDevice dev) {
  std::stringstream in(text);
  std::string line;
  std::map<std::uint64_t, std::uint64_t> live;
  std::uint64_t now = 0, peak = 0;
  auto u32 = [](const std::string& s) { return static_cast<std::uint32_t>(std::stoul(s)); };
  while (std::getline(in, line)) {
    const auto f = split(line);
    if (f.size() < 5) continue;
    VkMemoryRequirements req{};
    std::uint64_t ptr = 0;
    if (f[3] == "vmaCreateBuffer") {
      VkBufferCreateInfo ci{};
      ci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
      ci.size = std::stoull(f[5]);
      ci.usage = u32(f[6]);
      VkBuffer b;
      REQUIRE(vkCreateBuffer(dev, &ci, nullptr, &b) == VK_SUCCESS);
      vkGetBufferMemoryRequirements(dev, b, &req);
      vkDestroyBuffer(dev, b, nullptr);
      ptr = hex(f[14]);
    } else if (f[3] == "vmaCreateImage") {
      VkImageCreateInfo ci{};
      ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
      ci.flags = u32(f[4]);
      ci.imageType = static_cast<VkImageType>(u32(f[5]));
      ci.format = static_cast<VkFormat>(u32(f[6]));
      ci.extent = {u32(f[7]), u32(f[8]), u32(f[9])};
      ci.mipLevels = u32(f[10]);
      ci.arrayLayers = u32(f[11]);
      ci.samples = static_cast<VkSampleCountFlagBits>(u32(f[12]));
      ci.tiling = static_cast<VkImageTiling>(u32(f[13]));
      ci.usage = u32(f[14]);
      ci.initialLayout = static_cast<VkImageLayout>(u32(f[16]));
      VkImage i;
      REQUIRE(vkCreateImage(dev, &ci, nullptr, &i) == VK_SUCCESS);
      vkGetImageMemoryRequirements(dev, i, &req);
      vkDestroyImage(dev, i, nullptr);
      ptr = hex(f[23]);
    } else if (f[3] == "vmaDestroyBuffer" || f[3] == "vmaDestroyImage") {
      auto it = live.find(hex(f[4]));
      if (it != live.end()) {
        now -= it->second;
        live.erase(it);
      }
      continue;
    } else {
      continue;
    }
    live[ptr] = req.size;
    now += req.size;
    peak = std::max(peak, now);
  }
  return peak;
}

const std::string kHeader = test::kVegaConfig + "1,0.000,0,vmaCreateAllocator\n";

// The device the tests replay on, and the recordings they give it.
struct Env {
  vk::Instance instance;
  vk::Device device{instance, instance.select(""), replay_device_options()};

  ReplayResult run(const std::string& text, const ReplayOptions& opt = {}) const {
    return replay(std::make_unique<test::MemDecoder>(text, 4096), "rec.csv", device, opt);
  }
  ReplayResult run_calls(std::string_view calls, const ReplayOptions& opt = {}) const {
    return run(kHeader + test::unindent(calls), opt);
  }
  ReplayResult run_file(const std::string& path, const ReplayOptions& opt = {}) const {
    libtrace::InputFile in(path);
    return replay(open_decoder(in), path, device, opt);
  }
};

void check_counts(const ReplayResult& r, const Truth& t) {
  CHECK_FALSE(r.error);
  CHECK(r.calls == t.calls);
  CHECK(r.buffers == t.buffers);
  CHECK(r.images == t.images);
  CHECK(r.memory_allocations == t.memory);
  CHECK(r.pages == t.pages);
  CHECK(r.lost_allocations == t.lost);
  CHECK(r.pools == t.pools);
  CHECK(r.originally_failed == t.originally_failed);
  CHECK(r.threads == t.threads.size());
  CHECK(r.leaked_allocations == t.live.size());
  // Everything was destroyed at the end.
  CHECK(r.total.allocations == 0);
  CHECK(r.total.used == 0);
}

}  // namespace

TEST_CASE_FIXTURE(Env, "vma_replay: the three real recordings, counts from the files and bytes from the device") {
  for (const char* name :
       {"inexor_vma_replays_rst_1.8.csv", "vma_doc_example_1.8_final.csv", "vma_doc_example_1.2_b3ea2c6.csv"}) {
    CAPTURE(name);
    const std::string text = test::read_file(test::data(std::string("vma/") + name));
    const Truth t = count(text);
    const ReplayResult r = run_file(test::data(std::string("vma/") + name));
    check_counts(r, t);
    CHECK(r.replayed_calls == t.calls);
    std::uint64_t failed = 0;
    for (auto f : r.failed) failed += f;
    CHECK(failed == 0);
    CHECK(r.total.peak_used == peak_required_bytes(text, device.handle()));
    CHECK(r.total.peak_committed >= r.total.peak_used);
    CHECK(r.functions[static_cast<std::size_t>(Function::CreateBuffer)].calls == t.buffers);
    std::uint64_t mapped = 0;
    for (const auto& m : r.mappings) mapped += m.allocations;
    CHECK(mapped == t.buffers + t.images);
  }
}

TEST_CASE_FIXTURE(Env, "vma_replay: the inexor recording, figures from its description") {
  const ReplayResult r = run_file(test::data("vma/inexor_vma_replays_rst_1.8.csv"));
  CHECK(r.buffers == 15);
  CHECK(r.images == 3);
  CHECK(r.total.peak_allocations == 11);  // "peak 11 live allocations"
  CHECK(r.leaked_allocations == 2);       // "2 images never destroyed"
  CHECK(r.recording_time == doctest::Approx(2.617));
  // Recorded on a GeForce: its device name is a difference from this one.
  REQUIRE_FALSE(r.device_differences.empty());
  CHECK(r.device_differences[1].find("GeForce GTX 660M") != std::string::npos);
}

TEST_CASE_FIXTURE(Env, "vma_replay: a generated recording with every 1.8 function") {
  const std::string path = test::data("vma/generated_1.8_1000.csv");
  const Truth t = count(test::read_file(path));
  const ReplayResult r = run_file(path);
  check_counts(r, t);
  CHECK(r.pools == 6);
  CHECK(r.threads == 3);
  CHECK(r.ops.defragmentations == 13);
  CHECK(r.ops.touches > 0);
  std::uint64_t devmem = 0;
  for (const auto& [c, b] : r.device_allocations) devmem += c;
  CHECK(devmem > 0);
  CHECK(r.leaked_pools == 6);  // the generator never destroys its pools
}

TEST_CASE_FIXTURE(Env, "vma_replay: --lines replays a range of file lines") {
  ReplayOptions opt;
  opt.first_line = 56;  // vmaCreateAllocator, 2 images, 1 buffer and its destruction
  opt.last_line = 60;
  const ReplayResult r = run_file(test::data("vma/inexor_vma_replays_rst_1.8.csv"), opt);
  CHECK(r.calls == 36);
  CHECK(r.replayed_calls == 5);
  CHECK(r.buffers == 1);
  CHECK(r.images == 2);
  // Line 60 destroys the buffer created on line 58, within the range.
  CHECK(r.unknown_objects == 0);
}

TEST_CASE_FIXTURE(Env, "vma_replay: custom pools with a block count limit, and pool destruction") {
  const ReplayResult r = run_calls(R"(
      1,0.1,0,vmaCreatePool,1,0,1048576,0,1,0,00000000000000F1
      1,0.1,0,vmaCreateBuffer,0,524288,1,0,0,0,0,0,0,00000000000000F1,00000000000000A1,
      1,0.1,0,vmaCreateBuffer,0,524288,1,0,0,0,0,0,0,00000000000000F1,00000000000000A2,
      1,0.1,0,vmaCreateBuffer,0,524288,1,0,0,0,0,0,0,00000000000000F1,00000000000000A3,
      1,0.1,0,vmaCreateBuffer,0,2097152,1,0,0,0,0,0,0,00000000000000F1,00000000000000A4,
      1,0.2,0,vmaDestroyPool,00000000000000F1
      1,0.3,0,vmaDestroyBuffer,00000000000000A1
  )");
  CHECK_FALSE(r.error);
  CHECK(r.pools == 1);
  CHECK(r.failed[static_cast<std::size_t>(vk::Failure::pool_full)] == 1);  // a third half-block in one block
  CHECK(r.failed[static_cast<std::size_t>(vk::Failure::too_large)] == 1);  // larger than the pool's blocks
  CHECK(r.total.peak_committed == MiB);
  CHECK(r.device_allocations[r.mappings.at(0).replay_type].first == 1);
  CHECK(r.unknown_objects == 0);  // A1 went with its pool but is still known
  CHECK(r.leaked_pools == 0);
}

TEST_CASE_FIXTURE(Env, "vma_replay: dedicated allocations, original failures, unknown pointers") {
  std::vector<std::string> warnings;
  ReplayOptions opt;
  opt.warnings = [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); };
  const ReplayResult r = run_calls(R"(
      1,0.1,0,vmaCreateBuffer,0,65536,1,0,1,1,0,0,0,0000000000000000,00000000000000A1,
      1,0.1,0,vmaCreateBuffer,0,65536,1,0,0,1,0,0,0,0000000000000000,0000000000000000,
      1,0.2,0,vmaDestroyBuffer,00000000000000B7
      1,0.3,0,vmaDestroyBuffer,00000000000000A1
  )",
                                   opt);
  CHECK(r.dedicated_allocations == 1);
  CHECK(r.originally_failed == 1);
  CHECK(r.succeeded_originally_failed == 1);
  CHECK(r.unknown_objects == 1);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "rec.csv: line 24: vmaDestroyBuffer: allocation 00000000000000B7 not found");
  CHECK(r.leaked_allocations == 0);
}

TEST_CASE_FIXTURE(Env, "vma_replay: map, flush, unmap on real memory; lost allocations by frame") {
  const ReplayResult r = run_calls(R"(
      1,0.1,0,vmaCreateBuffer,0,4096,1,0,0,2,0,0,0,0000000000000000,00000000000000A1,
      1,0.1,0,vmaMapMemory,00000000000000A1
      1,0.1,0,vmaFlushAllocation,00000000000000A1,0,18446744073709551615
      1,0.1,0,vmaInvalidateAllocation,00000000000000A1,0,256
      1,0.1,0,vmaUnmapMemory,00000000000000A1
      1,0.1,0,vmaUnmapMemory,00000000000000A1
      1,0.1,0,vmaFlushAllocation,00000000000000A1,0,64
      1,0.2,0,vmaCreatePool,1,0,1048576,0,0,0,00000000000000F1
      1,0.2,0,vmaAllocateMemory,4096,256,15,8,0,0,0,0,00000000000000F1,00000000000000A2,
      1,0.2,1,vmaTouchAllocation,00000000000000A2
      1,0.3,2,vmaMakePoolAllocationsLost,00000000000000F1
      1,0.3,3,vmaMakePoolAllocationsLost,00000000000000F1
      1,0.3,3,vmaTouchAllocation,00000000000000A2
      1,0.3,3,vmaCreateLostAllocation,00000000000000A3
      1,0.4,3,vmaFreeMemory,00000000000000A2
      1,0.4,3,vmaFreeMemory,00000000000000A3
      1,0.4,3,vmaDestroyBuffer,00000000000000A1
      1,0.5,3,vmaDestroyPool,00000000000000F1
  )");
  CHECK_FALSE(r.error);
  CHECK(r.lost_allocations == 1);
  CHECK(r.leaked_allocations == 0);
  CHECK(r.ops.maps == 1);
  CHECK(r.ops.flushes == 1);
  CHECK(r.ops.invalidates == 1);
  CHECK(r.ops.unmaps == 1);
  CHECK(r.ops.unmatched_unmaps == 1);
  CHECK(r.ops.syncs_unmapped == 1);
  CHECK(r.ops.made_lost == 1);  // touched in frame 1: lost in frame 3, not in frame 2
  CHECK(r.ops.touches == 2);
  CHECK(r.ops.touches_lost == 1);
}

TEST_CASE_FIXTURE(Env, "vma_replay: defragmentation moves an allocation, rebinds its buffer, frees a block") {
  std::string calls = "1,0.1,0,vmaCreatePool,1,0,1048576,0,4,0,00000000000000F1\n";
  for (int i = 0; i < 8; ++i)
    calls +=
        "1,0.1,0,vmaCreateBuffer,0,262144,1,0,0,0,0,0,0,00000000000000F1,00000000000000A" + std::to_string(i) + ",\n";
  for (int i : {1, 2, 3, 5, 6, 7}) calls += "1,0.2,0,vmaDestroyBuffer,00000000000000A" + std::to_string(i) + "\n";
  calls +=
      "1,0.3,0,vmaDefragmentationBegin,0,,00000000000000F1,18446744073709551615,4294967295,0,0,"
      "0000000000000000,00000000000000C1\n"
      "1,0.3,0,vmaDefragmentationEnd,00000000000000C1\n";
  const ReplayResult r = run(kHeader + calls);
  CHECK_FALSE(r.error);
  CHECK(r.ops.defragmentations == 1);
  CHECK(r.ops.defrag_moves == 1);
  CHECK(r.ops.rebinds == 1);
  CHECK(r.ops.defrag_bytes_moved == 262144);
  CHECK(r.ops.defrag_blocks_freed == 1);
  CHECK(r.leaked_defrag_contexts == 0);
  CHECK(r.leaked_allocations == 2);
  CHECK(r.leaked_pools == 1);
}

TEST_CASE_FIXTURE(Env, "vma_replay: linear and buddy pools keep their algorithm, with no compromise") {
  auto alloc = [](const char* ptr, const char* size, const char* pool, const char* flags = "0") {
    return std::string("1,0.1,0,vmaAllocateMemory,") + size + ",256,15," + flags + ",0,0,0,0," + pool + "," + ptr +
           ",\n";
  };
  const char* lin = "00000000000000F1";
  const char* bud = "00000000000000F2";
  const char* dbl = "00000000000000F3";
  std::string calls = std::string("1,0.1,0,vmaCreatePool,1,4,65536,0,0,0,") + lin + "\n" +
                      "1,0.1,0,vmaCreatePool,1,8,65536,0,0,0," + bud + "\n" + "1,0.1,0,vmaCreatePool,1,4,65536,0,1,0," +
                      dbl + "\n";
  // Linear: the hole left by A2 is not refilled, so A5 needs a second block.
  calls += alloc("00000000000000A1", "16384", lin) + alloc("00000000000000A2", "16384", lin) +
           alloc("00000000000000A3", "16384", lin) + "1,0.2,0,vmaFreeMemory,00000000000000A2\n" +
           alloc("00000000000000A4", "16384", lin) + alloc("00000000000000A5", "16384", lin);
  // Buddy: three 20000-byte allocations in 32 KiB nodes, two blocks.
  calls += alloc("00000000000000B1", "20000", bud) + alloc("00000000000000B2", "20000", bud) +
           alloc("00000000000000B3", "20000", bud);
  // Double stack in one block: two from each end fill it.
  for (const char* p : {"00000000000000D1", "00000000000000D2"}) calls += alloc(p, "16384", dbl);
  for (const char* p : {"00000000000000D3", "00000000000000D4"}) calls += alloc(p, "16384", dbl, "64");
  const ReplayResult r = run(kHeader + calls);
  CHECK_FALSE(r.error);
  std::uint64_t failed = 0;
  for (auto f : r.failed) failed += f;
  CHECK(failed == 0);
  CHECK(r.total.peak_blocks == 5);
  CHECK(r.total.peak_committed == 5 * 65536);
  for (std::size_t k = 0; k < kCompromiseCount; ++k)
    if (static_cast<Compromise>(k) != Compromise::recorded_requirements) CHECK(r.compromises[k] == 0);
}

TEST_CASE_FIXTURE(Env, "vma_replay: VMA_DEBUG_MARGIN from the Config section spaces block allocations") {
  std::string config = kHeader;
  config.insert(config.find("Config,End"), "Macro,VMA_DEBUG_MARGIN,16\n");
  const std::string calls =
      "1,0.1,0,vmaCreatePool,1,0,65536,0,0,0,00000000000000F1\n"
      "1,0.1,0,vmaAllocateMemory,32768,256,15,0,0,0,0,0,00000000000000F1,00000000000000A1,\n"
      "1,0.1,0,vmaAllocateMemory,32768,256,15,0,0,0,0,0,00000000000000F1,00000000000000A2,\n";
  CHECK(run(kHeader + calls).total.peak_blocks == 1);
  CHECK(run(config + calls).total.peak_blocks == 2);  // 16 + 32768 + 16 leaves too little
}

TEST_CASE_FIXTURE(Env, "vma_replay: heap exhaustion is a counted failure") {
  const auto& mem = device.memory();
  const std::uint64_t heap = mem.memoryHeaps[mem.memoryTypes[0].heapIndex].size;
  const std::uint64_t max = device.info().max_memory_allocation_size;
  const std::uint64_t part = heap / 2 + MiB;
  if (max && part > max) return;
  const std::string size = std::to_string(part);
  const ReplayResult r = run(kHeader + "1,0.1,0,vmaAllocateMemory," + size +
                             ",256,15,0,1,0,0,0,0000000000000000,00000000000000A1,\n"
                             "1,0.1,0,vmaAllocateMemory," +
                             size +
                             ",256,15,0,1,0,0,0,0000000000000000,00000000000000A2,\n"
                             "1,0.1,0,vmaFreeMemory,00000000000000A2\n");
  CHECK_FALSE(r.error);
  CHECK(r.failed[static_cast<std::size_t>(vk::Failure::heap_budget)] == 1);
  CHECK(r.unknown_objects == 0);
  CHECK(r.leaked_allocations == 1);
}

TEST_CASE_FIXTURE(Env, "vma_replay: create-infos this device cannot take are adjusted, or replaced by plain memory") {
  // A 16x16 image with 8 mip levels (5 exist) and an ASTC image.
  const ReplayResult r = run_calls(R"(
      1,0.1,0,vmaCreateImage,0,1,37,16,16,1,8,1,1,0,6,0,0,0,1,0,0,0,0000000000000000,00000000000000A1,
      1,0.1,0,vmaCreateImage,0,1,157,64,64,1,1,1,1,0,4,0,0,0,1,0,0,0,0000000000000000,00000000000000A2,
      1,0.1,0,vmaCreateBuffer,0,1024,1,1,0,1,0,0,0,0000000000000000,00000000000000A3,
  )");
  CHECK_FALSE(r.error);
  CHECK(r.compromises[static_cast<std::size_t>(Compromise::image_adjusted)] >= 1);
  CHECK(r.compromises[static_cast<std::size_t>(Compromise::buffer_adjusted)] == 1);  // CONCURRENT -> EXCLUSIVE
  VkImageFormatProperties p;
  const bool astc = vkGetPhysicalDeviceImageFormatProperties(device.physical(), VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
                                                             VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                             VK_IMAGE_USAGE_SAMPLED_BIT, 0, &p) == VK_SUCCESS;
  CHECK(r.compromises[static_cast<std::size_t>(Compromise::image_unsupported)] == (astc ? 0 : 1));
  CHECK(r.images == 2);
  CHECK(r.leaked_allocations == 3);
}

TEST_CASE_FIXTURE(Env, "vma_replay: a malformed line stops the replay with its line, after what came before") {
  const ReplayResult r = run_calls(R"(
      1,0.1,0,vmaCreateBuffer,0,1024,1,0,0,1,0,0,0,0000000000000000,00000000000000A1,
      1,0.1,0,vmaCreateBuffer,0,zzz
  )");
  REQUIRE(r.error);
  CHECK(std::string(r.error->what()).find("rec.csv: line 23") == 0);
  CHECK(r.buffers == 1);
  CHECK(r.leaked_allocations == 1);  // destroyed at the end all the same
}

TEST_CASE_FIXTURE(Env, "vma_replay: hostile values reach the driver only as valid create-infos") {
  // Every field at an extreme: all-ones flags and usages, sizes and
  // alignments near 2^64, unknown formats and image types, zero extents,
  // pools with impossible block counts, a block size macro of 0. Checked
  // under ASan and UBSan by hand; here it must simply run to the end.
  const std::string text =
      "Vulkan Memory Allocator,Calls recording\n1,5\nConfig,Begin\nPhysicalDeviceMemory,HeapCount,1\n"
      "PhysicalDeviceMemory,Heap,0,size,0\nPhysicalDeviceMemory,TypeCount,40\n"
      "Macro,VMA_DEFAULT_LARGE_HEAP_BLOCK_SIZE,0\nMacro,VMA_DEBUG_ALIGNMENT,3\nConfig,End\n"
      "1,0.0,0,vmaCreateAllocator\n"
      "1,0.1,0,vmaCreateBuffer,4294967295,18446744073709551615,4294967295,7,4294967295,99,4294967295,4294967295,"
      "4294967295,0000000000000000,00000000000000A1,\n"
      "1,0.1,0,vmaCreateBuffer,0,1,4294967295,0,0,6,0,0,0,0000000000000000,00000000000000A2,\n"
      "1,0.1,0,vmaCreateImage,4294967295,7,9999,0,0,0,0,0,3,9,4294967295,5,77,0,1,0,0,0,0000000000000000,"
      "00000000000000A3,\n"
      "1,0.1,0,vmaCreateImage,16,1,37,65535,65535,65535,4294967295,4294967295,64,1,255,0,8,0,1,0,0,0,"
      "0000000000000000,00000000000000A4,\n"
      "1,0.1,0,vmaCreateImage,16,1,130,4096,4096,1,32,6,64,0,4294967295,0,0,0,1,0,0,0,0000000000000000,"
      "00000000000000A5,\n"
      "1,0.1,0,vmaCreateImage,0,2,1000156004,4096,4096,4096,32,6,1,0,4,0,0,0,1,0,0,0,0000000000000000,"
      "00000000000000A6,\n"
      "1,0.1,0,vmaAllocateMemory,18446744073709551615,9223372036854775808,0,0,0,0,0,0,0000000000000000,"
      "00000000000000A7,\n"
      "1,0.1,0,vmaAllocateMemory,1000,9223372036854775807,4294967295,4294967295,4294967295,4294967295,"
      "4294967295,4294967295,0000000000000000,00000000000000A8,\n"
      "1,0.1,0,vmaAllocateMemoryPages,0,0,0,0,0,0,0,0,0000000000000000,00000000000000B1 00000000000000B2,\n"
      "1,0.1,0,vmaCreatePool,4294967295,4294967295,18446744073709551615,18446744073709551615,1,4294967295,"
      "00000000000000F1\n"
      "1,0.1,0,vmaCreatePool,0,0,1,3,1,0,00000000000000F2\n"
      "1,0.1,0,vmaCreatePool,0,2,4096,0,0,4294967295,00000000000000F3\n"
      "1,0.1,0,vmaCreateBuffer,0,100,1,0,24,1,0,0,0,00000000000000F3,00000000000000A9,\n"
      "1,0.1,4294967295,vmaMakePoolAllocationsLost,00000000000000F3\n"
      "1,0.1,0,vmaFlushAllocation,00000000000000A9,18446744073709551615,18446744073709551615\n"
      "1,0.1,0,vmaMapMemory,00000000000000A9\n"
      "1,0.1,0,vmaFlushAllocation,00000000000000A9,99,18446744073709551615\n"
      "1,0.1,0,vmaResizeAllocation,00000000000000A9,18446744073709551615\n"
      "1,0.1,0,vmaResizeAllocation,00000000000000A9,0\n"
      "1,0.1,0,vmaDefragmentationBegin,4294967295,00000000000000A9 00000000000000A9 0000000000000001,"
      "00000000000000F3 00000000000000F3,0,0,18446744073709551615,4294967295,0000000000000001,0000000000000000\n"
      "1,0.1,0,vmaDefragmentationEnd,00000000000000C9\n"
      "1,0.1,0,vmaDestroyPool,00000000000000F3\n"
      "1,0.1,0,vmaUnmapMemory,00000000000000A9\n"
      "1,0.1,0,vmaCreateLostAllocation,00000000000000A1\n"
      "1,0.1,0,vmaTouchAllocation,00000000000000A1\n";
  const ReplayResult r = run(text);
  CHECK_FALSE(r.error);
  CHECK(r.replayed_calls == 26);
  CHECK(r.images == 4);
  CHECK(r.pools == 3);
  CHECK(r.ops.resizes == 2);
  CHECK(r.ops.resize_failures == 2);  // neither 2^64-1 bytes nor 0 bytes
  CHECK(r.unknown_objects >= 2);      // the context and a listed 0000000000000001
  CHECK(r.total.allocations == 0);
}
