// SPDX-License-Identifier: MIT
// trak-stat: quick statistics on a trace.
#include <iostream>

#include "libtrace/trace_stat.hpp"
#include "tool_main.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Statistics of an apitrace trace: sizes, calls per function and thread, frames, blobs.", "trak-stat"};
  std::string input = "-";
  bool json = false, all = false, no_progress = false;
  std::size_t top = 10;
  app.add_option("input", input, "Input trace; '-' reads stdin")->capture_default_str();
  app.add_flag("--json", json, "One JSON object instead of the table");
  app.add_option("--top", top, "Functions listed in the table")->capture_default_str();
  app.add_flag("--all", all, "List every function");
  app.add_flag("--no-progress", no_progress, "No progress bar on stderr");
  app.footer(R"(Examples:
  trak-stat gears.trace
  trak-stat gears.trace --all
  trak-stat gears.trace --json | jq '.frames'
  trak-repack x.br.trace - --codec snappy | trak-stat -)");

  return tools::run(app, argc, argv, [&] {
    tools::refuse_terminal_input(input);
    const libtrace::TraceStats s = libtrace::trace_stats(input, tools::progress_bar("trak-stat", !no_progress));
    std::cout << (json ? libtrace::format_stats_json(s) : libtrace::format_stats_table(s, all ? 0 : top));
    std::cout.flush();
    if (s.error) throw *s.error;
    return tools::kOk;
  });
}
