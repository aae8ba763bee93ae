// SPDX-License-Identifier: MIT
// A self-contained HTML report of a VMA recording: one file, no network, the
// figures trak-stat prints as tables, and an inline SVG plot of live bytes
// per heap over time (stat_html_plot.cpp).
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <utility>
#include <vector>

#include "core/text_util.hpp"
#include "libtrace/vma/stat.hpp"
#include "vma/stat_html.hpp"
#include "vma/stat_labels.hpp"

#include "registry/registry.hpp"

namespace libtrace::vma {

namespace detail {

std::string html_escape(std::string_view s) {
  std::string o;
  for (const char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string duration_text(const Stats& s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s", s.last_time - s.first_time);
  return buf;
}

std::string heap_flag_names(std::uint32_t flags) {
  return registry::flag_names(*registry::find_enum("VkMemoryHeapFlagBits"), flags, "VK_MEMORY_HEAP_");
}

}  // namespace detail

namespace {

using detail::html_escape;
using libtrace::detail::human_bytes;

std::string type_flag_names(std::uint32_t flags) {
  return registry::flag_names(*registry::find_enum("VkMemoryPropertyFlagBits"), flags, "VK_MEMORY_PROPERTY_");
}

// Counts run to millions: grouped, they read at a glance.
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), o;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) o += ',';
    o += digits[i];
  }
  return o;
}

std::string fixed(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

double share(std::uint64_t part, std::uint64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string pointer_text(std::uint64_t p) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(p));
  return buf;
}

struct Col {
  const char* name;
  bool num = false;
};

// Cells hold HTML: whatever came from the recording is escaped already.
struct Cell {
  std::string html;
  const char* cls = nullptr;  // "num" (right-aligned) or "bar"
  std::string title = {};     // on hover: the exact figure behind a rounded one
};

Cell text(std::string_view s) { return {html_escape(s)}; }
Cell count(std::uint64_t n) { return {grouped(n), "num"}; }
Cell bytes(std::uint64_t n) { return {human_bytes(n), "num", grouped(n) + " bytes"}; }
// A heap of gigabytes shows megabytes in use as "0.0 %", which reads as none.
Cell percent(double p) { return {p > 0 && p < 0.05 ? "&lt; 0.1 %" : fixed("%.1f %%", p), "num"}; }
// A bar as long as the row's share of the largest, for histograms.
Cell bar(std::uint64_t n, std::uint64_t most) {
  return {"<span style=\"width:" + fixed("%.1f", share(n, most)) + "px\"></span>", "bar"};
}

void table_start(std::string& o, std::string_view id, std::initializer_list<Col> cols) {
  o += "<table id=\"";
  o += id;
  o += "\"><thead><tr>";
  for (const Col& c : cols) {
    o += c.num ? "<th class=\"num\">" : "<th>";
    o += c.name;
    o += "</th>";
  }
  o += "</tr></thead>\n<tbody>\n";
}

void table_row(std::string& o, std::initializer_list<Cell> cells) {
  o += "<tr>";
  for (const Cell& c : cells) {
    o += "<td";
    if (c.cls) o += std::string(" class=\"") + c.cls + "\"";
    if (!c.title.empty()) o += " title=\"" + c.title + "\"";
    o += ">";
    o += c.html;
    o += "</td>";
  }
  o += "</tr>\n";
}

// A note across the whole table ("... and 12 more").
void table_note(std::string& o, std::size_t cols, std::string_view note) {
  o += "<tr><td class=\"note\" colspan=\"" + std::to_string(cols) + "\">";
  o += note;
  o += "</td></tr>\n";
}

void table_end(std::string& o) { o += "</tbody></table>\n"; }

void section_start(std::string& o, std::string_view id, std::string_view title) {
  o += "<section id=\"";
  o += id;
  o += "-section\"><h2>";
  o += title;
  o += "</h2>\n";
}

// Row headers name the figure; the value's cell is HTML.
void summary_row(std::string& o, std::string_view name, std::string_view value) {
  o += "<tr><th scope=\"row\">";
  o += name;
  o += "</th><td>";
  o += value;
  o += "</td></tr>\n";
}

