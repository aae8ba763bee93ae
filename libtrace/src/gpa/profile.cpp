// SPDX-License-Identifier: MIT
#include "libtrace/gpa/profile.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "core/report.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/gpa/layer.hpp"
#include "libtrace/layer/run.hpp"

namespace libtrace::gpa {

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

std::uint64_t number(const std::string& s, const std::string& where) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw Error(Errc::bad_record, where, "not a number: \"" + s + "\"");
}

std::string ms(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f ms", ns / 1e6);
  return b;
}

}  // namespace

void read_rows(std::istream& in, const std::string& name, Profile& out) {
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string where = name + ": line " + std::to_string(n);
    if (line.rfind("# ", 0) == 0) {
      std::istringstream s(line.substr(2));
      for (std::string kv; s >> kv;) {
        const std::size_t eq = kv.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
        if (key == "cpu_ns") out.layer_cpu_ns = static_cast<std::int64_t>(number(value, where));
        if (key == "frames") out.frames = number(value, where);
      }
      continue;
    }
    const std::vector<std::string> f = split(line);
    if (n == 1) {
      if (f.size() < 4 || f[0] != "frame") throw Error(Errc::bad_magic, where, "not a profile (no header)");
      out.counter_names.assign(f.begin() + 4, f.end());
      continue;
    }
    if (f.size() != 4 + out.counter_names.size())
      throw Error(Errc::bad_record, where,
                  std::to_string(f.size()) + " fields, the header has " + std::to_string(4 + out.counter_names.size()));
    Row r;
    r.frame = number(f[0], where);
    r.command_buffer = static_cast<std::uint32_t>(number(f[1], where));
    r.scope = f[2];
    r.gpu_ns = static_cast<double>(number(f[3], where));
    if (f.size() > 4 && !f[4].empty())
      for (std::size_t i = 4; i < f.size(); ++i) r.counters.push_back(number(f[i], where));
    out.rows.push_back(std::move(r));
  }
}

Profile run_profile(const ProfileRun& run) {
  layer::ReportFile rows;
  const auto start = std::chrono::steady_clock::now();
  const layer::CommandResult r =
      layer::run_command(run.command, {{"VK_ADD_LAYER_PATH", run.layer_dir, layer::EnvEdit::prepend},
                                       {"VK_INSTANCE_LAYERS", kLayerName, layer::EnvEdit::append},
                                       {"TRAK_GPA_PROFILE", rows.path()},
                                       {"TRAK_GPA_PER", run.per},
                                       {"TRAK_GPA_COUNTERS", run.counters}});
  Profile p;
  p.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  p.exec_errno = r.exec_errno;
  p.status = r.status;
  p.signal = r.signal;
  if (r.exec_errno) return p;
  std::ifstream in(rows.path());
  if (in.peek() != std::ifstream::traits_type::eof()) read_rows(in, "profile", p);
  return p;
}

Summary summarize(const Profile& p) {
  Summary s;
  std::map<std::uint64_t, double> per_frame;
  std::map<std::pair<std::uint32_t, std::string>, ScopeCost> scopes;
  s.counter_totals.assign(p.counter_names.size(), 0);
  for (const Row& r : p.rows) {
    per_frame[r.frame] += r.gpu_ns;
    ScopeCost& c = scopes[{r.command_buffer, r.scope}];
    c.command_buffer = r.command_buffer;
    c.scope = r.scope;
    ++c.samples;
    c.total_ns += r.gpu_ns;
    for (std::size_t i = 0; i < r.counters.size() && i < s.counter_totals.size(); ++i) s.counter_totals[i] += r.counters[i];
  }
  for (const auto& [frame, ns] : per_frame) s.frame_ns.push_back(ns);
  s.frames = s.frame_ns.size();
  if (!s.frame_ns.empty()) {
    s.min_ns = *std::min_element(s.frame_ns.begin(), s.frame_ns.end());
    s.max_ns = *std::max_element(s.frame_ns.begin(), s.frame_ns.end());
    s.median_ns = detail::percentile(s.frame_ns, 0.5);
    s.p95_ns = detail::percentile(s.frame_ns, 0.95);
  }
  for (auto& [key, c] : scopes) {
    c.mean_ns = c.total_ns / static_cast<double>(c.samples);
    s.costliest.push_back(c);
  }
  std::sort(s.costliest.begin(), s.costliest.end(),
            [](const ScopeCost& a, const ScopeCost& b) { return a.total_ns > b.total_ns; });
  if (s.costliest.size() > 10) s.costliest.resize(10);
  if (p.layer_cpu_ns >= 0 && p.wall_seconds > 0)
    s.overhead_percent = 100.0 * static_cast<double>(p.layer_cpu_ns) / (p.wall_seconds * 1e9);
  return s;
}

std::string format_table(const Profile& p, const Summary& s) {
  detail::TableReport t(18);
  t.row("frames", std::to_string(p.frames) + " presented, " + std::to_string(s.frames) + " with samples");
  t.row("samples", std::to_string(p.rows.size()));
  t.row("GPU time/frame", "min " + ms(s.min_ns) + ", median " + ms(s.median_ns) + ", p95 " + ms(s.p95_ns) +
                              ", max " + ms(s.max_ns));
  char over[160];
  if (p.layer_cpu_ns >= 0)
    std::snprintf(over, sizeof over, "%.1f ms of CPU in the layer, %.2f %% of the run's %.2f s",
                  static_cast<double>(p.layer_cpu_ns) / 1e6, s.overhead_percent, p.wall_seconds);
  else
    std::snprintf(over, sizeof over, "unknown: the application ended before the layer closed the profile");
  t.row("profiler cost", over);
  std::string& o = t.text();
  if (!p.counter_names.empty()) {
    o += "\ncounter                     total\n";
    for (std::size_t i = 0; i < p.counter_names.size(); ++i) {
      char line[96];
      std::snprintf(line, sizeof line, "%-20s %12llu\n", p.counter_names[i].c_str(),
                    static_cast<unsigned long long>(s.counter_totals[i]));
      o += line;
    }
  }
  if (!s.costliest.empty()) {
    o += "\ncostliest                    samples      total       mean\n";
    for (const ScopeCost& c : s.costliest) {
      char line[160];
      const std::string name = "cb " + std::to_string(c.command_buffer) + " " + c.scope;
      std::snprintf(line, sizeof line, "%-26s %9llu %10s %10s\n", name.c_str(),
                    static_cast<unsigned long long>(c.samples), ms(c.total_ns).c_str(), ms(c.mean_ns).c_str());
      o += line;
    }
  }
  return o;
}

