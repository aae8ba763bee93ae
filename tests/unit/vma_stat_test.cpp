// SPDX-License-Identifier: MIT
#include "libtrace/vma_stat.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::vma;

// A generated recording with counts computed independently of trak's counter:
// random creations and destructions on several threads, pointers reused after
// free, some allocations never freed.
TEST_CASE("vma_stat: generated recording, counts checked against the generator") {
  std::mt19937 rng(11);
  std::string text =
      "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\n"
      "PhysicalDeviceMemory,HeapCount,2\nPhysicalDeviceMemory,Heap,0,size,1000000\n"
      "PhysicalDeviceMemory,Heap,0,flags,1\nPhysicalDeviceMemory,Heap,1,size,2000000\n"
      "PhysicalDeviceMemory,Heap,1,flags,0\nPhysicalDeviceMemory,TypeCount,2\n"
      "PhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,1\n"
      "PhysicalDeviceMemory,Type,1,heapIndex,1\nPhysicalDeviceMemory,Type,1,propertyFlags,6\nConfig,End\n";
  std::vector<std::uint64_t> live, free_ptrs;
  std::uint64_t next_ptr = 0x1000, calls = 0, peak = 0, created = 0;
  std::uint64_t live_device_bytes = 0, peak_device_bytes = 0;
  std::map<std::uint64_t, std::uint64_t> size_of;
  double t = 0;
  for (int i = 0; i < 5000; ++i) {
    t += 0.001;
    const unsigned thread = 100 + rng() % 3;
    char head[64];
    std::snprintf(head, sizeof head, "%u,%.3f,%d,", thread, t, i / 100);
    if (live.empty() || rng() % 3 != 0) {
      std::uint64_t p;
      if (!free_ptrs.empty() && rng() % 2) {
        p = free_ptrs.back();
        free_ptrs.pop_back();
      } else {
        p = next_ptr += 0x40;
      }
      const std::uint64_t size = 16 + rng() % 4096;
      const unsigned usage = 1;  // GPU_ONLY: prefers DEVICE_LOCAL -> type 0, heap 0
      char line[256];
      std::snprintf(line, sizeof line, "vmaCreateBuffer,0,%llu,1,0,0,%u,0,0,0,0000000000000000,%016llX,\n",
                    static_cast<unsigned long long>(size), usage, static_cast<unsigned long long>(p));
      text += head;
      text += line;
      live.push_back(p);
      size_of[p] = size;
      ++created;
      live_device_bytes += size;
      peak_device_bytes = std::max(peak_device_bytes, live_device_bytes);
    } else {
      const std::size_t k = rng() % live.size();
      const std::uint64_t p = live[k];
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      free_ptrs.push_back(p);
      char line[128];
      std::snprintf(line, sizeof line, "vmaDestroyBuffer,%016llX\n", static_cast<unsigned long long>(p));
      text += head;
      text += line;
      live_device_bytes -= size_of[p];
    }
    ++calls;
    peak = std::max<std::uint64_t>(peak, live.size());
  }
  Stats s = recording_stats(std::make_unique<test::MemDecoder>(text, 4096), "gen.csv", StatOptions{});
  CHECK_FALSE(s.error);
  CHECK(s.calls == calls);
  CHECK(s.allocations_created == created);
  CHECK(s.peak_live_allocations == peak);
  CHECK(s.live_at_end == live.size());
  CHECK(s.leaks.size() == live.size());
  CHECK(s.calls_per_thread.size() == 3);
  CHECK(s.frames == 50);
  CHECK(s.peak_live_bytes == peak_device_bytes);
  REQUIRE(s.peak_bytes_per_heap.size() == 2);
  CHECK(s.peak_bytes_per_heap[0] == peak_device_bytes);
  CHECK(s.peak_bytes_per_heap[1] == 0);
  CHECK(s.unknown_pointer_destroys == 0);
  // The timeline is bounded and keeps the peak.
  CHECK(s.timeline_time.size() <= Stats::kTimelinePoints);
  CHECK(s.timeline_time.size() > 100);
  std::uint64_t timeline_peak = 0;
  for (const auto& row : s.timeline_heap_bytes) timeline_peak = std::max(timeline_peak, row[0]);
  CHECK(timeline_peak == peak_device_bytes);
  CHECK(std::is_sorted(s.timeline_time.begin(), s.timeline_time.end()));
  const std::string html = format_html(s);
  CHECK(html.find("<svg id=\"live-bytes\"") != std::string::npos);
  CHECK(html.find("http") == html.find("http://www.w3.org/2000/svg"));  // no other URL: self-contained
}

TEST_CASE("vma_stat: image size estimates") {
  // 128x128 RGBA8 (format 37), 1 mip: 64 KiB.
  CHECK(estimate_image_bytes(37, 128, 128, 1, 1, 1, 1) == 65536);
  // Full mip chain of 4x4 RGBA8: 16 + 4 + 1 texels.
  CHECK(estimate_image_bytes(37, 4, 4, 1, 3, 1, 1) == 84);
  // BC1 (131): half a byte per texel.
  CHECK(estimate_image_bytes(131, 64, 64, 1, 1, 1, 1) == 2048);
  // D32 (126) 800x600, 4 samples.
  CHECK(estimate_image_bytes(126, 800, 600, 1, 1, 1, 4) == 800ull * 600 * 4 * 4);
}
