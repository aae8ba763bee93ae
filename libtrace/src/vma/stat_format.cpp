// SPDX-License-Identifier: MIT
// Table and JSON renderings of VMA recording statistics.

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "core/json_util.hpp"
#include "core/report.hpp"
#include "core/text_util.hpp"
#include "libtrace/vma/stat.hpp"
#include "vma/stat_labels.hpp"

#include "registry/registry.hpp"

namespace libtrace::vma {

namespace {

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

std::string format_table(const Stats& s) {
  libtrace::detail::TableReport table(22);
  std::string& o = table.text();
  char line[512];
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
  std::string notes;
  if (s.dropped_lines) notes = count(s.dropped_lines, " line dropped with a warning", " lines dropped with warnings");
  if (s.warnings > s.dropped_lines && s.dropped_lines)
    notes += "; " + count(s.warnings - s.dropped_lines, " other warning", " other warnings");
  else if (s.warnings > s.dropped_lines)
    notes = count(s.warnings, " warning", " warnings") + ", no line dropped";
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
    std::snprintf(line, sizeof line, "%-32s %9llu\n", std::string(function_name(static_cast<Function>(f))).c_str(),
                  static_cast<unsigned long long>(s.calls_per_function[f]));
    o += line;
  }
  // The busiest threads first; a recording of a thread pool can hold many.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> threads;
  for (const auto& [thread, calls] : s.calls_per_thread) threads.push_back({calls, thread});
  std::sort(threads.begin(), threads.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  o += "\nthread                               calls      %\n";
  const std::size_t threads_shown = std::min<std::size_t>(threads.size(), 10);
  for (std::size_t i = 0; i < threads_shown; ++i) {
    std::snprintf(line, sizeof line, "%-32u %9llu %5.1f%%\n", threads[i].second,
                  static_cast<unsigned long long>(threads[i].first),
                  s.calls ? 100.0 * static_cast<double>(threads[i].first) / static_cast<double>(s.calls) : 0.0);
    o += line;
  }
  if (threads_shown < threads.size())
    o += "... and " + std::to_string(threads.size() - threads_shown) + " more (--json lists all)\n";
  o += "\nallocation size      count\n";
  for (std::size_t k = 0; k < s.size_histogram.size(); ++k) {
    if (!s.size_histogram[k]) continue;
    std::snprintf(line, sizeof line, "%-18s %7llu\n", ("< " + human_bytes(2ull << k)).c_str(),
                  static_cast<unsigned long long>(s.size_histogram[k]));
    o += line;
  }
  o += "\nlifetime             count\n";
  for (std::size_t k = 0; k < s.lifetime_histogram.size(); ++k) {
    std::snprintf(line, sizeof line, "%-18s %7llu\n", kLifetimeLabels[k],
                  static_cast<unsigned long long>(s.lifetime_histogram[k]));
    o += line;
  }
  if (!s.pools.empty()) {
    o += "\npool               line  type  block size     blocks  allocations  name\n";
    for (const Pool& p : s.pools) {
      std::snprintf(line, sizeof line, "%016llX %6llu %5u %11s %10s %11llu  %s%s\n",
                    static_cast<unsigned long long>(p.pointer), static_cast<unsigned long long>(p.line), p.memory_type,
                    human_bytes(p.block_size).c_str(), block_range(p.min_blocks, p.max_blocks).c_str(),
                    static_cast<unsigned long long>(p.allocations), p.name.c_str(),
                    p.destroyed ? "" : " (never destroyed)");
      o += line;
    }
  }
  if (!s.leaks.empty()) {
    o += "\nnever freed        line  function                    size  user data\n";
    const std::size_t shown = std::min<std::size_t>(s.leaks.size(), 20);
    for (std::size_t i = 0; i < shown; ++i) {
      const Leak& l = s.leaks[i];
      std::snprintf(line, sizeof line, "%016llX %6llu  %-24s %9s  %s\n", static_cast<unsigned long long>(l.pointer),
                    static_cast<unsigned long long>(l.line), std::string(function_name(l.function)).c_str(),
                    human_bytes(l.bytes).c_str(), l.user_data.c_str());
      o += line;
    }
    if (shown < s.leaks.size()) o += "... and " + std::to_string(s.leaks.size() - shown) + " more (--json lists all)\n";
  }
  return o;
}

std::string format_json(const Stats& s) {
  libtrace::detail::JsonReport report;
  auto& w = report.writer();
  // As recordings spell them (MSVC's %p).
  auto pointer = [&](std::uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "%016llX", static_cast<unsigned long long>(v));
    w.String(text);
  };
  const Config& c = s.header.config;
  w.StartObject();
  w.Key("format");
  w.String("vma-csv");
  w.Key("file");
  report.text(s.file);
  w.Key("container");
  report.text(std::string(container_name(s.container)));
  w.Key("version");
  report.text(s.header.version.str());
  w.Key("device");
  w.StartObject();
  for (const auto& [k, v] : c.physical_device) {
    report.text(k);
    report.text(v);
  }
  w.EndObject();
  w.Key("heaps");
  w.StartArray();
  for (std::size_t i = 0; i < c.heaps.size(); ++i) {
    w.StartObject();
    w.Key("size");
    w.Uint64(c.heaps[i].size);
    w.Key("flags");
    w.Uint(c.heaps[i].flags);
    w.Key("peak_live_bytes");
    w.Uint64(i < s.peak_bytes_per_heap.size() ? s.peak_bytes_per_heap[i] : 0);
    w.EndObject();
  }
  w.EndArray();
  w.Key("memory_types");
  w.StartArray();
  for (std::size_t i = 0; i < c.types.size(); ++i) {
    w.StartObject();
    w.Key("heap");
    w.Uint(c.types[i].heap);
    w.Key("property_flags");
    w.Uint(c.types[i].property_flags);
    w.Key("peak_live_bytes");
    w.Uint64(i < s.peak_bytes_per_type.size() ? s.peak_bytes_per_type[i] : 0);
    w.EndObject();
  }
  w.EndArray();
  w.Key("calls");
  w.Uint64(s.calls);
  w.Key("calls_per_function");
  w.StartObject();
  for (std::size_t f = 0; f < kFunctionCount; ++f) {
    if (!s.calls_per_function[f]) continue;
    report.text(std::string(function_name(static_cast<Function>(f))));
    w.Uint64(s.calls_per_function[f]);
  }
  w.EndObject();
  w.Key("threads");
  w.StartObject();
  libtrace::detail::put_thread_calls(w, s.calls_per_thread);
  w.Key("busiest_percent");
  w.Double(busiest_percent(s));
  w.EndObject();
  w.Key("frames");
  w.Uint64(s.frames);
  w.Key("duration_s");
  w.Double(s.last_time - s.first_time);
  w.Key("time_steps_back");
  w.Uint64(s.time_steps_back);
  w.Key("allocations_created");
  w.Uint64(s.allocations_created);
  w.Key("failed_creations");
  w.Uint64(s.failed_creations);
  w.Key("peak_live_allocations");
  w.Uint64(s.peak_live_allocations);
  w.Key("peak_live_allocations_line");
  w.Uint64(s.peak_live_allocations_line);
  w.Key("live_at_end");
  w.Uint64(s.live_at_end);
  w.Key("peak_live_bytes");
  w.Uint64(s.peak_live_bytes);
  w.Key("live_bytes_at_end");
  w.Uint64(s.live_bytes_at_end);
  w.Key("image_sizes_estimated");
  w.Uint64(s.image_bytes_estimated);
  w.Key("unresolved_memory_type_allocations");
  w.Uint64(s.unresolved_type_allocations);
  w.Key("size_histogram_log2");
  w.StartArray();
  for (auto v : s.size_histogram) w.Uint64(v);
  w.EndArray();
  w.Key("lifetime_histogram");
  w.StartObject();
  for (std::size_t k = 0; k < s.lifetime_histogram.size(); ++k) {
    w.Key(kLifetimeLabels[k]);
    w.Uint64(s.lifetime_histogram[k]);
  }
  w.EndObject();
  w.Key("leaks");
  w.StartArray();
  for (const Leak& l : s.leaks) {
    w.StartObject();
    w.Key("pointer");
    pointer(l.pointer);
    w.Key("line");
    w.Uint64(l.line);
    w.Key("function");
    report.text(std::string(function_name(l.function)));
    w.Key("bytes");
    w.Uint64(l.bytes);
    w.Key("user_data");
    report.text(l.user_data);
    w.EndObject();
  }
  w.EndArray();
  w.Key("pools");
  w.StartArray();
  for (const Pool& p : s.pools) {
    w.StartObject();
    w.Key("pointer");
    pointer(p.pointer);
    w.Key("line");
    w.Uint64(p.line);
    w.Key("memory_type");
    w.Uint(p.memory_type);
    w.Key("block_size");
    w.Uint64(p.block_size);
    w.Key("min_blocks");
    w.Uint64(p.min_blocks);
    w.Key("max_blocks");
    w.Uint64(p.max_blocks);
    w.Key("name");
    report.text(p.name);
    w.Key("allocations");
    w.Uint64(p.allocations);
    w.Key("destroyed");
    w.Bool(p.destroyed);
    w.EndObject();
  }
  w.EndArray();
  w.Key("unknown_pointer_destroys");
  w.Uint64(s.unknown_pointer_destroys);
  w.Key("reused_live_pointers");
  w.Uint64(s.reused_live_pointers);
  w.Key("warnings");
  w.Uint64(s.warnings);
  w.Key("dropped_lines");
  w.Uint64(s.dropped_lines);
  if (s.error) {
    w.Key("error");
    report.text(s.error->what());  // the figures cover the lines before it
  }
  w.EndObject();
  return report.finish();
}

}  // namespace libtrace::vma
