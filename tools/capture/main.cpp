// SPDX-License-Identifier: MIT
// trak-capture: runs a Vulkan application with VK_LAYER_TRAK_capture and
// reports what it recorded. Like time(1), the report goes to stderr (or -o
// FILE): stdout belongs to the application.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>

#include "launcher.hpp"
#include "libtrace/apitrace/stat.hpp"
#include "libtrace/capture/run.hpp"
#include "libtrace/foz/stat.hpp"
#include "libtrace/layer/find.hpp"
#include "libtrace/vktrace/dialect.hpp"
#include "tool_main.hpp"

namespace {

bool is_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::size_t count_snapshots(const std::string& trace) {
  const std::string dir = libtrace::vktrace::snapshot_dir(trace);
  std::size_t n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) n += std::string_view(e->d_name).substr(0, 6) == "frame-";
    ::closedir(d);
  }
  return n;
}

// A JSON string: the command is a path, which may hold quotes, backslashes
// and control characters.
std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A file the layer named (absolute: the command may change its directory)
// as the user would: relative to this directory when it is inside it.
std::string shown(const std::string& path) {
  static const std::string cwd = tools::absolute(".");
  const std::string dir = cwd.substr(0, cwd.size() - 1);  // "/x/." -> "/x/"
  return path.compare(0, dir.size(), dir) == 0 ? path.substr(dir.size()) : path;
}

// Why nothing was recorded, in one clause: what the layer saw of the command.
std::string nothing_because(const libtrace::capture::RunResult& r, const std::string& command) {
  if (!r.problems.empty()) return r.problems.front();
  if (!r.instance_seen) return r.unseen_because;
  if (!r.device_seen) return command + " made a Vulkan instance but no device";
  return command + " made a Vulkan device, and the layer wrote nothing of it";
}

struct Report {
  std::string text;
  bool unreadable = false;  // an output the layer wrote cannot be read back
};

