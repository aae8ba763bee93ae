// SPDX-License-Identifier: MIT
// trak-gpa profile's reports: the table on stderr, JSON, CSV and the page.
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <tuple>

#include "core/report.hpp"
#include "libtrace/gpa/client/profile.hpp"

namespace libtrace::gpa::client {

namespace {

using libtrace::detail::appendf;

std::string ms(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f ms", ns / 1e6);
  return b;
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else
      o += c;
  }
  return o;
}

}  // namespace

std::string report_table(const Profile& p, const Summary& s) {
  detail::TableReport t(18);
  std::size_t unclosed = 0, unprofiled = 0;
  std::vector<int> pids;
  for (const ProfiledDevice& d : p.devices) {
    unclosed += d.profiled && d.layer_cpu_ns < 0;
    unprofiled += !d.profiled;
    if (std::find(pids.begin(), pids.end(), d.pid) == pids.end()) pids.push_back(d.pid);
  }
  if (p.devices.size() > 1 || unprofiled)
    t.row("devices", std::to_string(p.devices.size()) + " in " + std::to_string(pids.size()) +
                         (pids.size() == 1 ? " process" : " processes") +
                         (unprofiled ? ", " + std::to_string(unprofiled) + " not profiled" : ""));
  t.row("frames", std::to_string(p.frames) + " presented, " + std::to_string(s.frames) + " with samples");
  t.row("samples", std::to_string(p.rows.size()));
  t.row("GPU time/frame",
        "min " + ms(s.min_ns) + ", median " + ms(s.median_ns) + ", p95 " + ms(s.p95_ns) + ", max " + ms(s.max_ns));
  char over[200];
  if (p.layer_cpu_ns >= 0)
    std::snprintf(over, sizeof over, "%.1f ms of CPU in the layer, %.2f %% of the run's %.2f s%s",
                  static_cast<double>(p.layer_cpu_ns) / 1e6, s.overhead_percent, p.wall_seconds,
                  unclosed ? " (without the devices whose process ended first)" : "");
  else
    std::snprintf(over, sizeof over, "unknown: the application ended before the layer closed the profile");
  t.row("profiler cost", over);
  std::string& o = t.text();
  if (!p.counter_names.empty()) {
    o += "\ncounter                     total\n";
    for (std::size_t i = 0; i < p.counter_names.size(); ++i) {
      appendf(o, "%-20s %12llu\n", p.counter_names[i].c_str(), static_cast<unsigned long long>(s.counter_totals[i]));
    }
  }
  if (!s.costliest.empty()) {
    o += "\ncostliest                    samples      total       mean\n";
    for (const ScopeCost& c : s.costliest) {
      const std::string name = (p.devices.size() > 1 ? "dev " + std::to_string(c.device) + " " : std::string()) +
                               "cb " + std::to_string(c.command_buffer) + " " + c.scope;
      appendf(o, "%-26s %9llu %10s %10s\n", name.c_str(), static_cast<unsigned long long>(c.samples),
              ms(c.total_ns).c_str(), ms(c.mean_ns).c_str());
    }
  }
  return o;
}

std::string report_json(const Profile& p, const Summary& s) {
  detail::JsonReport j;
  j.object([&] {
    j.members("status", static_cast<std::uint64_t>(p.status), "signal", static_cast<std::uint64_t>(p.signal), "frames",
              p.frames, "wall_seconds", p.wall_seconds);
    j.i64("layer_cpu_ns", p.layer_cpu_ns);
    j.f64("overhead_percent", s.overhead_percent);
    j.object("gpu_ns_per_frame",
             [&] { j.members("min", s.min_ns, "median", s.median_ns, "p95", s.p95_ns, "max", s.max_ns); });
    j.object("counters", [&] {
      for (std::size_t i = 0; i < p.counter_names.size(); ++i) j.u64(p.counter_names[i], s.counter_totals[i]);
    });
    j.u64("torn_rows", p.torn_rows);
    // Every device of every process of the command, in the order they were
    // made; "device" in the samples is an index in this list.
    j.objects("devices", p.devices, [&](const ProfiledDevice& d) {
      j.members("pid", static_cast<std::uint64_t>(d.pid), "index_in_process", d.index, "profiled", d.profiled);
      if (!d.profiled) j.text("why_not", d.why_not);
      j.u64("frames", d.frames);
      j.u64("samples", d.samples);
      j.i64("layer_cpu_ns", d.layer_cpu_ns);
    });
    j.objects("costliest", s.costliest, [&](const ScopeCost& c) {
      j.members("device", c.device, "command_buffer", c.command_buffer, "scope", c.scope, "samples", c.samples,
                "total_ns", c.total_ns, "mean_ns", c.mean_ns);
    });
    j.objects("samples", p.rows, [&](const Row& r) {
      j.members("device", r.device, "frame", r.frame, "command_buffer", r.command_buffer, "scope", r.scope, "gpu_ns",
                r.gpu_ns);
      if (!r.counters.empty())
        j.object("counters", [&] {
          for (std::size_t i = 0; i < r.counters.size() && i < p.counter_names.size(); ++i)
            j.u64(p.counter_names[i], r.counters[i]);
        });
    });
  });
  return j.finish();
}

