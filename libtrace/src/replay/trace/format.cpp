// SPDX-License-Identifier: MIT
// The replay's report: a table for people, one JSON object for scripts.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "libtrace/replay/trace/replay.hpp"

namespace libtrace::replay_trace {

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(p * double(v.size()))) - (p > 0 ? 1 : 0))];
}

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::string psnr_text(double db) { return std::isinf(db) ? "inf" : fixed(db, 1); }

}  // namespace

void add_pass(Result& total, const Result& pass) {
  ++total.passes;
  total.timed_frames += pass.timed_frames;
  total.seconds += pass.seconds;
  total.frame_ms.insert(total.frame_ms.end(), pass.frame_ms.begin(), pass.frame_ms.end());
  if (pass.error && !total.error) total.error = pass.error;
}

std::string format_table(const Result& r) {
  std::string out;
  auto row = [&](const std::string& k, const std::string& v) {
    out += k;
    out.append(k.size() < 15 ? 15 - k.size() : 1, ' ');
    out += v + "\n";
  };
  row("file", r.file);
  row("device", r.device);
  row("calls", std::to_string(r.calls) + " (" + std::to_string(r.skipped_calls) + " not replayed as recorded)");
  row("updates", std::to_string(r.updates) + " runs, " + std::to_string(r.update_bytes) + " bytes");
  row("frames", std::to_string(r.frames));
  if (r.timed_frames) {
    row("fps", fixed(double(r.timed_frames) / r.seconds, 1) + " (" + std::to_string(r.timed_frames) + " frames in " +
                   fixed(r.seconds, 3) + " s" + (r.passes > 1 ? ", " + std::to_string(r.passes) + " passes" : "") + ")");
    row("frame ms", "min " + fixed(percentile(r.frame_ms, 0), 2) + ", median " + fixed(percentile(r.frame_ms, 0.5), 2) +
                        ", p95 " + fixed(percentile(r.frame_ms, 0.95), 2) + ", max " + fixed(percentile(r.frame_ms, 1), 2));
  }
  for (const MemoryUse& m : r.memory_capture)
    row("memory capture", m.flags + ": " + std::to_string(m.objects) + " allocations, " + std::to_string(m.bytes) + " bytes");
  for (const MemoryUse& m : r.memory_here)
    row("memory here", m.flags + ": " + std::to_string(m.objects) + " objects, " + std::to_string(m.bytes) + " bytes");
  for (const std::string& a : r.adapted) row("adapted", a);
  for (const std::string& s : r.snapshots) row("snapshot", s);
  for (const FrameCheck& f : r.checks)
    row("frame " + std::to_string(f.frame),
        (f.passed ? "match" : "DIFFERS") + std::string(": ") +
            (f.size_differs ? "another size than " + f.capture_file
                            : "largest channel difference " + std::to_string(f.max_difference) + ", PSNR " +
                                  psnr_text(f.psnr) + " dB against " + f.capture_file));
  if (r.error) row("stopped", r.error->what());
  return out;
}

std::string format_json(const Result& r) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  w.Key("file");
  w.String(r.file.c_str());
  w.Key("device");
  w.String(r.device.c_str());
  w.Key("calls");
  w.Uint64(r.calls);
  w.Key("skipped_calls");
  w.Uint64(r.skipped_calls);
  w.Key("updates");
  w.Uint64(r.updates);
  w.Key("update_bytes");
  w.Uint64(r.update_bytes);
  w.Key("frames");
  w.Uint64(r.frames);
  w.Key("timed_frames");
  w.Uint64(r.timed_frames);
  w.Key("passes");
  w.Uint(r.passes);
  w.Key("seconds");
  w.Double(r.seconds);
  w.Key("fps");
  w.Double(r.seconds > 0 ? double(r.timed_frames) / r.seconds : 0);
  w.Key("frame_ms");
  w.StartObject();
  for (const auto& [k, p] : {std::pair{"min", 0.0}, std::pair{"median", 0.5}, std::pair{"p95", 0.95}, std::pair{"max", 1.0}}) {
    w.Key(k);
    w.Double(percentile(r.frame_ms, p));
  }
  w.EndObject();
  for (const auto& [key, list] : {std::pair{"memory_capture", &r.memory_capture}, std::pair{"memory_here", &r.memory_here}}) {
    w.Key(key);
    w.StartArray();
    for (const MemoryUse& m : *list) {
      w.StartObject();
      w.Key("flags");
      w.String(m.flags.c_str());
      w.Key("objects");
      w.Uint64(m.objects);
      w.Key("bytes");
      w.Uint64(m.bytes);
      w.EndObject();
    }
    w.EndArray();
  }
  w.Key("adapted");
  w.StartArray();
  for (const std::string& a : r.adapted) w.String(a.c_str());
  w.EndArray();
  w.Key("snapshots");
  w.StartArray();
  for (const std::string& s : r.snapshots) w.String(s.c_str());
  w.EndArray();
  w.Key("checks");
  w.StartArray();
  for (const FrameCheck& f : r.checks) {
    w.StartObject();
    w.Key("frame");
    w.Uint64(f.frame);
    w.Key("capture_file");
    w.String(f.capture_file.c_str());
    w.Key("max_difference");
    w.Int(f.max_difference);
    w.Key("psnr");
    if (std::isinf(f.psnr)) w.Null();  // JSON has no infinity: equal images
    else w.Double(f.psnr);
    w.Key("size_differs");
    w.Bool(f.size_differs);
    w.Key("passed");
    w.Bool(f.passed);
    w.EndObject();
  }
  w.EndArray();
  w.Key("error");
  if (r.error) w.String(r.error->what());
  else w.Null();
  w.EndObject();
  return std::string(b.GetString()) + "\n";
}

}  // namespace libtrace::replay_trace