Report report(const libtrace::capture::RunResult& r, const std::string& command, bool json) {
  Report rep;
  std::vector<std::string> archives, unreadable;
  std::vector<std::pair<std::string, std::string>> traces;  // figures, and the trace's name for its snapshots
  for (const std::string& a : r.archives) try {
      archives.push_back(json ? libtrace::foz::report_json(libtrace::foz::stats(shown(a), {}))
                              : libtrace::foz::report_table(libtrace::foz::stats(shown(a), {})));
    } catch (const libtrace::Error& e) {
      unreadable.push_back(e.what());
    }
  for (const std::string& t : r.traces) try {
      const libtrace::apitrace::TraceStats st = libtrace::apitrace::stats(shown(t));
      traces.emplace_back(json ? libtrace::apitrace::report_json(st) : libtrace::apitrace::report_table(st, 5),
                          shown(t));
    } catch (const libtrace::Error& e) {
      unreadable.push_back(e.what());
    }
  rep.unreadable = !unreadable.empty();
  auto one_line = [](std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  if (json) {
    std::string out = "{\"command\":" + json_string(command) + ",\"status\":" + std::to_string(r.status) +
                      ",\"signal\":" + std::to_string(r.signal) + ",\"archives\":[";
    for (std::size_t i = 0; i < archives.size(); ++i) out += (i ? "," : "") + one_line(archives[i]);
    out += "],\"traces\":[";
    for (std::size_t i = 0; i < traces.size(); ++i) {
      const auto& [stats, path] = traces[i];
      std::string t = one_line(stats);
      t.pop_back();  // the object's closing brace: the snapshots go in too
      out += (i ? "," : "") + t + ",\"snapshots\":" + std::to_string(count_snapshots(path)) + "}";
    }
    out += "],\"problems\":[";
    std::vector<std::string> problems = r.problems;
    problems.insert(problems.end(), unreadable.begin(), unreadable.end());
    for (std::size_t i = 0; i < problems.size(); ++i) out += (i ? "," : "") + json_string(problems[i]);
    out += "]";
    if (archives.empty() && traces.empty()) out += ",\"nothing_captured\":" + json_string(nothing_because(r, command));
    rep.text = out + "}\n";
    return rep;
  }
  std::string out;
  for (const auto& a : archives) out += a + "\n";
  for (const auto& [stats, path] : traces) {
    out += stats;
    if (const std::size_t n = count_snapshots(path))
      out += "snapshots      " + std::to_string(n) + " in " + libtrace::vktrace::snapshot_dir(path) + "/\n";
    out += "\n";
  }
  for (const auto& p : r.problems) out += "problem: " + p + "\n";
  for (const auto& u : unreadable) out += "unreadable: " + u + "\n";
  if (archives.empty() && traces.empty() && unreadable.empty())
    out += "nothing captured: " + nothing_because(r, command) + "\n";
  rep.text = out;
  return rep;
}

// Frames of an earlier run in the snapshot folder would pass for this one's.
void clear_snapshots(const std::string& trace) {
  const std::string dir = libtrace::vktrace::snapshot_dir(trace);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> old;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view n = e->d_name;
    if (n.size() == 16 && n.substr(0, 6) == "frame-" && n.substr(12) == ".png") old.emplace_back(n);
  }
  ::closedir(d);
  for (const std::string& n : old) ::unlink((dir + "/" + n).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Run a Vulkan application with trak's capture layer (VK_LAYER_TRAK_capture) and report what it recorded: "
      "with --trace, every Vulkan call into an apitrace trace stream (read it with apitrace dump, trak-stat, "
      "trak-convert); with --foz, the create infos of its pipelines into Fossilize archives BASE.<hash>.<N>.foz. "
      "The exit status is the application's.",
      "trak-capture"};
  std::string foz_base, trace, snapshots, report_file, layer_dir, codec, frames, trigger;
  bool json = false;
  int level = -1;
  app.add_option("--trace", trace,
                 "Write the whole Vulkan call stream to FILE (an apitrace trace; every other process of the "
                 "command writes FILE.<pid>.trace)")
      ->type_name("FILE");
  app.add_option("--snapshot", snapshots,
                 "With --trace: PNGs of the images presented at these frames (from 1, the first present) into "
                 "the folder beside FILE (cube.trace -> cube.snapshots/frame-000150.png)")
      ->type_name("FRAMES");
  app.add_option("--codec", codec,
                 "With --trace: the trace's container, snappy (default: every apitrace reads it) or zstd "
                 "(seekable frames, smaller; apitrace's newest line and trak read it)")
      ->check(CLI::IsMember({"snappy", "zstd"}));
  app.add_option("--level", level,
                 "With --codec zstd: its level, 1 (fastest) to 19 (smallest) (default 3; 5 is 5 % smaller on "
                 "upload-heavy programs and costs the layer's writer thread a third more CPU)")
      ->check(CLI::Range(1, 19));
  app.add_option("--frames", frames,
                 "With --trace: record only these frames (from 1, the first present): A-B, or A-B,C-D,... for one "
                 "file per range (FILE -> FILE.frames-000200.trace); each file starts with the state at its "
                 "first frame")
      ->type_name("RANGES");
  app.add_option("--trigger", trigger,
                 "With --trace: signal: SIGUSR1 to trak-capture (or the command) starts a range at the next "
                 "frame, the next SIGUSR1 ends it; one file per range, named by its first frame")
      ->check(CLI::IsMember({"signal"}));
  app.add_option("--foz", foz_base, "Write .foz archives named BASE.<hash>.<N>.foz (the folder must exist)")
      ->type_name("BASE");
  app.add_flag("--json", json, "Report as one JSON object");
  app.add_option("-o,--report", report_file, "Write the report to FILE instead of stderr")->type_name("FILE");
  app.add_option("--layer-path", layer_dir, "Folder of VkLayer_trak_capture.json (default: this build's or install's)")
      ->type_name("DIR");
  app.prefix_command();
  app.footer(R"(Everything after the options (or after --) is the command. At least one of --trace and --foz.

Examples:
  trak-capture --trace cube.trace --snapshot 1,100 -- vkcube --c 100
  trak-capture --trace cube.trace --codec zstd -- vkcube --c 1000     smaller: zstd frames
  trak-capture --trace gl.trace --codec zstd --level 5 -- glmark2      smaller still, more CPU
  trak-capture --trace cube.trace --frames 100-102 --snapshot 100 -- vkcube --c 300
                                           frames 100 to 102 alone, starting with the state at frame 100
  trak-capture --trace game.trace --trigger signal -- ./game &  kill -USR1 $!  ...  kill -USR1 $!
  trak-capture --trace gears.trace -- env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 glxgears
  apitrace dump cube.trace | less          the calls, with enum, flag and member names
  trak-stat cube.trace                     calls, frames, threads
  trak-convert --to jsonl cube.trace       one JSON object per call
  trak-capture --foz /tmp/caps/cube -- vkcube --c 100
  trak-capture --trace cube.trace --foz cube --json -o cube.json vkcube --c 10
  trak-replay /tmp/caps/cube.*.foz         every captured pipeline compiled again

Without trak-capture (launchers that cannot wrap the command), the layer's folder goes into
VK_LAYER_PATH where that is set (the Vulkan SDK sets it; the loader then ignores VK_ADD_LAYER_PATH):
  VK_ADD_LAYER_PATH=<dir of VkLayer_trak_capture.json> VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture \
  TRAK_CAPTURE_TRACE=cube.trace TRAK_CAPTURE_SNAPSHOTS=1,100 TRAK_CAPTURE_FOZ=/tmp/caps/cube vkcube
  VK_LAYER_PATH=<dir>:$VK_LAYER_PATH VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture TRAK_CAPTURE_TRACE=cube.trace vkcube

In a trace, buffers and images are recorded as objects, not as the application's memory: what the host
writes to mapped memory becomes trakUpdateBuffer/trakUpdateImage calls before each submit, and memory
types that are both device-local and host-visible are shown to the application as two.

Every process of the command gets a file of its own: the first FILE, the others FILE.<pid>.trace;
a trace another capture is writing is never replaced. SIGINT, SIGTERM and SIGHUP sent to trak-capture
go on to the command, and the report follows when it ends.

Exit status: the command's (128 + N when signal N ended it); 127 when it cannot be found, 126 when it
cannot be run; 1 when the command succeeded but what it was to record could not be written; 2 for a
usage error (checked before the command starts).
)");

  return tools::run(app, argc, argv, [&]() -> int {
    std::vector<std::string> command = app.remaining();
    tools::reject_unknown_option(command);
    if (!command.empty() && command.front() == "--") command.erase(command.begin());
    if (command.empty()) throw tools::UsageError("no command to run (trak-capture --trace FILE -- COMMAND ARGS...)");
    if (trace.empty() && foz_base.empty())
      throw tools::UsageError("nothing to record: --trace FILE, --foz BASE or both");
    if (!snapshots.empty() && trace.empty()) throw tools::UsageError("--snapshot needs --trace");
    if (!codec.empty() && trace.empty()) throw tools::UsageError("--codec needs --trace");
    if (level >= 0 && codec != "zstd") throw tools::UsageError("--level needs --codec zstd");
    if (!frames.empty() && trace.empty()) throw tools::UsageError("--frames needs --trace");
    if (!trigger.empty() && trace.empty()) throw tools::UsageError("--trigger needs --trace");
    if (!frames.empty() && !trigger.empty()) throw tools::UsageError("--frames and --trigger: one or the other");
    if (!frames.empty()) libtrace::vktrace::parse_frame_ranges(frames);  // a usage error now, not in the layer
    if (!snapshots.empty()) libtrace::vktrace::parse_frames(snapshots);  // a usage error now, not in the layer
    tools::check_distinct({{trace, "--trace"}, {report_file, "--report"}});
    if (!foz_base.empty()) {
      if (foz_base.back() == '/')
        throw tools::UsageError("--foz needs a name, not a folder (for example " + foz_base + "app)");
      tools::check_output(foz_base, "--foz");
      foz_base = tools::absolute(foz_base);
    }
    if (!trace.empty()) {
      tools::check_output(trace, "--trace");
      trace = tools::absolute(trace);
    }
    if (!report_file.empty() && !libtrace::is_stdio(report_file)) tools::check_output(report_file, "--report");
    // The report's file is made before the command runs: a full run must
    // not end in "cannot write the report".
    std::unique_ptr<libtrace::TempFile> report_out;
    if (!report_file.empty() && !libtrace::is_stdio(report_file))
      report_out = std::make_unique<libtrace::TempFile>(report_file);
    if (layer_dir.empty())
      layer_dir = libtrace::layer::find_layer_dir(tools::self_path(), libtrace::capture::kLayerFolder,
                                                  libtrace::capture::kManifest);
    if (layer_dir.empty())
      throw libtrace::Error(libtrace::Errc::io, "VkLayer_trak_capture.json",
                            "not found beside this build or install (--layer-path DIR)");
    if (!is_file(layer_dir + "/" + libtrace::capture::kManifest))
      throw libtrace::Error(libtrace::Errc::io, layer_dir + "/" + libtrace::capture::kManifest,
                            "no such file (--layer-path names the folder of the layer's manifest)");
    if (!snapshots.empty()) {
      clear_snapshots(trace);
      // Each range of several has a file, and a snapshot folder, of its own.
      const auto ranges = frames.empty() ? decltype(libtrace::vktrace::parse_frame_ranges("")){}
                                         : libtrace::vktrace::parse_frame_ranges(frames);
      if (ranges.size() > 1)
        for (const auto& [first, last] : ranges) clear_snapshots(libtrace::vktrace::range_trace_path(trace, first));
    }

    const libtrace::capture::RunResult r =
        libtrace::capture::run({command, foz_base, trace, snapshots, layer_dir, codec, level, frames, trigger});
    if (r.exec_errno) {
      const bool missing = r.exec_errno == ENOENT;
      std::cerr << "trak-capture: " << command.front() << ": "
                << (missing ? "command not found" : std::strerror(r.exec_errno)) << '\n';
      return missing ? 127 : 126;
    }
    const Report rep = report(r, command.front(), json);
    if (!report_out) {
      std::cerr << rep.text;
    } else {
      libtrace::write_all(report_out->fd(), rep.text.data(), rep.text.size(), report_file);
      report_out->commit(report_file);
    }
    // The application's status, unless it succeeded and what it was to
    // record could not be written or read back.
    if (r.status == 0 && (!r.problems.empty() || rep.unreadable)) return tools::kFailure;
    return r.status;
  });
}