std::string plural(std::uint64_t n, const char* one, const char* more) { return grouped(n) + (n == 1 ? one : more); }

void summary(std::string& o, const Stats& s) {
  const Config& c = s.header.config;
  section_start(o, "summary", "Summary");
  table_start(o, "summary", {{"figure"}, {"value"}});
  summary_row(o, "file", "<code>" + html_escape(s.file) + "</code> (" + std::string(container_name(s.container)) + ")");
  summary_row(o, "format", "VMA calls recording " + s.header.version.str());
  if (auto it = c.physical_device.find("deviceName"); it != c.physical_device.end())
    summary_row(o, "device", html_escape(it->second));
  const std::string notes = vma::detail::warning_notes(s.warnings, s.dropped_lines, plural);
  summary_row(o, "calls", grouped(s.calls) + (notes.empty() ? "" : " (" + notes + ")"));
  if (s.error)
    summary_row(o, "stopped",
                "<strong>" + html_escape(s.error->what()) + "</strong> (the figures cover the lines before)");
  summary_row(o, "duration",
              "<span id=\"duration\">" + detail::duration_text(s) + "</span>" +
                  (s.time_steps_back ? " (time steps back " + plural(s.time_steps_back, " time)", " times)") : ""));
  summary_row(o, "frames", grouped(s.frames));
  std::uint64_t busiest = 0;
  for (const auto& [thread, calls] : s.calls_per_thread) busiest = std::max(busiest, calls);
  summary_row(o, "threads",
              grouped(s.calls_per_thread.size()) + " (busiest makes " + fixed("%.1f", share(busiest, s.calls)) +
                  " % of the calls)");
  summary_row(
      o, "allocations created",
      grouped(s.allocations_created) + " (" + plural(s.failed_creations, " creation", " creations") + " failed)");
  summary_row(o, "peak live allocations",
              grouped(s.peak_live_allocations) + " (line " + grouped(s.peak_live_allocations_line) + ")");
  summary_row(o, "peak live bytes",
              human_bytes(s.peak_live_bytes) + (s.image_bytes_estimated ? " (image sizes estimated)" : ""));
  summary_row(o, "live at end",
              plural(s.live_at_end, " allocation, ", " allocations, ") + human_bytes(s.live_bytes_at_end));
  if (s.unresolved_type_allocations)
    summary_row(o, "no memory type",
                plural(s.unresolved_type_allocations, " allocation", " allocations") +
                    " with no resolvable memory type (not in the heap figures)");
  if (s.unknown_pointer_destroys) summary_row(o, "unknown destroys", grouped(s.unknown_pointer_destroys));
  if (s.reused_live_pointers) summary_row(o, "reused live pointers", grouped(s.reused_live_pointers));
  table_end(o);
  o += "</section>\n";
}

void memory(std::string& o, const Stats& s) {
  const Config& c = s.header.config;
  if (c.heaps.empty() && c.types.empty()) return;
  section_start(o, "heaps", "Heaps");
  table_start(o, "heaps",
              {{"heap", true}, {"size", true}, {"flags"}, {"peak live bytes", true}, {"peak % of size", true}});
  for (std::size_t h = 0; h < c.heaps.size(); ++h) {
    const std::uint64_t peak = h < s.peak_bytes_per_heap.size() ? s.peak_bytes_per_heap[h] : 0;
    table_row(o, {count(h), bytes(c.heaps[h].size), text(detail::heap_flag_names(c.heaps[h].flags)), bytes(peak),
                  percent(share(peak, c.heaps[h].size))});
  }
  table_end(o);
  o += "</section>\n";
  section_start(o, "memory-types", "Memory types");
  table_start(o, "memory-types", {{"type", true}, {"heap", true}, {"property flags"}, {"peak live bytes", true}});
  for (std::size_t t = 0; t < c.types.size(); ++t)
    table_row(o, {count(t), count(c.types[t].heap), text(type_flag_names(c.types[t].property_flags)),
                  bytes(t < s.peak_bytes_per_type.size() ? s.peak_bytes_per_type[t] : 0)});
  table_end(o);
  o += "</section>\n";
}

