// SPDX-License-Identifier: MIT
#include "libtrace/vma/stat.hpp"

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
  Stats s = stats(std::make_unique<test::MemDecoder>(text, 4096), "gen.csv", StatOptions{});
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
  const std::string html = report_html(s);
  CHECK(html.find("<svg id=\"live-bytes\"") != std::string::npos);
  CHECK(html.find("http") == html.find("http://www.w3.org/2000/svg"));  // no other URL: self-contained
}

// The page is the user's file: whatever the recording says stays text, flags
// read as names, and the plot's time axis ends where the summary says.
TEST_CASE("vma_stat: HTML report escapes the recording's text, names flags, agrees with itself") {
  const std::string text =
      "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\n"
      "PhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1000000\n"
      "PhysicalDeviceMemory,Heap,0,flags,1\nPhysicalDeviceMemory,TypeCount,1\n"
      "PhysicalDeviceMemory,Type,0,heapIndex,0\nPhysicalDeviceMemory,Type,0,propertyFlags,7\nConfig,End\n"
      "1,0.25,0,vmaCreateAllocator\n"
      "1,0.5,0,vmaCreateBuffer,0,1000,1,0,0,1,0,0,0,0000000000000000,000000000000A000,<script>x=\"1\"</script> & co\n"
      "1,0.7506,0,vmaDestroyAllocator\n";
  auto page = [&] {
    return report_html(stats(std::make_unique<test::MemDecoder>(text, 4096), "a<b>.csv", StatOptions{}));
  };
  const std::string html = page();
  CHECK(html == page());
  CHECK(html.find("<script>x") == std::string::npos);
  CHECK(html.find("&lt;script&gt;x=&quot;1&quot;&lt;/script&gt; &amp; co") != std::string::npos);
  CHECK(html.find("a<b>") == std::string::npos);
  CHECK(html.find("<td>DEVICE_LOCAL</td>") != std::string::npos);
  CHECK(html.find("<td>DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT</td>") != std::string::npos);
  CHECK(html.find("id=\"duration\">0.501 s<") != std::string::npos);
  CHECK(html.find(">0.501 s</text>") != std::string::npos);
  CHECK(html.find("<polyline class=\"heap\"") != std::string::npos);
  CHECK(html.find("http") == html.find("http://www.w3.org/2000/svg"));
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

// The figures cannot depend on where the decoder's blocks end, which decides
// how the lines are cut into chunks and which thread counts which.
TEST_CASE("vma_stat: the same figures however the recording is cut into blocks") {
  std::mt19937 rng(5);
  std::string text =
      "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\n"
      "PhysicalDeviceMemory,HeapCount,1\nPhysicalDeviceMemory,Heap,0,size,1000000\n"
      "PhysicalDeviceMemory,TypeCount,1\nPhysicalDeviceMemory,Type,0,heapIndex,0\nConfig,End\n";
  double t = 0;
  std::uint64_t calls = 0, calls_before_bad = 0;
  for (int i = 0; i < 4000; ++i) {
    // Time steps back now and then, frames change, threads interleave.
    t += (rng() % 5 == 0 ? -0.002 : 0.001);
    const std::string head =
        std::to_string(7 + rng() % 3) + "," + std::to_string(t < 0 ? 0 : t) + "," + std::to_string(i / 300) + ",";
    const std::uint64_t p = 0x100 + (rng() % 64) * 0x10;
    char ptr[17];
    std::snprintf(ptr, sizeof ptr, "%016llX", static_cast<unsigned long long>(p));
    // Pools come and go (every part of a split merge needs them); buffers
    // land in them now and then.
    if (i % 700 == 10) {
      text += head + "vmaCreatePool,0,0," + std::to_string(1 << 20) + ",0,0,0,0000000000000AB0\n";
      text += head + "vmaSetPoolName,0000000000000AB0,pool " + std::to_string(i) + "\n";
      calls += 2;
    } else if (i % 700 == 500) {
      text += head + "vmaDestroyPool,0000000000000AB0\n";
      ++calls;
    }
    switch (rng() % 6) {
      case 0:
      case 1:
        text += head + "vmaCreateBuffer,0," + std::to_string(64 << (rng() % 12)) + ",1,0,32,1,0,0,0," +
                (rng() % 4 ? "0000000000000000," : "0000000000000AB0,") + ptr +
                (rng() % 2 ? ",name, with comma\n" : ",\n");
        break;
      case 2: text += head + "vmaDestroyBuffer," + ptr + "\n"; break;
      case 3: text += head + "vmaSetAllocationUserData," + ptr + ",data " + std::to_string(i) + "\n"; break;
      case 4: text += head + "vmaFreeMemoryPages," + ptr + " 0000000000000FF0\n"; break;
      default:
        if (i % 50 == 0 && !calls_before_bad) calls_before_bad = calls;
        text += i % 50 ? head + "vmaTouchAllocation," + ptr + "\n" : "garbage line\n";
        if (i % 50 == 0) continue;
        break;
    }
    ++calls;
  }
  text += "1,0.5,0,vmaCreateBuf";  // cut off
  std::string first;
  for (const std::size_t block : {std::size_t{7}, std::size_t{64}, std::size_t{1000}, std::size_t{1} << 20}) {
    StatOptions opt;
    opt.keep_going = true;
    std::vector<std::string> warnings;
    opt.warnings = [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); };
    const Stats s = stats(std::make_unique<test::MemDecoder>(text, block), "r.csv", opt);
    CHECK_FALSE(s.error);
    CHECK(s.warnings == warnings.size());
    REQUIRE(warnings.size() > 5);
    CHECK(warnings.front().rfind("r.csv: line ", 0) == 0);
    CHECK(warnings.back() == "r.csv: line 4026: last line has no line end (the recording was cut off); dropped");
    std::string all = report_json(s) + report_table(s);
    for (const auto& w : warnings) all += w + "\n";
    if (first.empty()) first = all;
    CHECK_MESSAGE(all == first, "block size " << block);
  }
  // Threads: from 6 on (without the timeline) the live allocations are
  // split into parts, applied out of step and added up in file order after.
  for (const unsigned threads : {1u, 2u, 6u, 9u}) {
    for (const std::size_t block : {std::size_t{64}, std::size_t{1000}}) {
      StatOptions opt;
      opt.keep_going = true;
      opt.timeline = false;
      opt.threads = threads;
      std::vector<std::string> warnings;
      opt.warnings = [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); };
      const Stats s = stats(std::make_unique<test::MemDecoder>(text, block), "r.csv", opt);
      std::string all = report_json(s) + report_table(s);
      for (const auto& w : warnings) all += w + "\n";
      CHECK_MESSAGE(all == first, threads << " threads, block size " << block);
      CHECK(s.reused_live_pointers > 0);  // a pointer created again while live
      CHECK(s.unknown_pointer_destroys > 0);
      REQUIRE(s.pools.size() > 3);
      CHECK(s.pools.front().allocations > 0);
    }
  }

  // A file is parsed in place where it is mapped (after the peek trak-stat
  // makes to tell formats apart), and the timeline is left out when not
  // asked for: the same figures.
  test::ScratchDir dir;
  test::write_file(dir / "r.csv", text);
  for (const bool timeline : {true, false}) {
    InputFile in(dir / "r.csv");
    std::string head;
    auto decoder = peek_stream(open_decoder(in), 64, head);
    CHECK(decoder->in_place());
    StatOptions opt;
    opt.keep_going = true;
    opt.timeline = timeline;
    std::vector<std::string> warnings;
    opt.warnings = [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); };
    const Stats s = stats(std::move(decoder), "r.csv", opt);
    std::string all = report_json(s) + report_table(s);
    for (const auto& w : warnings) all += w + "\n";
    // (MemDecoder says "snappy".)
    const std::string plain = "\"container\":\"plain\"";
    REQUIRE(all.find(plain) != std::string::npos);
    all.replace(all.find(plain), plain.size(), "\"container\":\"snappy\"");
    const std::string tabled = "r.csv (plain)";
    REQUIRE(all.find(tabled) != std::string::npos);
    all.replace(all.find(tabled), tabled.size(), "r.csv (snappy)");
    CHECK(all == first);
    CHECK(s.timeline_time.empty() == !timeline);
  }

  // Without --keep-going the figures stop before the first bad line.
  for (const std::size_t block : {std::size_t{7}, std::size_t{1} << 20}) {
    const Stats s = stats(std::make_unique<test::MemDecoder>(text, block), "r.csv", StatOptions{});
    StatOptions split;
    split.timeline = false;
    split.threads = 7;
    const Stats p = stats(std::make_unique<test::MemDecoder>(text, block), "r.csv", split);
    CHECK(report_json(p) == report_json(s));
    REQUIRE(s.error);
    CHECK(std::string(s.error->what()).find("r.csv: line ") != std::string::npos);
    REQUIRE(calls_before_bad > 0);
    CHECK(s.calls == calls_before_bad);
  }
}
