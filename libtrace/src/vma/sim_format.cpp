// SPDX-License-Identifier: MIT
// Renderings of a simulated replay: VmaReplay's summary and more.

#include <cstdio>

#include "core/json_util.hpp"
#include "core/report.hpp"
#include "libtrace/vma/sim.hpp"

namespace libtrace::vma {

namespace {

// The share of committed memory no allocation used at the peak: blocks held
// ahead of need, and the holes between allocations.
double unused(const SimHeap& h) {
  return h.peak_committed ? 1.0 - static_cast<double>(h.used_at_peak) / static_cast<double>(h.peak_committed) : 0.0;
}

}  // namespace

std::string format_table(const SimResult& r) {
  std::string o;
  char line[512];
  auto row = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    o += line;
  };
  using ull = unsigned long long;
  row("Simulated replay (no device): recorded heaps and memory types, VMA-like block suballocation.\n");
  row("    Format version: %s\n", r.version.str().c_str());
  row("    Calls replayed: %llu of %llu\n", static_cast<ull>(r.replayed_calls), static_cast<ull>(r.calls));
  if (r.error) row("    Stopped: %s (the lines before were replayed)\n", r.error->what());
  row("Statistics:\n");
  row("    Total allocations created: %llu\n",
      static_cast<ull>(r.buffers + r.images + r.memory_allocations + r.pages + r.lost_allocations));
  row("    Total buffers created: %llu\n", static_cast<ull>(r.buffers));
  row("    Total images created: %llu\n", static_cast<ull>(r.images));
  row("    Total memory allocations (vmaAllocateMemory*): %llu, pages %llu, lost %llu\n",
      static_cast<ull>(r.memory_allocations), static_cast<ull>(r.pages), static_cast<ull>(r.lost_allocations));
  row("    Total custom pools created: %llu\n", static_cast<ull>(r.pools));
  row("    Creations that originally failed: %llu\n", static_cast<ull>(r.originally_failed));
  row("    Original recording time: %.3f s\n", r.duration);
  row("    Threads making calls to VMA: %llu\n", static_cast<ull>(r.threads));
  if (r.threads > 1)
    row("        %.2f%% calls from most active thread.\n", r.busiest_thread_percent);
  else
    row("        VMA used from only one thread.\n");
  row("Memory (simulated):\n");
  row("    Peak committed: %llu bytes in %llu device memory objects (%llu dedicated allocations)\n",
      static_cast<ull>(r.peak_committed), static_cast<ull>(r.peak_blocks), static_cast<ull>(r.dedicated));
  for (std::size_t h = 0; h < r.heaps.size(); ++h) {
    const SimHeap& s = r.heaps[h];
    row("    Heap %zu (%llu bytes): peak committed %llu, peak blocks %llu, used at peak %llu (%.1f%% unused)%s\n", h,
        static_cast<ull>(s.size), static_cast<ull>(s.peak_committed), static_cast<ull>(s.peak_blocks),
        static_cast<ull>(s.used_at_peak), 100.0 * unused(s), s.over_budget_allocations ? " (exceeds the heap)" : "");
    if (s.peak_committed)
      row("        At the peak: unused ranges in blocks %llu (the largest usable %llu bytes), fragmentation %.1f%%\n",
          static_cast<ull>(s.unused_ranges_at_peak), static_cast<ull>(s.largest_usable_at_peak),
          100.0 * s.fragmentation_at_peak);
  }
  if (r.unresolved)
    row("    %llu allocations with no resolvable memory type were left out.\n", static_cast<ull>(r.unresolved));
  row("Function call count:\n");
  for (std::size_t f = 0; f < kFunctionCount; ++f)
    if (r.calls_per_function[f])
      row("    %s %llu\n", std::string(function_name(static_cast<Function>(f))).c_str(),
          static_cast<ull>(r.calls_per_function[f]));
  return o;
}

std::string format_json(const SimResult& r) {
  libtrace::detail::JsonReport report;
  auto& w = report.writer();
  w.StartObject();
  w.Key("mode");
  w.String("simulate");
  w.Key("version");
  w.String(r.version.str().c_str());
  w.Key("calls");
  w.Uint64(r.calls);
  w.Key("replayed_calls");
  w.Uint64(r.replayed_calls);
  w.Key("allocations_created");
  w.Uint64(r.buffers + r.images + r.memory_allocations + r.pages + r.lost_allocations);
  w.Key("buffers");
  w.Uint64(r.buffers);
  w.Key("images");
  w.Uint64(r.images);
  w.Key("memory_allocations");
  w.Uint64(r.memory_allocations);
  w.Key("pages");
  w.Uint64(r.pages);
  w.Key("lost_allocations");
  w.Uint64(r.lost_allocations);
  w.Key("pools");
  w.Uint64(r.pools);
  w.Key("originally_failed");
  w.Uint64(r.originally_failed);
  w.Key("duration_s");
  w.Double(r.duration);
  w.Key("threads");
  w.Uint64(r.threads);
  w.Key("busiest_thread_percent");
  w.Double(r.busiest_thread_percent);
  w.Key("peak_committed_bytes");
  w.Uint64(r.peak_committed);
  w.Key("peak_blocks");
  w.Uint64(r.peak_blocks);
  w.Key("dedicated_allocations");
  w.Uint64(r.dedicated);
  w.Key("unresolved_memory_type");
  w.Uint64(r.unresolved);
  w.Key("heaps");
  w.StartArray();
  for (const SimHeap& h : r.heaps) {
    w.StartObject();
    w.Key("size");
    w.Uint64(h.size);
    w.Key("peak_committed_bytes");
    w.Uint64(h.peak_committed);
    w.Key("peak_blocks");
    w.Uint64(h.peak_blocks);
    w.Key("used_at_peak_bytes");
    w.Uint64(h.used_at_peak);
    w.Key("unused_at_peak");
    w.Double(unused(h));
    w.Key("unused_ranges_at_peak");
    w.Uint64(h.unused_ranges_at_peak);
    w.Key("largest_usable_range_at_peak_bytes");
    w.Uint64(h.largest_usable_at_peak);
    w.Key("fragmentation_at_peak");
    w.Double(h.fragmentation_at_peak);
    w.Key("committed_at_end_bytes");
    w.Uint64(h.committed_at_end);
    w.Key("exceeds_heap");
    w.Bool(h.over_budget_allocations > 0);
    w.EndObject();
  }
  w.EndArray();
  w.Key("calls_per_function");
  w.StartObject();
  for (std::size_t f = 0; f < kFunctionCount; ++f) {
    if (!r.calls_per_function[f]) continue;
    const std::string n(function_name(static_cast<Function>(f)));
    w.Key(n.c_str());
    w.Uint64(r.calls_per_function[f]);
  }
  w.EndObject();
  w.Key("warnings");
  w.Uint64(r.warnings);
  if (r.error) {
    w.Key("error");
    detail::put_text(w, r.error->what());  // what came before it was replayed
  }
  w.EndObject();
  return report.finish();
}

}  // namespace libtrace::vma
