// SPDX-License-Identifier: MIT
// trak-replay: replays Fossilize archives (.foz) on a Vulkan device
// (foz_cli.hpp), and VMA recordings (today: --simulate, a model of the
// recorded heaps; device replay is still to come). The format is told by
// content.
#include <iostream>

#include "foz_cli.hpp"
#include "libtrace/foz_archive.hpp"
#include "libtrace/vma_sim.hpp"
#include "tool_main.hpp"

namespace {

void parse_lines(const std::string& spec, libtrace::vma::SimOptions& opt) {
  const auto dash = spec.find('-');
  try {
    if (dash == std::string::npos) {
      opt.first_line = opt.last_line = std::stoull(spec);
    } else {
      if (dash > 0) opt.first_line = std::stoull(spec.substr(0, dash));
      if (dash + 1 < spec.size()) opt.last_line = std::stoull(spec.substr(dash + 1));
    }
  } catch (const std::exception&) {
    throw tools::UsageError("--lines wants A-B, A-, -B or N (file line numbers), not '" + spec + "'");
  }
  if (opt.first_line > opt.last_line) throw tools::UsageError("--lines: the range is empty");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Replay Fossilize archives (.foz) on a Vulkan device, or a VMA calls recording (--simulate models "
               "the recorded heaps and memory types, no device).",
               "trak-replay"};
  std::vector<std::string> inputs;
  std::string lines;
  bool simulate = false, json = false, keep_going = false;
  tools::FozCli foz;
  app.add_option("input", inputs, "Fossilize archives (.foz), or one VMA recording (.csv, also gzip/brotli; '-' reads stdin)");
  app.add_flag("--simulate", simulate, "No device: replay against a model of the recorded heaps and types");
  app.add_flag("--json", json, "One JSON object instead of the summary");
  app.add_option("--lines", lines, "Replay only these file lines: A-B, A-, -B");
  app.add_flag("--keep-going", keep_going, "Skip malformed lines with a warning instead of stopping");
  tools::add_foz_options(app, foz);
  app.footer(std::string(R"(VMA recordings:
  trak-replay app.vma.csv --simulate            peak committed memory, blocks, fragmentation per heap
  trak-replay app.vma.csv --simulate --json | jq '.heaps'
  trak-replay app.vma.csv --simulate --lines 100-5000)") + tools::kFozHelp);

  return tools::run(app, argc, argv, [&]() -> int {
    if (foz.list_devices) {
      std::cout << libtrace::foz::format_device_list(json);
      return tools::kOk;
    }
    if (inputs.empty()) inputs.push_back("-");
    // An archive is read by offset, so only files are told apart here; a
    // pipe is a VMA recording.
    if (!libtrace::is_stdio(inputs.front())) {
      libtrace::InputFile probe(inputs.front());
      if (libtrace::foz::looks_like_foz(probe.peek(libtrace::foz::kMagicSize))) return tools::run_foz(foz, inputs, json);
    }
    if (inputs.size() > 1) throw tools::UsageError("several inputs are only for .foz archives");
    const std::string& input = inputs.front();
    tools::refuse_terminal_input(input);
    libtrace::vma::SimOptions opt;
    if (!lines.empty()) parse_lines(lines, opt);
    opt.keep_going = keep_going;
    opt.warnings = [](const std::string& where, const std::string& why) {
      std::cerr << "trak-replay: warning: " << where << ": " << why << '\n';
    };
    libtrace::InputFile in(input);
    if (libtrace::foz::looks_like_foz(in.peek(libtrace::foz::kMagicSize)))
      throw libtrace::Error(libtrace::Errc::usage, in.name(), "a .foz archive is read by offset: give a file, not a pipe");
    std::string head;
    auto decoder = libtrace::peek_stream(libtrace::open_decoder(in), 64, head);
    if (!libtrace::vma::looks_like_recording(head))
      throw libtrace::Error(libtrace::Errc::unsupported, in.name(),
                            "trak-replay replays VMA calls recordings; this is not one");
    if (!simulate)
      throw libtrace::Error(libtrace::Errc::unsupported, in.name(),
                            "replay on a Vulkan device is not implemented yet; use --simulate");
    const auto r = libtrace::vma::simulate(std::move(decoder), in.name(), opt);
    std::cout << (json ? libtrace::vma::format_sim_json(r) : libtrace::vma::format_sim_table(r));
    std::cout.flush();
    if (r.error) throw *r.error;
    return tools::kOk;
  });
}
