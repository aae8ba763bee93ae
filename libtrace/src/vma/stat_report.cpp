// SPDX-License-Identifier: MIT
// Table and JSON renderings of VMA recording statistics.

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "core/report.hpp"
#include "core/text_util.hpp"
#include "libtrace/vma/stat.hpp"
#include "vma/stat_labels.hpp"

#include "registry/registry.hpp"

namespace libtrace::vma {

namespace {

using libtrace::detail::appendf;

using libtrace::detail::human_bytes;
using vma::detail::block_range;
using vma::detail::kLifetimeLabels;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

double busiest_percent(const Stats& s) {
  std::uint64_t most = 0;
  for (const auto& [t, n] : s.calls_per_thread) most = std::max(most, n);
  return s.calls ? 100.0 * static_cast<double>(most) / static_cast<double>(s.calls) : 0.0;
}

std::string device_name(const Stats& s) {
  auto it = s.header.config.physical_device.find("deviceName");
  return it == s.header.config.physical_device.end() ? std::string() : it->second;
}

}  // namespace

std::string report_table(const Stats& s) {
  libtrace::detail::TableReport table(22);
  std::string& o = table.text();
  const Config& c = s.header.config;
  table.row("file", s.file + " (" + std::string(container_name(s.container)) + ")");
  table.row("format", "VMA calls recording " + s.header.version.str());
  if (!device_name(s).empty()) table.row("device", device_name(s));
  for (std::size_t i = 0; i < c.heaps.size(); ++i)
    table.row(i ? "" : "heaps", std::to_string(i) + ": " + human_bytes(c.heaps[i].size) + ", " +
                                    registry::flag_names(*registry::find_enum("VkMemoryHeapFlagBits"), c.heaps[i].flags,
                                                         "VK_MEMORY_HEAP_"));
  for (std::size_t i = 0; i < c.types.size(); ++i)
    table.row(i ? "" : "memory types", std::to_string(i) + ": heap " + std::to_string(c.types[i].heap) + ", " +
                                           registry::flag_names(*registry::find_enum("VkMemoryPropertyFlagBits"),
                                                                c.types[i].property_flags, "VK_MEMORY_PROPERTY_"));
  auto count = [](std::uint64_t n, const char* one, const char* more) {
    return std::to_string(n) + (n == 1 ? one : more);
  };
  const std::string notes = vma::detail::warning_notes(s.warnings, s.dropped_lines, count);
  table.row("calls", std::to_string(s.calls) + (notes.empty() ? "" : " (" + notes + ")"));
  if (s.error) table.row("stopped", std::string(s.error->what()) + " (the figures cover the lines before)");
  table.row("duration",
            fmt("%.3f s", s.last_time - s.first_time) +
                (s.time_steps_back ? " (time steps back " + std::to_string(s.time_steps_back) + " times)" : ""));
  table.row("frames", std::to_string(s.frames));
  table.row("threads", std::to_string(s.calls_per_thread.size()) +
                           fmt(" (busiest makes %.1f%% of the calls)", busiest_percent(s)));
  table.row("allocations created",
            std::to_string(s.allocations_created) + " (" + std::to_string(s.failed_creations) + " creations failed)");
  table.row("peak live", std::to_string(s.peak_live_allocations) + " allocations (line " +
                             std::to_string(s.peak_live_allocations_line) + "), " + human_bytes(s.peak_live_bytes) +
                             (s.image_bytes_estimated ? " (image sizes estimated)" : ""));
  for (std::size_t h = 0; h < s.peak_bytes_per_heap.size(); ++h)
    table.row(h ? "" : "peak per heap", std::to_string(h) + ": " + human_bytes(s.peak_bytes_per_heap[h]));
  if (s.unresolved_type_allocations)
    table.row("", std::to_string(s.unresolved_type_allocations) +
                      " allocations with no resolvable memory type (not in heap figures)");
  table.row("live at end", std::to_string(s.live_at_end) + " allocations, " + human_bytes(s.live_bytes_at_end));
  if (s.unknown_pointer_destroys) table.row("unknown destroys", std::to_string(s.unknown_pointer_destroys));
  if (s.reused_live_pointers) table.row("reused live pointers", std::to_string(s.reused_live_pointers));

  o += "\nfunction                             calls\n";
  for (std::size_t f = 0; f < kFunctionCount; ++f) {
    if (!s.calls_per_function[f]) continue;
    appendf(o, "%-32s %9llu\n", std::string(function_name(static_cast<Function>(f))).c_str(),
            static_cast<unsigned long long>(s.calls_per_function[f]));
  }
  // The busiest threads first; a recording of a thread pool can hold many.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> threads;
  for (const auto& [thread, calls] : s.calls_per_thread) threads.push_back({calls, thread});
  std::sort(threads.begin(), threads.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  o += "\nthread                               calls      %\n";
  const std::size_t threads_shown = std::min<std::size_t>(threads.size(), 10);
  for (std::size_t i = 0; i < threads_shown; ++i) {
    appendf(o, "%-32u %9llu %5.1f%%\n", threads[i].second, static_cast<unsigned long long>(threads[i].first),
            s.calls ? 100.0 * static_cast<double>(threads[i].first) / static_cast<double>(s.calls) : 0.0);
  }
  if (threads_shown < threads.size())
    o += "... and " + std::to_string(threads.size() - threads_shown) + " more (--json lists all)\n";
  o += "\nallocation size      count\n";
  for (std::size_t k = 0; k < s.size_histogram.size(); ++k) {
    if (!s.size_histogram[k]) continue;
    appendf(o, "%-18s %7llu\n", ("< " + human_bytes(2ull << k)).c_str(),
            static_cast<unsigned long long>(s.size_histogram[k]));
  }
  o += "\nlifetime             count\n";
  for (std::size_t k = 0; k < s.lifetime_histogram.size(); ++k) {
    appendf(o, "%-18s %7llu\n", kLifetimeLabels[k], static_cast<unsigned long long>(s.lifetime_histogram[k]));
  }
  if (!s.pools.empty()) {
    o += "\npool               line  type  block size     blocks  allocations  name\n";
    for (const Pool& p : s.pools) {
      appendf(o, "%016llX %6llu %5u %11s %10s %11llu  %s%s\n", static_cast<unsigned long long>(p.pointer),
              static_cast<unsigned long long>(p.line), p.memory_type, human_bytes(p.block_size).c_str(),
              block_range(p.min_blocks, p.max_blocks).c_str(), static_cast<unsigned long long>(p.allocations),
              p.name.c_str(), p.destroyed ? "" : " (never destroyed)");
    }
  }
  if (!s.leaks.empty()) {
    o += "\nnever freed        line  function                    size  user data\n";
    const std::size_t shown = std::min<std::size_t>(s.leaks.size(), 20);
    for (std::size_t i = 0; i < shown; ++i) {
      const Leak& l = s.leaks[i];
      appendf(o, "%016llX %6llu  %-24s %9s  %s\n", static_cast<unsigned long long>(l.pointer),
              static_cast<unsigned long long>(l.line), std::string(function_name(l.function)).c_str(),
              human_bytes(l.bytes).c_str(), l.user_data.c_str());
    }
    if (shown < s.leaks.size()) o += "... and " + std::to_string(s.leaks.size() - shown) + " more (--json lists all)\n";
  }
  return o;
}

std::string report_json(const Stats& s) {
  libtrace::detail::JsonReport report;
  // As recordings spell them (MSVC's %p).
  auto pointer = [](std::uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "%016llX", static_cast<unsigned long long>(v));
    return std::string(text);
  };
  const Config& c = s.header.config;
  report.object([&] {
    report.members("format", "vma-csv", "file", s.file, "container", container_name(s.container), "version",
                   s.header.version.str());
    report.object("device", [&] {
      for (const auto& [k, v] : c.physical_device) {
        report.text(k);  // a key from the file
        report.text(v);
      }
    });
    report.array_of_indexes("heaps", c.heaps.size(), [&](std::size_t i) {
      report.object([&] {
        report.members("size", c.heaps[i].size, "flags", c.heaps[i].flags, "peak_live_bytes",
                       i < s.peak_bytes_per_heap.size() ? s.peak_bytes_per_heap[i] : 0);
      });
    });
    report.array_of_indexes("memory_types", c.types.size(), [&](std::size_t i) {
      report.object([&] {
        report.members("heap", c.types[i].heap, "property_flags", c.types[i].property_flags, "peak_live_bytes",
                       i < s.peak_bytes_per_type.size() ? s.peak_bytes_per_type[i] : 0);
      });
    });
    report.u64("calls", s.calls);
    report.object("calls_per_function", [&] {
      for (std::size_t f = 0; f < kFunctionCount; ++f)
        if (s.calls_per_function[f]) report.u64(function_name(static_cast<Function>(f)), s.calls_per_function[f]);
    });
    report.object("threads", [&] {
      libtrace::detail::put_thread_calls(report, s.calls_per_thread);
      report.f64("busiest_percent", busiest_percent(s));
    });
    report.members("frames", s.frames, "duration_s", s.last_time - s.first_time, "time_steps_back", s.time_steps_back,
                   "allocations_created", s.allocations_created, "failed_creations", s.failed_creations,
                   "peak_live_allocations", s.peak_live_allocations, "peak_live_allocations_line",
                   s.peak_live_allocations_line, "live_at_end", s.live_at_end, "peak_live_bytes", s.peak_live_bytes,
                   "live_bytes_at_end", s.live_bytes_at_end, "image_sizes_estimated", s.image_bytes_estimated,
                   "unresolved_memory_type_allocations", s.unresolved_type_allocations);
    report.array("size_histogram_log2", s.size_histogram, [&](std::uint64_t v) { report.u64(v); });
    report.object("lifetime_histogram", [&] {
      for (std::size_t k = 0; k < s.lifetime_histogram.size(); ++k)
        report.u64(kLifetimeLabels[k], s.lifetime_histogram[k]);
    });
    report.objects("leaks", s.leaks, [&](const Leak& l) {
      report.members("pointer", pointer(l.pointer), "line", l.line, "function", function_name(l.function), "bytes",
                     l.bytes, "user_data", l.user_data);
    });
    report.objects("pools", s.pools, [&](const Pool& p) {
      report.members("pointer", pointer(p.pointer), "line", p.line, "memory_type", p.memory_type, "block_size",
                     p.block_size, "min_blocks", p.min_blocks, "max_blocks", p.max_blocks, "name", p.name,
                     "allocations", p.allocations, "destroyed", p.destroyed);
    });
    report.members("unknown_pointer_destroys", s.unknown_pointer_destroys, "reused_live_pointers",
                   s.reused_live_pointers, "warnings", s.warnings, "dropped_lines", s.dropped_lines);
    if (s.error) report.text("error", s.error->what());  // the figures cover the lines before it
  });
  return report.finish();
}

}  // namespace libtrace::vma
