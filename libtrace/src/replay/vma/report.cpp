// SPDX-License-Identifier: MIT
// Renderings of a device replay: VmaReplay's summary (same headings and
// wording where it has them) and more, or one JSON object.

#include <cstdio>

#include "core/report.hpp"
#include "libtrace/replay/vma/replay.hpp"
#include "vma/replay_summary.hpp"

namespace libtrace::vma {

namespace {

using libtrace::detail::appendf;

using ull = unsigned long long;

// VmaReplay's SecondsToFriendlyStr.
std::string friendly_seconds(double s) {
  char buf[32];
  if (s == 0)
    std::snprintf(buf, sizeof buf, "0");
  else if (s < 1e-6)
    std::snprintf(buf, sizeof buf, "%.3f ns", s * 1e9);
  else if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else if (s < 60)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%u:%02u min", static_cast<unsigned>(s / 60), static_cast<unsigned>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%u:%02u:%02u h", static_cast<unsigned>(s / 3600),
                  static_cast<unsigned>(s / 60) % 60, static_cast<unsigned>(s) % 60);
  return buf;
}

std::uint64_t failed_total(const ReplayResult& r) {
  std::uint64_t n = 0;
  for (std::uint64_t f : r.failed) n += f;
  return n;
}

void peaks(std::string& o, const vk::HeapUsage& h) {
  appendf(o, "        Peak blocks %llu, allocations %llu, unused ranges %llu\n", static_cast<ull>(h.peak_blocks),
          static_cast<ull>(h.peak_allocations), static_cast<ull>(h.peak_free_ranges));
  appendf(o, "        Peak total bytes %llu, used bytes %llu, unused bytes %llu\n", static_cast<ull>(h.peak_committed),
          static_cast<ull>(h.peak_used), static_cast<ull>(h.peak_unused));
  if (!h.peak_committed) return;
  appendf(o,
          "        At the peak of total bytes: unused ranges in blocks %llu (the largest usable %llu bytes), "
          "fragmentation %.1f%%\n",
          static_cast<ull>(h.unused_ranges_at_peak), static_cast<ull>(h.largest_usable_at_peak),
          100.0 * h.fragmentation_at_peak);
}

}  // namespace

