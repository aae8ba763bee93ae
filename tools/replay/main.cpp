// SPDX-License-Identifier: MIT
// trak-replay: replays VMA recordings on a Vulkan device (real buffers,
// images and device memory through trak's allocator), or with --simulate
// against a model of the recorded heaps; and Fossilize archives (.foz), whose
// pipelines it creates on the device (foz_cli.hpp). The format is told by
// content.
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "foz_cli.hpp"
#include "libtrace/foz/archive.hpp"
#include "libtrace/replay/vma/replay.hpp"
#include "libtrace/vk/device.hpp"
#include "libtrace/vma/sim.hpp"
#include "tool_main.hpp"
#include "trace_cli.hpp"

namespace {

struct Lines {
  std::uint64_t first = 0, last = UINT64_MAX;
};

Lines parse_lines(const std::string& spec) {
  // Digits only, each part whole: "44-50x" or "44 - 50" is a typo, not 44-50.
  auto number = [&](std::string_view part, std::uint64_t& out) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size())
      throw tools::UsageError("--lines wants A-B, A-, -B or N (file line numbers), not '" + spec + "'");
  };
  Lines l;
  const std::string_view s = spec;
  const auto dash = s.find('-');
  if (dash == std::string_view::npos) {
    number(s, l.first);
    l.last = l.first;
  } else {
    if (dash == 0 && s.size() == 1) number({}, l.first);  // "-" alone
    if (dash > 0) number(s.substr(0, dash), l.first);
    if (dash + 1 < s.size()) number(s.substr(dash + 1), l.last);
  }
  if (l.first > l.last) throw tools::UsageError("--lines: the range " + spec + " is empty");
  return l;
}

}  // namespace

