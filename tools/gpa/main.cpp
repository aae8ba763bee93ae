// SPDX-License-Identifier: MIT
// trak-gpa: GPU counters through VK_AMD_gpa_interface, the driver's own or,
// on any other device, VK_LAYER_TRAK_gpa's.
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "libtrace/gpa/info.hpp"
#include "libtrace/gpa/profile.hpp"
#include "libtrace/layer/find.hpp"
#include "tool_main.hpp"

namespace {

std::string layer_dir() { return libtrace::layer::find_layer_dir(tools::self_path(), "gpa", "VkLayer_trak_gpa.json"); }

void write_file(const std::string& path, const std::string& text) {
  if (libtrace::is_stdio(path)) {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out.flush()) libtrace::throw_errno(path, "write");
}

bool ends_with(const std::string& s, const char* tail) {
  const std::size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "GPU counters through VK_AMD_gpa_interface: the driver's own (AMD), or on any other device trak's layer "
      "VK_LAYER_TRAK_gpa, which offers it from timestamp and pipeline-statistics queries.",
      "trak-gpa"};
  app.require_subcommand(1);

  CLI::App* info = app.add_subcommand("info", "The device's extension: features, perf blocks and counters, clocks");
  std::string device;
  bool json = false;
  info->add_option("--device", device, "Vulkan device: an index or part of its name (default 0)");
  info->add_flag("--json", json, "One JSON object instead of the table");

  CLI::App* profile = app.add_subcommand(
      "profile", "Run an application with the layer sampling its work through the extension, then summarize");
  std::string output, html, per = "command-buffer", counters;
  profile->add_option("-o,--output", output, "Write every sample: FILE.json (with the summary) or FILE.csv")
      ->type_name("FILE");
  profile->add_option("--html", html, "Write a page with the GPU time per frame plotted")->type_name("FILE");
  profile->add_option("--per", per, "What one sample covers")
      ->check(CLI::IsMember({"command-buffer", "render-pass", "draw"}))
      ->capture_default_str();
  profile->add_option("--counters", counters,
                      "Counters sampled with each (names from 'trak-gpa info'; 'none' for GPU times only; default "
                      "vs_invocations, fs_invocations, cs_invocations)")
      ->type_name("LIST");
  std::vector<std::string> command;
  profile->add_option("command", command, "The application and its arguments (after --)");
  profile->positionals_at_end();
  app.footer(R"(Examples:
  trak-gpa info
  trak-gpa info --device llvmpipe --json | jq '.blocks[].counters[].name'
  trak-gpa profile -- vkcube --c 300
  trak-gpa profile --per draw --counters ia_vertices,fs_invocations -o cube.json --html cube.html -- vkcube --c 100

The profile's summary goes to stderr: stdout is the application's. Its exit status is the application's.)");

  return tools::run(app, argc, argv, [&]() -> int {
    const std::string dir = layer_dir();
    if (*info) {
      if (!dir.empty()) {
        const char* old = std::getenv("VK_ADD_LAYER_PATH");
        ::setenv("VK_ADD_LAYER_PATH", (old && *old ? dir + ":" + old : dir).c_str(), 1);
      }
      const libtrace::gpa::Info i = libtrace::gpa::query_info(device);
      std::cout << (json ? libtrace::gpa::format_json(i) : libtrace::gpa::format_table(i));
      return i.listed ? tools::kOk : tools::kFailure;
    }
    if (command.empty()) throw tools::UsageError("no command to profile (trak-gpa profile -- COMMAND ARGS...)");
    if (!output.empty() && !ends_with(output, ".json") && !ends_with(output, ".csv") && !libtrace::is_stdio(output))
      throw tools::UsageError("--output must end in .json or .csv");
    if (libtrace::is_stdio(output) && libtrace::is_stdio(html))
      throw tools::UsageError("--output - and --html - would both write to stdout");
    if (dir.empty())
      throw libtrace::Error(libtrace::Errc::io, "VkLayer_trak_gpa.json", "not found beside this build or install");
    const libtrace::gpa::Profile p = libtrace::gpa::run_profile({command, per, counters, dir});
    if (p.exec_errno) {
      const bool missing = p.exec_errno == ENOENT;
      std::cerr << "trak-gpa: " << command.front() << ": "
                << (missing ? "command not found" : std::strerror(p.exec_errno)) << '\n';
      return missing ? 127 : 126;
    }
    const libtrace::gpa::Summary s = libtrace::gpa::summarize(p);
    if (p.rows.empty() && p.layer_cpu_ns < 0)
      std::cerr << "trak-gpa: " << command.front() << " made no Vulkan device the layer could profile\n";
    else
      std::cerr << libtrace::gpa::format_table(p, s);
    if (!output.empty())
      write_file(output, ends_with(output, ".csv") ? libtrace::gpa::format_csv(p) : libtrace::gpa::format_json(p, s));
    if (!html.empty()) write_file(html, libtrace::gpa::format_html(p, s, "trak-gpa profile: " + command.front()));
    return p.status;
  });
}