std::string format_json(const Profile& p, const Summary& s) {
  detail::JsonReport j;
  auto& w = j.writer();
  const auto f = [&](const char* k, double v) {
    w.Key(k);
    w.Double(v);
  };
  w.StartObject();
  j.u64("status", static_cast<std::uint64_t>(p.status));
  j.u64("frames", p.frames);
  f("wall_seconds", p.wall_seconds);
  w.Key("layer_cpu_ns");
  w.Int64(p.layer_cpu_ns);
  f("overhead_percent", s.overhead_percent);
  w.Key("gpu_ns_per_frame");
  w.StartObject();
  f("min", s.min_ns);
  f("median", s.median_ns);
  f("p95", s.p95_ns);
  f("max", s.max_ns);
  w.EndObject();
  w.Key("counters");
  w.StartObject();
  for (std::size_t i = 0; i < p.counter_names.size(); ++i) j.u64(p.counter_names[i].c_str(), s.counter_totals[i]);
  w.EndObject();
  w.Key("costliest");
  w.StartArray();
  for (const ScopeCost& c : s.costliest) {
    w.StartObject();
    j.u64("command_buffer", c.command_buffer);
    j.text("scope", c.scope);
    j.u64("samples", c.samples);
    f("total_ns", c.total_ns);
    f("mean_ns", c.mean_ns);
    w.EndObject();
  }
  w.EndArray();
  w.Key("samples");
  w.StartArray();
  for (const Row& r : p.rows) {
    w.StartObject();
    j.u64("frame", r.frame);
    j.u64("command_buffer", r.command_buffer);
    j.text("scope", r.scope);
    f("gpu_ns", r.gpu_ns);
    if (!r.counters.empty()) {
      w.Key("counters");
      w.StartObject();
      for (std::size_t i = 0; i < r.counters.size() && i < p.counter_names.size(); ++i)
        j.u64(p.counter_names[i].c_str(), r.counters[i]);
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return j.finish();
}

std::string format_csv(const Profile& p) {
  std::string o = "frame,command_buffer,scope,gpu_ns";
  for (const std::string& n : p.counter_names) o += "," + n;
  o += '\n';
  for (const Row& r : p.rows) {
    char head[96];
    std::snprintf(head, sizeof head, "%llu,%u,", static_cast<unsigned long long>(r.frame), r.command_buffer);
    o += head + r.scope + "," + std::to_string(static_cast<std::uint64_t>(r.gpu_ns));
    for (std::size_t i = 0; i < p.counter_names.size(); ++i)
      o += "," + (i < r.counters.size() ? std::to_string(r.counters[i]) : std::string());
    o += '\n';
  }
  return o;
}

namespace {

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

}  // namespace

std::string format_html(const Profile& p, const Summary& s, const std::string& title) {
  // The plot: GPU time per frame as a polyline, median and p95 as lines.
  const double w = 960, h = 320, left = 70, bottom = 30, top = 10;
  // A first frame that compiles everything would flatten the rest: the scale
  // stops at four times the 95th percentile and taller frames are cut (their
  // values are in the table).
  const double ymax = s.max_ns > 0 ? std::min(s.max_ns * 1.1, std::max(s.p95_ns * 4, s.median_ns)) : 1;
  const auto x = [&](std::size_t i) {
    return left + (w - left - 10) * (s.frame_ns.size() > 1 ? static_cast<double>(i) / static_cast<double>(s.frame_ns.size() - 1) : 0.5);
  };
  const auto y = [&](double ns) { return top + (h - top - bottom) * (1 - ns / ymax); };
  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h << "' role='img' "
      << "aria-label='GPU time per frame'>";
  svg << "<rect x='" << left << "' y='" << top << "' width='" << (w - left - 10) << "' height='" << (h - top - bottom)
      << "' fill='#fafafa' stroke='#ccc'/>";
  for (int i = 0; i <= 4; ++i) {
    const double v = ymax * i / 4;
    svg << "<text x='" << (left - 6) << "' y='" << (y(v) + 4) << "' font-size='11' text-anchor='end'>"
        << ms(v) << "</text>";
  }
  for (const auto& [v, color, label] :
       {std::tuple{s.median_ns, "#2a7", "median"}, std::tuple{s.p95_ns, "#c70", "p95"}}) {
    svg << "<line x1='" << left << "' x2='" << (w - 10) << "' y1='" << y(v) << "' y2='" << y(v) << "' stroke='"
        << color << "' stroke-dasharray='4 3'/><text x='" << (w - 14) << "' y='" << (y(v) - 3)
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
    << escape(title) << "</h1>\n<h2>GPU time per frame</h2>\n" << svg.str() << "\n<pre>"
    << escape(format_table(p, s)) << "</pre>\n</body></html>\n";
  return o.str();
}

}  // namespace libtrace::gpa
