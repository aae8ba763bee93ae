// SPDX-License-Identifier: MIT
// trak-capture: runs a Vulkan application with VK_LAYER_TRAK_capture and
// reports what it recorded. Like time(1), the report goes to stderr (or -o
// FILE): stdout belongs to the application.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "libtrace/apitrace/stat.hpp"
#include "libtrace/capture/run.hpp"
#include "libtrace/foz/stat.hpp"
#include "libtrace/layer/find.hpp"
#include "tool_main.hpp"

namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::size_t count_snapshots(const std::string& trace) {
  const std::string dir = libtrace::capture::snapshot_dir(trace);
  std::size_t n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) n += std::string_view(e->d_name).substr(0, 6) == "frame-";
    ::closedir(d);
  }
  return n;
}

std::string report(const libtrace::capture::RunResult& r, const std::string& command, bool json) {
  std::vector<libtrace::foz::FozStats> stats;
  for (const std::string& a : r.archives) stats.push_back(libtrace::foz::stats(a, {}));
  std::vector<libtrace::apitrace::TraceStats> traces;
  for (const std::string& t : r.traces) traces.push_back(libtrace::apitrace::stats(t));
  auto one_line = [](std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  if (json) {
    std::string out = "{\"command\":\"" + command + "\",\"status\":" + std::to_string(r.status) +
                      ",\"signal\":" + std::to_string(r.signal) + ",\"archives\":[";
    for (std::size_t i = 0; i < stats.size(); ++i) out += (i ? "," : "") + one_line(libtrace::foz::format_json(stats[i]));
    out += "],\"traces\":[";
    for (std::size_t i = 0; i < traces.size(); ++i) {
      std::string t = one_line(libtrace::apitrace::format_json(traces[i]));
      t.pop_back();  // the object's closing brace: the snapshots go in too
      out += (i ? "," : "") + t + ",\"snapshots\":" + std::to_string(count_snapshots(r.traces[i])) + "}";
    }
    return out + "]}\n";
  }
  std::string out;
  for (const auto& s : stats) out += libtrace::foz::format_table(s) + "\n";
  for (std::size_t i = 0; i < traces.size(); ++i) {
    out += libtrace::apitrace::format_table(traces[i], 5);
    if (const std::size_t n = count_snapshots(r.traces[i]))
      out += "snapshots      " + std::to_string(n) + " in " + libtrace::capture::snapshot_dir(r.traces[i]) + "/\n";
    out += "\n";
  }
  if (stats.empty() && traces.empty()) out += "nothing captured: " + command + " created no Vulkan device\n";
  return out;
}

// Frames of an earlier run in the snapshot folder would pass for this one's.
void clear_snapshots(const std::string& trace) {
  const std::string dir = libtrace::capture::snapshot_dir(trace);
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
  std::string foz_base, trace, snapshots, report_file, layer_dir;
  bool json = false;
  app.add_option("--trace", trace,
                 "Write the whole Vulkan call stream to FILE (an apitrace trace; a second process of the command "
                 "writes FILE.<pid>.trace)")
      ->type_name("FILE");
  app.add_option("--snapshot", snapshots,
                 "With --trace: PNGs of the images presented at these frames (from 1, the first present) into "
                 "the folder beside FILE (cube.trace -> cube.snapshots/frame-000150.png)")
      ->type_name("FRAMES");
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
  trak-capture --trace gears.trace -- env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 glxgears
  apitrace dump cube.trace | less          the calls, with enum, flag and member names
  trak-stat cube.trace                     calls, frames, threads
  trak-convert --to jsonl cube.trace       one JSON object per call
  trak-capture --foz /tmp/caps/cube -- vkcube --c 100
  trak-capture --trace cube.trace --foz cube --json -o cube.json vkcube --c 10
  trak-replay /tmp/caps/cube.*.foz         every captured pipeline compiled again

Without trak-capture (launchers that cannot wrap the command):
  VK_ADD_LAYER_PATH=<dir of VkLayer_trak_capture.json> VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture \
  TRAK_CAPTURE_TRACE=cube.trace TRAK_CAPTURE_SNAPSHOTS=1,100 TRAK_CAPTURE_FOZ=/tmp/caps/cube vkcube

In a trace, buffers and images are recorded as objects, not as the application's memory: what the host
writes to mapped memory becomes trakUpdateBuffer/trakUpdateImage calls before each submit, and memory
types that are both device-local and host-visible are shown to the application as two.

Exit status: the command's (128 + N when signal N ended it); 127 when it cannot be found, 126 when it
cannot be run; 1 or 2 for trak-capture's own errors.
)");

  return tools::run(app, argc, argv, [&]() -> int {
    std::vector<std::string> command = app.remaining();
    if (!command.empty() && command.front() == "--") command.erase(command.begin());
    if (command.empty()) throw tools::UsageError("no command to run (trak-capture --trace FILE -- COMMAND ARGS...)");
    if (trace.empty() && foz_base.empty()) throw tools::UsageError("nothing to record: --trace FILE, --foz BASE or both");
    if (!snapshots.empty() && trace.empty()) throw tools::UsageError("--snapshot needs --trace");
    if (!snapshots.empty()) libtrace::capture::parse_frames(snapshots);  // a usage error now, not in the layer
    if (!foz_base.empty()) {
      const std::size_t slash = foz_base.rfind('/');
      const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : foz_base.substr(0, slash);
      if (foz_base.back() == '/')
        throw tools::UsageError("--foz needs a name, not a folder (for example " + foz_base + "app)");
      if (!is_dir(folder)) throw libtrace::Error(libtrace::Errc::io, folder, "no such folder (--foz)");
    }
    if (!trace.empty()) {
      if (is_dir(trace)) throw libtrace::Error(libtrace::Errc::io, trace, "is a folder (--trace names a file)");
      const std::size_t slash = trace.rfind('/');
      const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : trace.substr(0, slash);
      if (!is_dir(folder)) throw libtrace::Error(libtrace::Errc::io, folder, "no such folder (--trace)");
      if (!snapshots.empty()) clear_snapshots(trace);
    }
    if (layer_dir.empty()) layer_dir = libtrace::layer::find_layer_dir(tools::self_path(), libtrace::capture::kLayerFolder,
                                                         libtrace::capture::kManifest);
    if (layer_dir.empty())
      throw libtrace::Error(libtrace::Errc::io, "VkLayer_trak_capture.json",
                            "not found beside this build or install (--layer-path DIR)");

    const libtrace::capture::RunResult r = libtrace::capture::run({command, foz_base, trace, snapshots, layer_dir});
    if (r.exec_errno) {
      const bool missing = r.exec_errno == ENOENT;
      std::cerr << "trak-capture: " << command.front() << ": "
                << (missing ? "command not found" : std::strerror(r.exec_errno)) << '\n';
      return missing ? 127 : 126;
    }
    const std::string text = report(r, command.front(), json);
    if (report_file.empty()) {
      std::cerr << text;
    } else {
      std::ofstream out(report_file, std::ios::trunc);
      out << text;
      if (!out.flush()) libtrace::throw_errno(report_file, "write");
    }
    return r.status;
  });
}
