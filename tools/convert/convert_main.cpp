// SPDX-License-Identifier: MIT
// trak-convert: a trace as text (like `apitrace dump`), JSON Lines, or a new
// trace stream; a VMA recording as CSV of another version, JSON Lines, or a
// trace stream.
#include <iostream>

#include "libtrace/convert.hpp"
#include "tool_main.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Convert an apitrace trace to text (byte-identical to `apitrace dump`), JSON Lines or a new trace;\n"
               "or a VMA calls recording to another format version, JSON Lines or a trace.",
               "trak-convert"};
  libtrace::ConvertOptions opt;
  std::string to = "text", color = "auto", codec = "snappy";
  std::vector<std::string> calls;
  bool no_progress = false;
  app.add_option("input", opt.input, "Input trace; '-' reads stdin")->capture_default_str();
  auto* out_opt = app.add_option("-o,--output", opt.output, "Output file; '-' writes stdout")->capture_default_str();
  app.add_option("--to", to, "Output format (csv: VMA recordings only)")
      ->check(CLI::IsMember({"text", "jsonl", "trace", "csv"}))
      ->capture_default_str();
  std::string rec_version;
  auto* version_opt =
      app.add_option("--version", rec_version, "With a VMA recording and --to csv: format version to write (1.0 to 1.8); alone: print trak's version")
          ->expected(0, 1);
  app.add_flag("--keep-going", opt.keep_going, "Recordings: skip malformed lines with a warning instead of stopping");
  app.add_option("--calls", calls, "Only these calls: 4 | 0-100/2 | 0-1000/draw | */frame | @FILE (repeatable)")
      ->allow_extra_args(false);
  app.add_flag("-v,--verbose", opt.dump.verbose, "Also show verbose calls (glGetString, glGetError() = 0, ...)");
  app.add_flag("--thread-ids,!--no-thread-ids", opt.dump.thread_ids, "Show thread ids as @N (default no)");
  app.add_flag("--call-nos,!--no-call-nos", opt.dump.call_nos, "Show call numbers (default yes)");
  app.add_flag("--arg-names,!--no-arg-names", opt.dump.arg_names, "Show argument names (default yes)");
  app.add_flag("--multiline,!--no-multiline", opt.dump.multiline,
               "Keep newlines in strings and a blank line after each frame (default yes)");
  app.add_option("--color,--colour", color, "Colour the text: auto (when stdout is a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("--codec", codec, "Container for --to trace")->check(CLI::IsMember({"snappy", "gzip", "brotli"}))->capture_default_str();
  app.add_option("--level", opt.encoder.level, "Compression level for --to trace (gzip 1-9, brotli 0-11)");
  app.add_flag("--no-progress", no_progress, "No progress bar on stderr");
  app.footer(R"(Examples:
  trak-convert gears.trace                       text dump, same bytes as `apitrace dump`
  trak-convert gears.trace --calls 0-100 --thread-ids
  cat gears.trace | trak-convert - -o gears.txt  read a pipe
  trak-convert gears.trace --to jsonl | jq -c 'select(.name == "glDrawArrays") | .args'
  trak-convert gears.trace --calls 0-1000 --to trace -o first1000.trace
  trak-convert app.vma.csv --to csv --version 1.5 -o app-1.5.csv   VMA recording, older format
  trak-convert app.vma.csv --to jsonl | jq -c 'select(.function == "vmaCreateBuffer")'
  trak-convert app.vma.csv --to trace -o app.trace && apitrace dump app.trace)");

  return tools::run(app, argc, argv, [&] {
    if (version_opt->count() && rec_version.empty()) {
      std::cout << tools::kVersion << '\n';
      return tools::kOk;
    }
    tools::refuse_terminal_input(opt.input);
    opt.recording_version = rec_version;
    opt.warnings = [](const std::string& where, const std::string& why) {
      tools::clear_progress_line();
      std::cerr << "trak-convert: warning: " << where << ": " << why << '\n';
    };
    opt.format = to == "jsonl"   ? libtrace::OutputFormat::jsonl
                 : to == "trace" ? libtrace::OutputFormat::trace
                 : to == "csv"   ? libtrace::OutputFormat::csv
                                 : libtrace::OutputFormat::text;
    if (!rec_version.empty() && opt.format != libtrace::OutputFormat::csv)
      throw tools::UsageError("--version VERSION applies to --to csv");
    opt.dump.color = color == "always" || (color == "auto" && libtrace::is_stdio(opt.output) && libtrace::stdout_is_terminal());
    if (opt.format != libtrace::OutputFormat::text) opt.dump.color = false;
    if (opt.format == libtrace::OutputFormat::csv) opt.dump.color = false;
    for (const auto& c : calls) opt.dump.calls.add(c);
    opt.encoder.container = *libtrace::parse_container(codec);
    if (opt.format == libtrace::OutputFormat::trace) {
      libtrace::check_level(opt.encoder.container, opt.encoder.level);
      tools::refuse_binary_terminal(opt.output, out_opt->count() > 0);
    } else if (opt.encoder.level >= 0 || app.count("--codec")) {
      throw tools::UsageError("--codec and --level apply only to --to trace");
    }
    opt.progress = tools::progress_bar("trak-convert", !no_progress);
    libtrace::convert_trace(opt);
    return tools::kOk;
  });
}
