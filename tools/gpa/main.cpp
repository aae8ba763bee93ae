// SPDX-License-Identifier: MIT
// trak-gpa: GPU counters through VK_AMD_gpa_interface, the driver's own or,
// on any other device, VK_LAYER_TRAK_gpa's.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

#include "libtrace/gpa/client/info.hpp"
#include "libtrace/gpa/client/profile.hpp"
#include "libtrace/layer/find.hpp"
#include "libtrace/layer/run.hpp"
#include "tool_main.hpp"

namespace gpa = libtrace::gpa::client;

namespace {

std::string layer_dir() { return libtrace::layer::find_layer_dir(tools::self_path(), "gpa", "VkLayer_trak_gpa.json"); }

bool ends_with(const std::string& s, const char* tail) {
  const std::size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The command: what follows the options, or `--`. CLI11 would hand what
// follows a subcommand's `--` up to trak-gpa itself, which takes it for stray
// arguments, so main() takes it off argv first (`after_dashes`). A word that
// looks like an option before the command is one trak-gpa does not know (a
// typo), not a program to run.
std::vector<std::string> command_of(std::vector<std::string> rest, bool dashes,
                                    const std::vector<std::string>& after_dashes) {
  if (!rest.empty() && rest.front().size() > 1 && rest.front()[0] == '-')
    throw tools::UsageError("unknown option " + rest.front() + " (the command goes after --)");
  if (!dashes) return rest;
  if (!rest.empty()) rest.emplace_back("--");  // the command's own
  rest.insert(rest.end(), after_dashes.begin(), after_dashes.end());
  return rest;
}

// --counters as the layer takes it, checked here so that a typo stops the
// run before the application starts instead of leaving a counter out.
std::string checked_counters(const std::string& list) {
  if (list == "none") return list;
  const std::vector<std::string> known = gpa::counter_names();
  std::vector<std::string> seen;
  std::istringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (name.empty() || name == "none")
      throw tools::UsageError("--counters \"" + list +
                              "\": name counters separated by commas, or 'none' alone (trak-gpa info lists them)");
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw tools::UsageError("--counters: no counter \"" + name + "\" (trak-gpa info lists them)");
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      throw tools::UsageError("--counters: " + name + " named twice");
    seen.push_back(name);
  }
  if (seen.empty() || list.back() == ',')
    throw tools::UsageError("--counters \"" + list +
                            "\": name counters separated by commas, or 'none' alone (trak-gpa info lists them)");
  return list;
}

// A report file, opened before the application runs (a path that cannot be
// written costs no run) and named only once it is whole.
std::unique_ptr<libtrace::OutputFile> open_output(const char* option, const std::string& path) {
  if (path.empty()) return nullptr;
  if (libtrace::is_stdio(path))
    throw tools::UsageError(std::string(option) +
                            " -: stdout belongs to the application; name a file (the summary is on stderr)");
  return std::make_unique<libtrace::OutputFile>(path);
}

void write_output(libtrace::OutputFile* out, const std::string& text) {
  if (!out) return;
  out->write(text.data(), text.size());
  out->commit();
}

// Whether two names are one file: the same folder (followed through links)
// and name, or an existing file reached twice.
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  const auto where = [](const std::string& p) {
    const std::size_t slash = p.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : p.substr(0, slash);
    char* real = ::realpath(dir.c_str(), nullptr);
    const std::string out =
        (real ? std::string(real) : dir) + "/" + p.substr(slash == std::string::npos ? 0 : slash + 1);
    std::free(real);
    return out;
  };
  return where(a) == where(b);
}

