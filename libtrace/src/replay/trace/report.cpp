// SPDX-License-Identifier: MIT
// The replay's report: a table for people, one JSON object for scripts.
#include <cmath>
#include <cstdio>

#include "core/report.hpp"
#include "libtrace/replay/trace/replay.hpp"

namespace libtrace::replay_trace {

namespace {

using detail::percentile;

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

std::string report_table(const Result& r) {
  detail::TableReport t(14);
  t.row("file", r.file);
  t.row("device", r.device);
  t.row("calls", std::to_string(r.calls) + " (" + std::to_string(r.skipped_calls) + " not replayed as recorded)");
  t.row("updates", std::to_string(r.updates) + " runs, " + std::to_string(r.update_bytes) + " bytes");
  t.row("frames", std::to_string(r.frames));
  if (r.timed_frames) {
    t.row("fps", fixed(double(r.timed_frames) / r.seconds, 1) + " (" + std::to_string(r.timed_frames) + " frames in " +
                     fixed(r.seconds, 3) + " s" + (r.passes > 1 ? ", " + std::to_string(r.passes) + " passes" : "") +
                     ")");
    t.row("frame ms", "min " + fixed(percentile(r.frame_ms, 0), 2) + ", median " +
                          fixed(percentile(r.frame_ms, 0.5), 2) + ", p95 " + fixed(percentile(r.frame_ms, 0.95), 2) +
                          ", max " + fixed(percentile(r.frame_ms, 1), 2));
  }
  for (const MemoryUse& m : r.memory_capture)
    t.row("memory capture",
          m.flags + ": " + std::to_string(m.objects) + " allocations, " + std::to_string(m.bytes) + " bytes");
  for (const MemoryUse& m : r.memory_here)
    t.row("memory here",
          m.flags + ": " + std::to_string(m.objects) + " objects, " + std::to_string(m.bytes) + " bytes");
  for (const std::string& a : r.adapted) t.row("adapted", a);
  for (const std::string& s : r.snapshots) t.row("snapshot", s);
  for (const FrameCheck& f : r.checks)
    t.row(("frame " + std::to_string(f.frame)).c_str(),
          (f.passed ? "match" : "DIFFERS") + std::string(": ") +
              (f.size_differs ? "another size than " + f.capture_file
                              : "largest channel difference " + std::to_string(f.max_difference) + ", PSNR " +
                                    psnr_text(f.psnr) + " dB against " + f.capture_file));
  for (const FrameCheck& f : r.checks)
    if (!f.difference_file.empty())
      t.row(("frame " + std::to_string(f.frame)).c_str(), "where it differs: " + f.difference_file);
  if (r.error) t.row("stopped", r.error->what());
  return t.text();
}

std::string report_json(const Result& r) {
  detail::JsonReport j;
  auto& w = j.writer();
  w.StartObject();
  j.members("file", r.file, "device", r.device, "calls", r.calls, "skipped_calls", r.skipped_calls, "updates",
            r.updates, "update_bytes", r.update_bytes, "frames", r.frames, "timed_frames", r.timed_frames, "passes",
            r.passes);
  w.Key("seconds");
  w.Double(r.seconds);
  w.Key("fps");
  w.Double(r.seconds > 0 ? double(r.timed_frames) / r.seconds : 0);
  w.Key("frame_ms");
  w.StartObject();
  for (const auto& [k, p] :
       {std::pair{"min", 0.0}, std::pair{"median", 0.5}, std::pair{"p95", 0.95}, std::pair{"max", 1.0}}) {
    w.Key(k);
    w.Double(percentile(r.frame_ms, p));
  }
  w.EndObject();
  for (const auto& [key, list] :
       {std::pair{"memory_capture", &r.memory_capture}, std::pair{"memory_here", &r.memory_here}}) {
    w.Key(key);
    w.StartArray();
    for (const MemoryUse& m : *list) {
      w.StartObject();
      j.members("flags", m.flags, "objects", m.objects, "bytes", m.bytes);
      w.EndObject();
    }
    w.EndArray();
  }
  for (const auto& [key, list] : {std::pair{"adapted", &r.adapted}, std::pair{"snapshots", &r.snapshots}}) {
    w.Key(key);
    w.StartArray();
    for (const std::string& s : *list) j.text(s);
    w.EndArray();
  }
  w.Key("checks");
  w.StartArray();
  for (const FrameCheck& f : r.checks) {
    w.StartObject();
    j.u64("frame", f.frame);
    j.text("capture_file", f.capture_file);
    w.Key("max_difference");
    w.Int(f.max_difference);
    w.Key("psnr");
    if (std::isinf(f.psnr))
      w.Null();  // JSON has no infinity: equal images
    else
      w.Double(f.psnr);
    w.Key("size_differs");
    w.Bool(f.size_differs);
    w.Key("passed");
    w.Bool(f.passed);
    if (!f.difference_file.empty()) j.text("difference_file", f.difference_file);
    w.EndObject();
  }
  w.EndArray();
  w.Key("error");
  if (r.error)
    j.text(r.error->what());
  else
    w.Null();
  w.EndObject();
  return j.finish();
}

}  // namespace libtrace::replay_trace