void calls(std::string& o, const Stats& s) {
  std::vector<std::pair<std::uint64_t, std::size_t>> functions;
  for (std::size_t f = 0; f < kFunctionCount; ++f)
    if (s.calls_per_function[f]) functions.push_back({s.calls_per_function[f], f});
  // Ties keep the functions' order, so the page stays the same byte for byte.
  std::stable_sort(functions.begin(), functions.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  section_start(o, "functions", "Functions by calls");
  table_start(o, "functions", {{"function"}, {"calls", true}, {"% of calls", true}, {""}});
  for (const auto& [n, f] : functions)
    table_row(o, {{"<code>" + std::string(function_name(static_cast<Function>(f))) + "</code>"},
                  count(n),
                  percent(share(n, s.calls)),
                  bar(n, functions.front().first)});
  table_end(o);
  o += "</section>\n";

  std::vector<std::pair<std::uint64_t, std::uint32_t>> threads;
  for (const auto& [thread, n] : s.calls_per_thread) threads.push_back({n, thread});
  std::stable_sort(threads.begin(), threads.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  section_start(o, "threads", "Threads by calls");
  table_start(o, "threads", {{"thread", true}, {"calls", true}, {"% of calls", true}});
  const std::size_t shown = std::min<std::size_t>(threads.size(), 10);
  for (std::size_t i = 0; i < shown; ++i)
    table_row(o, {{std::to_string(threads[i].second), "num"},
                  count(threads[i].first),
                  percent(share(threads[i].first, s.calls))});
  if (shown < threads.size())
    table_note(o, 3, "... and " + grouped(threads.size() - shown) + " more (<code>--json</code> lists all)");
  table_end(o);
  o += "</section>\n";
}

void histograms(std::string& o, const Stats& s) {
  section_start(o, "sizes", "Allocation sizes");
  table_start(o, "sizes", {{"size", true}, {"allocations", true}, {""}});
  const std::uint64_t most_sizes = *std::max_element(s.size_histogram.begin(), s.size_histogram.end());
  for (std::size_t k = 0; k < s.size_histogram.size(); ++k)
    if (s.size_histogram[k])
      table_row(o, {{"&lt; " + human_bytes(2ull << k), "num"},
                    count(s.size_histogram[k]),
                    bar(s.size_histogram[k], most_sizes)});
  table_end(o);
  o += "</section>\n";
  section_start(o, "lifetimes", "Allocation lifetimes");
  table_start(o, "lifetimes", {{"lifetime"}, {"allocations", true}, {""}});
  const std::uint64_t most = *std::max_element(s.lifetime_histogram.begin(), s.lifetime_histogram.end());
  for (std::size_t k = 0; k < s.lifetime_histogram.size(); ++k)
    table_row(o,
              {text(detail::kLifetimeLabels[k]), count(s.lifetime_histogram[k]), bar(s.lifetime_histogram[k], most)});
  table_end(o);
  o += "</section>\n";
}

void pools(std::string& o, const Stats& s) {
  if (s.pools.empty()) return;
  section_start(o, "pools", "Pools");
  table_start(o, "pools",
              {{"pool"},
               {"line", true},
               {"memory type", true},
               {"block size", true},
               {"blocks"},
               {"allocations", true},
               {"name"},
               {"destroyed"}});
  for (const Pool& p : s.pools)
    table_row(o, {{"<code>" + pointer_text(p.pointer) + "</code>"},
                  count(p.line),
                  count(p.memory_type),
                  bytes(p.block_size),
                  text(detail::block_range(p.min_blocks, p.max_blocks)),
                  count(p.allocations),
                  text(p.name),
                  text(p.destroyed ? "yes" : "never destroyed")});
  table_end(o);
  o += "</section>\n";
}

void leaks(std::string& o, const Stats& s) {
  if (s.leaks.empty()) return;
  section_start(o, "leaks", "Never freed");
  table_start(o, "leaks", {{"allocation"}, {"line", true}, {"function"}, {"size", true}, {"user data"}});
  // A page, not a dump: the JSON has every one.
  const std::size_t shown = std::min<std::size_t>(s.leaks.size(), 100);
  for (std::size_t i = 0; i < shown; ++i) {
    const Leak& l = s.leaks[i];
    table_row(o, {{"<code>" + pointer_text(l.pointer) + "</code>"},
                  count(l.line),
                  {"<code>" + std::string(function_name(l.function)) + "</code>"},
                  bytes(l.bytes),
                  text(l.user_data)});
  }
  if (shown < s.leaks.size())
    table_note(o, 5, "... and " + grouped(s.leaks.size() - shown) + " more (<code>--json</code> lists all)");
  table_end(o);
  o += "</section>\n";
}

const char kStyle[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1280px;padding:0 1.5em;color:#222}"
    "h1{font-size:1.35em;margin:0 0 .3em}h1 code{font-size:.9em}"
    "h2{font-size:1.1em;margin:1.4em 0 .4em;padding-bottom:.15em;border-bottom:1px solid #ddd}"
    "nav{margin-bottom:.5em}nav a{margin-right:1em;color:#36c}"
    "table{border-collapse:collapse;margin:.3em 0 .8em}"
    "th,td{border:1px solid #ddd;padding:3px 10px;text-align:left;vertical-align:top}"
    "thead th{background:#f1f3f5;font-weight:600}tbody th{font-weight:normal;color:#555;background:#fafafa}"
    ".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "td.bar{border-left:none;min-width:100px}td.bar span{display:inline-block;height:.75em;background:#8aa6c1}"
    "td.note,.note{color:#666}.note{font-size:.9em}"
    ".row{display:flex;flex-wrap:wrap;gap:0 2.5em;align-items:flex-start}"
    ".plot-row{display:flex;flex-wrap:wrap;gap:1em 2em;align-items:flex-start}"
    ".plot{position:relative;flex:1 1 560px;min-width:0;max-width:820px}.plot svg{display:block;width:100%;height:auto}"
    ".plot text{font:11px system-ui,sans-serif;fill:#333}.plot text.axis-title{font-size:12px;font-weight:600}"
    ".plot text.x-end{font-weight:600}"
    ".legend{list-style:none;margin:.5em 0 0;padding:0;flex:0 1 16em}"
    ".legend li{margin:0 0 .7em;padding-left:26px;text-indent:-26px}"
    ".legend li.note{padding:0;text-indent:0}.legend .peak{color:#555;font-size:.9em}"
    ".swatch{display:inline-block;width:18px;height:4px;margin:0 8px 3px 0;vertical-align:middle}"
    "#readout{position:absolute;pointer-events:none;background:#fff;border:1px solid #999;border-radius:3px;"
    "padding:4px 8px;font:12px ui-monospace,monospace;white-space:nowrap;box-shadow:0 1px 4px rgba(0,0,0,.2)}";

}  // namespace

std::string report_html(const Stats& s) {
  std::string o =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>trak-stat: " + html_escape(s.file) +
      "</title>\n<style>" + kStyle + "</style>\n</head><body>\n";
  o += "<h1>VMA recording <code>" + html_escape(s.file) + "</code></h1>\n";
  o += "<nav><a href=\"#summary-section\">summary</a><a href=\"#plot-section\">live bytes</a>";
  if (!s.header.config.heaps.empty()) o += "<a href=\"#heaps-section\">heaps</a>";
  o += "<a href=\"#functions-section\">calls</a><a href=\"#sizes-section\">sizes</a>";
  if (!s.pools.empty()) o += "<a href=\"#pools-section\">pools</a>";
  if (!s.leaks.empty()) o += "<a href=\"#leaks-section\">never freed</a>";
  o += "</nav>\n";
  summary(o, s);
  o += detail::html_plot(s);
  o += "<div class=\"row\">\n";
  memory(o, s);
  o += "</div>\n<div class=\"row\">\n";
  calls(o, s);
  histograms(o, s);
  o += "</div>\n";
  pools(o, s);
  leaks(o, s);
  o += "</body></html>\n";
  return o;
}

}  // namespace libtrace::vma
