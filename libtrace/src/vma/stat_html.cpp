// SPDX-License-Identifier: MIT
// A self-contained HTML report of a VMA recording: one file, no network, an
// inline SVG plot of live bytes per heap over time, and the tables.
#include <algorithm>
#include <cstdio>

#include "libtrace/vma/stat.hpp"

namespace libtrace::vma {

namespace {

std::string escape(std::string_view s) {
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

std::string mib(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(v) / (1024.0 * 1024.0));
  return buf;
}

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

// Live bytes per heap over time as SVG polylines (a step plot).
std::string plot(const Stats& s) {
  constexpr double W = 900, H = 320, L = 70, B = 30, T = 10, R = 10;
  const auto& t = s.timeline_time;
  const auto& b = s.timeline_heap_bytes;
  std::uint64_t ymax = 1;
  for (const auto& row : b)
    for (auto v : row) ymax = std::max(ymax, v);
  const double t0 = t.empty() ? 0 : t.front();
  const double t1 = t.empty() ? 1 : std::max(t.back(), t0 + 1e-3);
  auto x = [&](double v) { return L + (v - t0) / (t1 - t0) * (W - L - R); };
  auto y = [&](double v) { return H - B - v / static_cast<double>(ymax) * (H - B - T); };
  std::string o;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<svg id=\"live-bytes\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"live bytes per heap over time\">\n",
                W, H, W, H);
  o += buf;
  std::snprintf(buf, sizeof buf,
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#444\"/>"
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#444\"/>\n",
                L, H - B, W - R, H - B, L, T, L, H - B);
  o += buf;
  std::snprintf(
      buf, sizeof buf,
      "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">%s</text><text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">0</text>"
      "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\">%.3f s</text>\n",
      2.0, T + 10, mib(ymax).c_str(), L - 12, H - B, W - R, H - 8, t1 - t0);
  o += buf;
  const std::size_t heaps = b.empty() ? 0 : b.front().size();
  for (std::size_t h = 0; h < heaps; ++h) {
    std::snprintf(
        buf, sizeof buf,
        "<polyline class=\"heap\" data-heap=\"%zu\" fill=\"none\" stroke-width=\"1.5\" stroke=\"%s\" points=\"", h,
        kColors[h % 8]);
    o += buf;
    double prev_y = y(0);
    for (std::size_t i = 0; i < t.size(); ++i) {
      const double yi = y(static_cast<double>(b[i][h]));
      std::snprintf(buf, sizeof buf, "%.1f,%.1f %.1f,%.1f ", x(t[i]), prev_y, x(t[i]), yi);
      o += buf;
      prev_y = yi;
    }
    o += "\"/>\n";
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" fill=\"%s\">heap %zu (peak %s)</text>\n", L + 10,
                  T + 14 + 14.0 * static_cast<double>(h), kColors[h % 8], h,
                  mib(h < s.peak_bytes_per_heap.size() ? s.peak_bytes_per_heap[h] : 0).c_str());
    o += buf;
  }
  o += "</svg>\n";
  return o;
}

}  // namespace

std::string format_html(const Stats& s) {
  std::string o =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>trak-stat: " + escape(s.file) +
      "</title>\n<style>body{font:14px sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}th{background:#f3f3f3}"
      "#readout{font:12px monospace;color:#555;min-height:1.2em}</style>\n</head><body>\n";
  o += "<h1>VMA recording: " + escape(s.file) + "</h1>\n";
  o += "<h2>Live bytes per heap</h2>\n" + plot(s);
  o += "<div id=\"readout\"></div>\n<pre id=\"summary\">" + escape(format_table(s)) + "</pre>\n";
  // Shows the time under the pointer; the report works without it.
  o +=
      "<script>\n(function(){var svg=document.getElementById('live-bytes'),out=document.getElementById('readout');\n"
      "var t0=" +
      std::to_string(s.timeline_time.empty() ? 0.0 : s.timeline_time.front()) + ",t1=" +
      std::to_string(s.timeline_time.empty() ? 1.0 : std::max(s.timeline_time.back(), s.timeline_time.front() + 1e-3)) +
      ";\nsvg.addEventListener('mousemove',function(e){var r=svg.getBoundingClientRect();"
      "var f=(e.clientX-r.left-70)/(r.width-80);if(f<0||f>1)return;"
      "out.textContent='t = '+(t0+f*(t1-t0)).toFixed(3)+' s';});\n"
      "document.body.setAttribute('data-report','ready');})();\n</script>\n</body></html>\n";
  return o;
}

}  // namespace libtrace::vma
