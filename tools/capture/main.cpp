// SPDX-License-Identifier: MIT
// trak-capture: runs a Vulkan application with VK_LAYER_TRAK_capture and
// reports what it recorded. Like time(1), the report goes to stderr (or -o
// FILE): stdout belongs to the application.
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "libtrace/capture/run.hpp"
#include "libtrace/foz/stat.hpp"
#include "libtrace/layer/find.hpp"
#include "tool_main.hpp"

namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string report(const libtrace::capture::RunResult& r, const std::string& command, bool json) {
  std::vector<libtrace::foz::FozStats> stats;
  for (const std::string& a : r.archives) stats.push_back(libtrace::foz::stats(a, {}));
  if (json) {
    std::string out = "{\"command\":\"" + command + "\",\"status\":" + std::to_string(r.status) +
                      ",\"signal\":" + std::to_string(r.signal) + ",\"archives\":[";
    for (std::size_t i = 0; i < stats.size(); ++i) {
      std::string one = libtrace::foz::format_json(stats[i]);
      while (!one.empty() && one.back() == '\n') one.pop_back();
      out += (i ? "," : "") + one;
    }
    return out + "]}\n";
  }
  std::string out;
  for (const auto& s : stats) out += libtrace::foz::format_table(s) + "\n";
  if (stats.empty()) out += "nothing captured: " + command + " created no Vulkan device\n";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Run a Vulkan application with trak's capture layer (VK_LAYER_TRAK_capture), which records the create infos "
      "of its pipelines and what they use into Fossilize archives BASE.<hash>.<N>.foz (one per process and "
      "application), then report what was captured. The exit status is the application's.",
      "trak-capture"};
  std::string foz_base, report_file, layer_dir;
  bool json = false;
  app.add_option("--foz", foz_base, "Write .foz archives named BASE.<hash>.<N>.foz (the folder must exist)")
      ->type_name("BASE")
      ->required();
  app.add_flag("--json", json, "Report as one JSON object");
  app.add_option("-o,--report", report_file, "Write the report to FILE instead of stderr")->type_name("FILE");
  app.add_option("--layer-path", layer_dir, "Folder of VkLayer_trak_capture.json (default: this build's or install's)")
      ->type_name("DIR");
  app.prefix_command();
  app.footer(R"(Everything after the options (or after --) is the command.

Examples:
  trak-capture --foz /tmp/caps/cube -- vkcube --c 100
  trak-capture --foz glx -- env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 glxgears
  trak-capture --foz cube --json -o cube.json vkcube --c 10 && jq '.archives[].entries_per_tag' cube.json
  trak-replay /tmp/caps/cube.*.foz         every captured pipeline compiled again

Without trak-capture (launchers that cannot wrap the command):
  VK_ADD_LAYER_PATH=<dir of VkLayer_trak_capture.json> VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture \
  TRAK_CAPTURE_FOZ=/tmp/caps/cube vkcube

Exit status: the command's (128 + N when signal N ended it); 127 when it cannot be found, 126 when it
cannot be run; 1 or 2 for trak-capture's own errors.
)");

  return tools::run(app, argc, argv, [&]() -> int {
    std::vector<std::string> command = app.remaining();
    if (!command.empty() && command.front() == "--") command.erase(command.begin());
    if (command.empty()) throw tools::UsageError("no command to run (trak-capture --foz BASE -- COMMAND ARGS...)");
    const std::size_t slash = foz_base.rfind('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : foz_base.substr(0, slash);
    if (foz_base.empty() || foz_base.back() == '/')
      throw tools::UsageError("--foz needs a name, not a folder (for example " + foz_base + "app)");
    if (!is_dir(folder)) throw libtrace::Error(libtrace::Errc::io, folder, "no such folder (--foz)");
    if (layer_dir.empty()) layer_dir = libtrace::layer::find_layer_dir(tools::self_path(), libtrace::capture::kLayerFolder,
                                                         libtrace::capture::kManifest);
    if (layer_dir.empty())
      throw libtrace::Error(libtrace::Errc::io, "VkLayer_trak_capture.json",
                            "not found beside this build or install (--layer-path DIR)");

    const libtrace::capture::RunResult r = libtrace::capture::run({command, foz_base, layer_dir});
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