int main(int argc, char** argv) {
  // A replay worker that this program started for a .foz replay (before
  // anything else: it must not touch Vulkan or parse options first).
  if (argc == 3 && argv[1] == libtrace::foz::kWorkerFlag) ::_exit(libtrace::foz::run_worker(std::atoi(argv[2])));
  CLI::App app{
      "Replay a VMA calls recording on a Vulkan device: real buffers, images and device memory, "
      "suballocated by trak's own VMA-like allocator. --simulate models the recorded heaps instead. "
      "Or create every pipeline of Fossilize archives (.foz) on the device, to warm its caches. Or replay a Vulkan "
      "capture of trak-capture --trace, offscreen, with its frames compared with the capture's.",
      "trak-replay"};
  std::vector<std::string> inputs;
  std::string lines, device;
  bool simulate = false, json = false, keep_going = false, list_devices = false, no_budget = false;
  tools::FozCli foz;
  tools::TraceCli trace;
  app.add_option("input", inputs,
                 "VMA recording (.csv, also gzip/brotli; '-' reads stdin), or Fossilize archives (.foz)");
  app.add_flag("--simulate", simulate, "No device: replay against a model of the recorded heaps and types");
  app.add_option("--device", device, "Vulkan device: an index from --list-devices, or part of its name (default 0)");
  app.add_flag("--list-devices", list_devices, "List the Vulkan devices (with --json: as JSON) and exit");
  app.add_flag("--json", json, "One JSON object instead of the summary");
  app.add_option("--lines", lines, "Replay only these file lines: A-B, A-, -B or N");
  app.add_flag("--keep-going", keep_going, "Skip malformed lines with a warning instead of stopping");
  app.add_flag("--no-heap-budget", no_budget,
               "Let device memory exceed each heap's size (by default an allocation that would is a failure)");
  tools::add_foz_options(app, foz);
  tools::add_trace_options(app, trace);
  app.footer(std::string(R"(Examples:
  trak-replay app.vma.csv                       VmaReplay's summary on device 0, memory type mapping, compromises
  trak-replay app.vma.csv --device llvmpipe     pick a device by name (or --device 1 by index)
  trak-replay --list-devices                    devices, drivers, heaps and memory types
  trak-replay app.vma.csv --json | jq '.heaps, .memory_type_mapping'
  trak-replay app.vma.csv --lines 100-5000      replay a range of file lines
  trak-replay app.vma.csv --simulate            no device: peak committed memory per recorded heap
Exit status: 0 replayed (allocations that fail on this device are counted, not errors),
1 bad input or no Vulkan device, 2 usage.)") +
             tools::kFozHelp + tools::kTraceHelp);

  return tools::run(app, argc, argv, [&]() -> int {
    namespace vma = libtrace::vma;
    namespace vk = libtrace::vk;
    if (list_devices) {
      vk::Instance instance;
      if (instance.physical_devices().empty()) instance.select("");  // throws "no Vulkan device"
      std::cout << (json ? vk::report_devices_json(instance.physical_devices())
                         : vk::report_devices(instance.physical_devices()));
      return tools::kOk;
    }
    if (inputs.empty() && !foz.opt.load_caches.empty()) {  // no archive: merge the caches
      const auto r = libtrace::foz::merge_cache_files(device, foz.opt.load_caches, foz.opt.pipeline_cache);
      for (const auto& [name, why] : r.skipped)
        std::cerr << "trak-replay: warning: " << name << ": left out: " << why << '\n';
      std::cout << libtrace::foz::report_cache_merge(r, json);
      return tools::kOk;
    }
    if (inputs.empty()) inputs.push_back("-");
    // An archive is read by offset, so only files are told apart here; a
    // pipe is a VMA recording.
    if (!libtrace::is_stdio(inputs.front())) {
      libtrace::InputFile probe(inputs.front());
      if (libtrace::sniff(probe).format == libtrace::Format::foz_archive) {
        for (const auto& [given, name] :
             {std::pair{simulate, "--simulate"}, std::pair{!lines.empty(), "--lines"},
              std::pair{keep_going, "--keep-going"}, std::pair{no_budget, "--no-heap-budget"}})
          if (given) throw tools::UsageError(std::string(name) + " applies to VMA recordings, not to .foz archives");
        foz.opt.device = device;
        foz.opt.loop = trace.loop;
        return tools::run_foz(foz, inputs, json);
      }
    }
    if (inputs.size() > 1) throw tools::UsageError("several inputs are only for .foz archives");
    const std::string foz_only = tools::foz_option_given(app);
    if (!foz_only.empty() && foz_only != "--pipeline-cache" && foz_only != "--validate")
      throw tools::UsageError(foz_only + " applies to .foz archives, not to VMA recordings or captures");
    const std::string& input = inputs.front();
    if (simulate && !device.empty()) throw tools::UsageError("--device replays on a device; --simulate uses none");
    tools::refuse_terminal_input(input);
    const Lines range = lines.empty() ? Lines{} : parse_lines(lines);
    libtrace::WarningSink warnings = tools::warning_sink("trak-replay");
    libtrace::InputFile in(input);
    libtrace::Sniffed sniffed = libtrace::sniff(in);
    if (sniffed.format == libtrace::Format::foz_archive)
      throw libtrace::Error(libtrace::Errc::usage, in.name(),
                            "a .foz archive is read by offset: give a file, not a pipe");
    if (sniffed.format == libtrace::Format::apitrace) {
      std::string head;
      sniffed.stream = libtrace::peek_stream(std::move(sniffed.stream), 1 << 16, head);
      if (libtrace::replay_trace::stream_kind(head) == libtrace::replay_trace::StreamKind::other_api)
        throw libtrace::Error(libtrace::Errc::unsupported, in.name(),
                              "this is an apitrace trace of another API; trak-replay reads VMA calls recordings, "
                              "Fossilize archives and Vulkan captures (trak-capture --trace)");
      for (const auto& [given, name] :
           {std::pair{simulate, "--simulate"}, std::pair{!lines.empty(), "--lines"},
            std::pair{keep_going, "--keep-going"}, std::pair{no_budget, "--no-heap-budget"}})
        if (given) throw tools::UsageError(std::string(name) + " applies to VMA recordings, not to captures");
      trace.opt.validate = foz.opt.validate;
      return tools::run_trace(trace, input, std::move(sniffed.stream), in.name(), device, foz.opt.pipeline_cache, json);
    }
    if (foz.opt.validate) throw tools::UsageError("--validate applies to .foz archives and captures");
    if (!foz.opt.pipeline_cache.empty())
      throw tools::UsageError("--pipeline-cache applies to .foz archives and captures");
    for (const char* name : {"--snapshot", "--snapshot-dir", "--compare", "--tolerance", "--min-psnr", "--frames",
                             "--loop", "--present", "--shuffle-memory", "--stage-updates"})
      if (app.get_option(name)->count())
        throw tools::UsageError(std::string(name) + " applies to Vulkan captures (trak-capture --trace)");
    if (sniffed.format != libtrace::Format::vma_recording)
      throw tools::not_read_here(in, sniffed.format, "trak-replay",
                                 "VMA calls recordings, Fossilize archives and Vulkan captures (trak-capture --trace)");
    auto decoder = std::move(sniffed.stream);
    std::optional<libtrace::Error> error;
    const auto fill_lines = [&](vma::ReplayLines& opt) {
      opt.first_line = range.first;
      opt.last_line = range.last;
      opt.keep_going = keep_going;
      opt.warnings = warnings;
    };
    if (simulate) {
      vma::SimOptions opt;
      fill_lines(opt);
      const auto r = vma::simulate(std::move(decoder), in.name(), opt);
      std::cout << (json ? vma::report_json(r) : vma::report_table(r));
      error = r.error;
    } else {
      vk::Instance instance;
      vk::Device dev(instance, instance.select(device), vma::replay_device_options());
      vma::ReplayOptions opt;
      fill_lines(opt);
      opt.enforce_heap_budget = !no_budget;
      const auto r = vma::replay(std::move(decoder), in.name(), dev, opt);
      std::cout << (json ? vma::report_json(r) : vma::report_table(r));
      error = r.error;
    }
    std::cout.flush();
    if (error) throw *error;
    return tools::kOk;
  });
}