std::string report_table(const ReplayResult& r) {
  std::string o;
  appendf(o, "Device: %s (%s, Vulkan %s, %s)\n", r.device_name.c_str(), r.device_type.c_str(),
          vk::version_string(r.api_version).c_str(), r.driver.c_str());
  append_progress(o, r);
  appendf(o, "Playback took: %s\n", friendly_seconds(r.playback_seconds).c_str());

  std::uint64_t count = 0, bytes = 0;
  for (const auto& [c, b] : r.device_allocations) count += c, bytes += b;
  appendf(o, "Successful device memory allocations:\n");
  appendf(o, "    Total: count = %llu, total size = %llu\n", static_cast<ull>(count), static_cast<ull>(bytes));
  for (std::size_t t = 0; t < r.device_allocations.size(); ++t)
    if (r.device_allocations[t].first)
      appendf(o, "    Memory type %zu: count = %llu, total size = %llu\n", t,
              static_cast<ull>(r.device_allocations[t].first), static_cast<ull>(r.device_allocations[t].second));

  append_created(o, r);
  appendf(o, "    Original recording time: %s\n", friendly_seconds(r.recording_time).c_str());
  append_threads(o, r);

  appendf(o, "Results on this device:\n");
  appendf(o, "    Failed here, succeeded in the recording: %llu\n", static_cast<ull>(failed_total(r)));
  for (std::size_t f = 1; f < vk::kFailureCount; ++f)
    if (r.failed[f])
      appendf(o, "        %s: %llu\n", std::string(vk::failure_name(static_cast<vk::Failure>(f))).c_str(),
              static_cast<ull>(r.failed[f]));
  appendf(o, "    Failed in the recording: %llu (here: %llu succeeded, %llu failed too)\n",
          static_cast<ull>(r.originally_failed), static_cast<ull>(r.succeeded_originally_failed),
          static_cast<ull>(r.failed_also_originally));
  if (r.resource_failures)
    appendf(o, "    Buffers/images the driver refused: %llu\n", static_cast<ull>(r.resource_failures));
  if (r.pool_failures) appendf(o, "    Custom pools that failed here: %llu\n", static_cast<ull>(r.pool_failures));
  appendf(o, "    Dedicated allocations: %llu\n", static_cast<ull>(r.dedicated_allocations));
  appendf(o,
          "    Never freed in the recording: %llu allocations (%llu bytes here), %llu pools, %llu defragmentation "
          "contexts\n",
          static_cast<ull>(r.leaked_allocations), static_cast<ull>(r.leaked_bytes), static_cast<ull>(r.leaked_pools),
          static_cast<ull>(r.leaked_defrag_contexts));
  if (r.unknown_objects)
    appendf(o, "    References to objects not live here: %llu\n", static_cast<ull>(r.unknown_objects));

  appendf(o, "Memory statistics:\n");
  appendf(o, "    Total:\n");
  peaks(o, r.total);
  for (std::size_t h = 0; h < r.heaps.size(); ++h) {
    const auto& dh = r.device_heaps[h];
    appendf(o, "    Heap %zu (%llu bytes, %s):\n", h, static_cast<ull>(dh.size),
            vk::memory_heap_names(dh.flags).c_str());
    peaks(o, r.heaps[h]);
  }

  appendf(o, "Memory type mapping (recorded -> here):\n");
  if (r.mappings.empty()) appendf(o, "    (no allocations)\n");
  for (const TypeMapping& m : r.mappings) {
    if (m.recorded_type >= 0)
      appendf(o, "    type %d (%s) -> type %u (%s): %llu allocations%s%s\n", m.recorded_type,
              vk::memory_property_names(m.recorded_flags).c_str(), m.replay_type,
              vk::memory_property_names(m.replay_flags).c_str(), static_cast<ull>(m.allocations),
              m.missing_flags ? ", missing " : "",
              m.missing_flags ? vk::memory_property_names(m.missing_flags).c_str() : "");
    else
      appendf(o, "    (no recorded types) -> type %u (%s): %llu allocations\n", m.replay_type,
              vk::memory_property_names(m.replay_flags).c_str(), static_cast<ull>(m.allocations));
  }
  bool any = false;
  for (std::size_t k = 0; k < kCompromiseCount; ++k) {
    if (!r.compromises[k]) continue;
    if (!any) appendf(o, "Compromises:\n");
    any = true;
    appendf(o, "    %s: %llu\n", std::string(compromise_name(static_cast<Compromise>(k))).c_str(),
            static_cast<ull>(r.compromises[k]));
  }
  if (!any) appendf(o, "Compromises: none\n");
  if (!r.device_differences.empty()) {
    appendf(o, "Configuration parameters that don't match:\n");
    for (const auto& d : r.device_differences) appendf(o, "    %s\n", d.c_str());
  }

  const auto& p = r.ops;
  appendf(o, "Operations:\n");
  appendf(o, "    Maps %llu (failed %llu), unmaps %llu (without a map %llu)\n", static_cast<ull>(p.maps),
          static_cast<ull>(p.map_failures), static_cast<ull>(p.unmaps), static_cast<ull>(p.unmatched_unmaps));
  appendf(o, "    Flushes %llu, invalidates %llu (on unmapped memory, skipped: %llu)\n", static_cast<ull>(p.flushes),
          static_cast<ull>(p.invalidates), static_cast<ull>(p.syncs_unmapped));
  appendf(o, "    Touches %llu (lost %llu), made lost %llu, resizes %llu (failed %llu)\n", static_cast<ull>(p.touches),
          static_cast<ull>(p.touches_lost), static_cast<ull>(p.made_lost), static_cast<ull>(p.resizes),
          static_cast<ull>(p.resize_failures));
  appendf(o, "    Defragmentations %llu: %llu allocations moved (%llu bytes, %llu rebound), %llu blocks freed\n",
          static_cast<ull>(p.defragmentations), static_cast<ull>(p.defrag_moves),
          static_cast<ull>(p.defrag_bytes_moved), static_cast<ull>(p.rebinds), static_cast<ull>(p.defrag_blocks_freed));

  appendf(o, "Function call count (and time here):\n");
  for (std::size_t f = 0; f < kFunctionCount; ++f) {
    const FunctionStats& s = r.functions[f];
    if (!s.calls) continue;
    appendf(o, "    %s %llu (%s, %s each)\n", std::string(function_name(static_cast<Function>(f))).c_str(),
            static_cast<ull>(s.calls), friendly_seconds(s.seconds).c_str(),
            friendly_seconds(s.seconds / static_cast<double>(s.calls)).c_str());
  }
  return o;
}