std::string report_csv(const Profile& p) {
  std::string o = "device,frame,command_buffer,scope,gpu_ns";
  for (const std::string& n : p.counter_names) o += "," + n;
  o += '\n';
  for (const Row& r : p.rows) {
    char head[96];
    std::snprintf(head, sizeof head, "%u,%llu,%u,", r.device, static_cast<unsigned long long>(r.frame),
                  r.command_buffer);
    o += head + r.scope + "," + std::to_string(static_cast<std::uint64_t>(r.gpu_ns));
    for (std::size_t i = 0; i < p.counter_names.size(); ++i)
      o += "," + (i < r.counters.size() ? std::to_string(r.counters[i]) : std::string());
    o += '\n';
  }
  return o;
}

std::string report_html(const Profile& p, const Summary& s, const std::string& title) {
  // The plot: GPU time per frame as a polyline, median and p95 as lines.
  const double w = 960, h = 320, left = 70, bottom = 30, top = 10;
  // A first frame that compiles everything would flatten the rest: the scale
  // stops at four times the 95th percentile and taller frames are cut (their
  // values are in the table).
  const double ymax = s.max_ns > 0 ? std::min(s.max_ns * 1.1, std::max(s.p95_ns * 4, s.median_ns)) : 1;
  const auto x = [&](std::size_t i) {
    return left +
           (w - left - 10) *
               (s.frame_ns.size() > 1 ? static_cast<double>(i) / static_cast<double>(s.frame_ns.size() - 1) : 0.5);
  };
  const auto y = [&](double ns) { return top + (h - top - bottom) * (1 - ns / ymax); };
  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h << "' role='img' "
      << "aria-label='GPU time per frame'>";
  svg << "<rect x='" << left << "' y='" << top << "' width='" << (w - left - 10) << "' height='" << (h - top - bottom)
      << "' fill='#fafafa' stroke='#ccc'/>";
  for (int i = 0; i <= 4; ++i) {
    const double v = ymax * i / 4;
    svg << "<text x='" << (left - 6) << "' y='" << (y(v) + 4) << "' font-size='11' text-anchor='end'>" << ms(v)
        << "</text>";
  }
  for (const auto& [v, color, label] :
       {std::tuple{s.median_ns, "#2a7", "median"}, std::tuple{s.p95_ns, "#c70", "p95"}}) {
    svg << "<line x1='" << left << "' x2='" << (w - 10) << "' y1='" << y(v) << "' y2='" << y(v) << "' stroke='" << color
        << "' stroke-dasharray='4 3'/><text x='" << (w - 14) << "' y='" << (y(v) - 3)
        << "' font-size='11' text-anchor='end' fill='" << color << "'>" << label << "</text>";
  }
  svg << "<polyline fill='none' stroke='#36c' stroke-width='1.5' points='";
  for (std::size_t i = 0; i < s.frame_ns.size(); ++i) svg << x(i) << ',' << y(std::min(s.frame_ns[i], ymax)) << ' ';
  svg << "'/><text x='" << (w / 2) << "' y='" << (h - 8) << "' font-size='12' text-anchor='middle'>frame (1 to "
      << s.frame_ns.size() << ")</text></svg>";
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>" << escape(title)
    << "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
       "td,th{padding:2px 10px;text-align:right}th{border-bottom:1px solid #999}td:first-child,th:first-child"
       "{text-align:left}</style></head><body>\n<h1>"
    << escape(title) << "</h1>\n<h2>GPU time per frame</h2>\n"
    << svg.str() << "\n<pre>" << escape(report_table(p, s)) << "</pre>\n</body></html>\n";
  return o.str();
}

}  // namespace libtrace::gpa::client