// Why there is nothing to summarize, in one line; empty when there is.
std::string why_no_profile(const gpa::Profile& p, const std::string& name) {
  if (!p.rows.empty()) return {};
  const auto profiled = std::count_if(p.devices.begin(), p.devices.end(), [](const auto& d) { return d.profiled; });
  if (p.devices.empty()) return libtrace::layer::why_layer_unseen("VK_LAYER_TRAK_gpa", name, "device");
  if (!profiled) return name + " made a Vulkan device the layer could not profile: " + p.devices.front().why_not;
  if (p.signal)
    return name + " made a Vulkan device, then died with signal " + std::to_string(p.signal) + " (" +
           strsignal(p.signal) + ") before any sample";
  return {};
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
  CLI::Option* counters_option =
      profile
          ->add_option("--counters", counters,
                       "Counters sampled with each (names from 'trak-gpa info'; 'none' for GPU times only; "
                       "default vs_invocations, fs_invocations, cs_invocations)")
          ->type_name("LIST");
  profile->prefix_command();
  // Subcommands made before tools::run sets the formatter keep CLI11's own:
  // theirs says where the command goes.
  for (CLI::App* sub : {info, profile}) sub->formatter(std::make_shared<tools::HelpFormatter>());
  app.footer(R"(Examples:
  trak-gpa info
  trak-gpa info --device llvmpipe --json | jq '.blocks[].counters[].name'
  trak-gpa profile -- vkcube --c 300
  trak-gpa profile --per draw --counters ia_vertices,fs_invocations -o cube.json --html cube.html -- vkcube --c 100

Everything after profile's options (or after --) is the command. Every device of every process of the
command is profiled. The summary goes to stderr: stdout is the application's. The exit status is the
application's (128 + N when signal N ended it); 127 when it cannot be found, 126 when it cannot be run;
1 or 2 for trak-gpa's own errors.)");

  int parsed = argc;
  std::vector<std::string> after_dashes;
  for (int i = 1; i < argc && parsed == argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      parsed = i;
      after_dashes.assign(argv + i + 1, argv + argc);
    }
  return tools::run(app, parsed, argv, [&]() -> int {
    const std::string dir = layer_dir();
    if (*info) {
      if (parsed < argc) throw tools::UsageError("info runs no command");
      if (!dir.empty()) libtrace::layer::add_layer_folder(dir);
      const gpa::Info i = gpa::query_info(device);
      std::cout << (json ? gpa::report_json(i) : gpa::report_table(i));
      return i.listed ? tools::kOk : tools::kFailure;
    }
    const std::vector<std::string> command = command_of(profile->remaining(), parsed < argc, after_dashes);
    if (command.empty()) throw tools::UsageError("no command to profile (trak-gpa profile -- COMMAND ARGS...)");
    if (counters_option->count()) counters = checked_counters(counters);
    if (!output.empty() && !ends_with(output, ".json") && !ends_with(output, ".csv") && !libtrace::is_stdio(output))
      throw tools::UsageError("--output must end in .json or .csv");
    if (!output.empty() && !html.empty() && same_file(output, html))
      throw tools::UsageError("-o " + output + " and --html " + html + " are one file: name two");
    if (dir.empty())
      throw libtrace::Error(libtrace::Errc::io, "VkLayer_trak_gpa.json", "not found beside this build or install");
    const auto samples_file = open_output("-o", output), page = open_output("--html", html);

    const gpa::Profile p = gpa::run_profile({command, per, counters, dir, tools::warning_sink("trak-gpa")});
    if (p.exec_errno) {
      const bool missing = p.exec_errno == ENOENT;
      std::cerr << "trak-gpa: " << command.front() << ": "
                << (missing ? "command not found" : std::strerror(p.exec_errno)) << '\n';
      return missing ? 127 : 126;
    }
    const gpa::Summary s = gpa::summarize(p);
    const std::string name = command.front().substr(command.front().rfind('/') + 1);
    if (const std::string why = why_no_profile(p, name); !why.empty()) {
      std::cerr << "trak-gpa: " << why << '\n';
    } else {
      if (p.rows.empty() && per != "command-buffer")
        std::cerr << "trak-gpa: warning: no " << (per == "draw" ? "draw or dispatch" : "render pass")
                  << " was sampled: " << name << " recorded none in its primary command buffers\n";
      std::cerr << gpa::report_table(p, s);
    }
    write_output(samples_file.get(), ends_with(output, ".csv") ? gpa::report_csv(p) : gpa::report_json(p, s));
    write_output(page.get(), gpa::report_html(p, s, "trak-gpa profile: " + command.front()));
    return p.status;
  });
}