std::string report_json(const ReplayResult& r) {
  libtrace::detail::JsonReport report;
  auto heap = [&](const vk::HeapUsage& h) {
    report.members("peak_blocks", h.peak_blocks, "peak_allocations", h.peak_allocations, "peak_unused_ranges",
                   h.peak_free_ranges, "peak_committed_bytes", h.peak_committed, "peak_used_bytes", h.peak_used,
                   "peak_unused_bytes", h.peak_unused, "unused_ranges_at_peak", h.unused_ranges_at_peak,
                   "largest_usable_range_at_peak_bytes", h.largest_usable_at_peak, "fragmentation_at_peak",
                   h.fragmentation_at_peak);
  };
  report.object([&] {
    report.text("mode", "device");
    report.object("device", [&] {
      report.members("name", r.device_name, "type", r.device_type, "api_version", vk::version_string(r.api_version),
                     "driver", r.driver, "vendor_id", r.vendor_id, "device_id", r.device_id);
    });
    report.members("version", r.version.str(), "calls", r.calls, "replayed_calls", r.replayed_calls, "playback_s",
                   r.playback_seconds);
    report.object("device_memory_allocations", [&] {
      std::uint64_t count = 0, bytes = 0;
      for (const auto& [c, b] : r.device_allocations) count += c, bytes += b;
      report.u64("count", count);
      report.u64("bytes", bytes);
      report.array_of_indexes("per_type", r.device_allocations.size(), [&](std::size_t t) {
        report.object([&] {
          report.members("type", t, "count", r.device_allocations[t].first, "bytes", r.device_allocations[t].second);
        });
      });
    });
    report.members("allocations_created", allocations_created(r), "buffers", r.buffers, "images", r.images,
                   "memory_allocations", r.memory_allocations, "pages", r.pages, "lost_allocations", r.lost_allocations,
                   "pools", r.pools, "recording_time_s", r.recording_time, "duration_s", r.duration, "threads",
                   r.threads, "busiest_thread_percent", r.busiest_thread_percent);
    report.object("failed_here", [&] {
      report.u64("total", failed_total(r));
      for (std::size_t f = 1; f < vk::kFailureCount; ++f)
        if (r.failed[f]) report.u64(vk::failure_name(static_cast<vk::Failure>(f)), r.failed[f]);
    });
    report.members("originally_failed", r.originally_failed, "succeeded_originally_failed",
                   r.succeeded_originally_failed, "failed_also_originally", r.failed_also_originally,
                   "resource_failures", r.resource_failures, "pool_failures", r.pool_failures, "dedicated_allocations",
                   r.dedicated_allocations);
    report.object("leaks", [&] {
      report.members("allocations", r.leaked_allocations, "bytes", r.leaked_bytes, "pools", r.leaked_pools,
                     "defragmentation_contexts", r.leaked_defrag_contexts);
    });
    report.u64("unknown_objects", r.unknown_objects);
    report.object("total", [&] { heap(r.total); });
    report.array_of_indexes("heaps", r.heaps.size(), [&](std::size_t h) {
      report.object([&] {
        report.members("index", h, "size", r.device_heaps[h].size, "flags",
                       vk::memory_heap_names(r.device_heaps[h].flags), "budget", r.heaps[h].budget);
        heap(r.heaps[h]);
      });
    });
    report.objects("memory_type_mapping", r.mappings, [&](const TypeMapping& m) {
      report.i64("recorded_type", m.recorded_type);
      report.members("recorded_flags", m.recorded_type >= 0 ? vk::memory_property_names(m.recorded_flags) : "",
                     "replay_type", m.replay_type, "replay_flags", vk::memory_property_names(m.replay_flags),
                     "allocations", m.allocations, "missing_flags",
                     m.missing_flags ? vk::memory_property_names(m.missing_flags) : "");
    });
    report.object("compromises", [&] {
      for (std::size_t k = 0; k < kCompromiseCount; ++k)
        if (r.compromises[k]) report.u64(compromise_name(static_cast<Compromise>(k)), r.compromises[k]);
    });
    report.array("device_differences", r.device_differences, [&](const std::string& d) { report.text(d); });
    const auto& p = r.ops;
    report.object("operations", [&] {
      report.members("maps", p.maps, "map_failures", p.map_failures, "unmaps", p.unmaps, "unmatched_unmaps",
                     p.unmatched_unmaps, "flushes", p.flushes, "invalidates", p.invalidates, "syncs_unmapped",
                     p.syncs_unmapped, "touches", p.touches, "touches_lost", p.touches_lost, "made_lost", p.made_lost,
                     "resizes", p.resizes, "resize_failures", p.resize_failures, "defragmentations", p.defragmentations,
                     "defrag_moves", p.defrag_moves, "defrag_bytes_moved", p.defrag_bytes_moved, "defrag_blocks_freed",
                     p.defrag_blocks_freed, "rebinds", p.rebinds);
    });
    report.object("calls_per_function", [&] {
      for (std::size_t f = 0; f < kFunctionCount; ++f)
        if (r.functions[f].calls) report.u64(function_name(static_cast<Function>(f)), r.functions[f].calls);
    });
    report.object("seconds_per_function", [&] {
      for (std::size_t f = 0; f < kFunctionCount; ++f)
        if (r.functions[f].calls) report.f64(function_name(static_cast<Function>(f)), r.functions[f].seconds);
    });
    report.u64("warnings", r.warnings);
    if (r.error) report.text("error", r.error->what());  // what came before it was replayed
  });
  return report.finish();
}

}  // namespace libtrace::vma
