// SPDX-License-Identifier: MIT
// Renderings of a simulated replay: VmaReplay's summary and more.

#include <cstdio>

#include "core/report.hpp"
#include "libtrace/vma/sim.hpp"
#include "vma/replay_summary.hpp"

namespace libtrace::vma {

namespace {

using libtrace::detail::appendf;

// The share of committed memory no allocation used at the peak: blocks held
// ahead of need, and the holes between allocations.
double unused(const SimHeap& h) {
  return h.peak_committed ? 1.0 - static_cast<double>(h.used_at_peak) / static_cast<double>(h.peak_committed) : 0.0;
}

}  // namespace

std::string report_table(const SimResult& r) {
  std::string o;
  using ull = unsigned long long;
  appendf(o, "Simulated replay (no device): recorded heaps and memory types, VMA-like block suballocation.\n");
  append_progress(o, r);
  append_created(o, r);
  appendf(o, "    Creations that originally failed: %llu\n", static_cast<ull>(r.originally_failed));
  appendf(o, "    Original recording time: %.3f s\n", r.duration);
  append_threads(o, r);
  appendf(o, "Memory (simulated):\n");
  appendf(o, "    Peak committed: %llu bytes in %llu device memory objects (%llu dedicated allocations)\n",
          static_cast<ull>(r.peak_committed), static_cast<ull>(r.peak_blocks), static_cast<ull>(r.dedicated));
  for (std::size_t h = 0; h < r.heaps.size(); ++h) {
    const SimHeap& s = r.heaps[h];
    appendf(
        o, "    Heap %zu (%llu bytes): peak committed %llu, peak blocks %llu, used at peak %llu (%.1f%% unused)%s\n", h,
        static_cast<ull>(s.size), static_cast<ull>(s.peak_committed), static_cast<ull>(s.peak_blocks),
        static_cast<ull>(s.used_at_peak), 100.0 * unused(s), s.over_budget_allocations ? " (exceeds the heap)" : "");
    if (s.peak_committed)
      appendf(
          o,
          "        At the peak: unused ranges in blocks %llu (the largest usable %llu bytes), fragmentation %.1f%%\n",
          static_cast<ull>(s.unused_ranges_at_peak), static_cast<ull>(s.largest_usable_at_peak),
          100.0 * s.fragmentation_at_peak);
  }
  if (r.unresolved)
    appendf(o, "    %llu allocations with no resolvable memory type were left out.\n", static_cast<ull>(r.unresolved));
  appendf(o, "Function call count:\n");
  for (std::size_t f = 0; f < kFunctionCount; ++f)
    if (r.calls_per_function[f])
      appendf(o, "    %s %llu\n", std::string(function_name(static_cast<Function>(f))).c_str(),
              static_cast<ull>(r.calls_per_function[f]));
  return o;
}

std::string report_json(const SimResult& r) {
  libtrace::detail::JsonReport report;
  report.object([&] {
    report.members("mode", "simulate", "version", r.version.str(), "calls", r.calls, "replayed_calls", r.replayed_calls,
                   "allocations_created", allocations_created(r), "buffers", r.buffers, "images", r.images,
                   "memory_allocations", r.memory_allocations, "pages", r.pages, "lost_allocations", r.lost_allocations,
                   "pools", r.pools, "originally_failed", r.originally_failed, "duration_s", r.duration, "threads",
                   r.threads, "busiest_thread_percent", r.busiest_thread_percent, "peak_committed_bytes",
                   r.peak_committed, "peak_blocks", r.peak_blocks, "dedicated_allocations", r.dedicated,
                   "unresolved_memory_type", r.unresolved);
    report.objects("heaps", r.heaps, [&](const SimHeap& h) {
      report.members("size", h.size, "peak_committed_bytes", h.peak_committed, "peak_blocks", h.peak_blocks,
                     "used_at_peak_bytes", h.used_at_peak, "unused_at_peak", unused(h), "unused_ranges_at_peak",
                     h.unused_ranges_at_peak, "largest_usable_range_at_peak_bytes", h.largest_usable_at_peak,
                     "fragmentation_at_peak", h.fragmentation_at_peak, "committed_at_end_bytes", h.committed_at_end,
                     "exceeds_heap", h.over_budget_allocations > 0);
    });
    report.object("calls_per_function", [&] {
      for (std::size_t f = 0; f < kFunctionCount; ++f)
        if (r.calls_per_function[f]) report.u64(function_name(static_cast<Function>(f)), r.calls_per_function[f]);
    });
    report.u64("warnings", r.warnings);
    if (r.error) report.text("error", r.error->what());  // what came before it was replayed
  });
  return report.finish();
}

}  // namespace libtrace::vma
