// SPDX-License-Identifier: MIT
// trak-convert: a trace as text (like `apitrace dump`), JSON Lines, or a new
// trace stream; a VMA recording as CSV of another version, JSON Lines, or a
// trace stream; a Fossilize .foz archive as JSON and back.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "libtrace/convert/convert.hpp"
#include "libtrace/foz/convert.hpp"
#include "tool_main.hpp"

namespace {

namespace foz = libtrace::foz;

struct FozFlags {
  std::string to;
  bool to_given = false;
  bool check_hashes = false;
  std::string codec;
  int level = -1;
  bool no_progress = false;
};

// .foz -> JSON (one document or a directory of entry files).
tools::Exit archive_to_json(const std::string& input, const std::string& output, const FozFlags& f,
                            libtrace::InputFile& in) {
  const std::string to = f.to_given ? f.to : "json";
  if (to != "json" && to != "json-dir")
    throw tools::UsageError("a .foz archive converts --to json or --to json-dir, not --to " + to);
  if (!f.codec.empty() || f.level >= 0) throw tools::UsageError("--codec and --level apply to --to foz and --to trace");
  foz::FozToJsonOptions o;
  o.input = input;
  o.output = output;
  o.layout = to == "json" ? foz::JsonLayout::document : foz::JsonLayout::directory;
  if (o.layout == foz::JsonLayout::directory && libtrace::is_stdio(output))
    throw tools::UsageError("--to json-dir needs -o DIRECTORY");
  o.check_hashes = f.check_hashes;
  o.warnings = tools::warning_sink("trak-convert");
  o.progress = tools::progress_bar("trak-convert", !f.no_progress);
  foz::foz_to_json(o, in);
  return tools::kOk;
}

// JSON (a document, or a directory of entry files) -> .foz.
tools::Exit json_to_archive(const std::string& input, const std::string& output, bool explicit_output,
                            const FozFlags& f, libtrace::InputFile* in) {
  if (f.to_given && f.to != "foz") throw tools::UsageError("JSON converts --to foz, not --to " + f.to);
  foz::JsonToFozOptions o;
  o.input = input;
  o.output = output;
  const std::string codec = f.codec.empty() ? "zlib" : f.codec;
  if (codec != "zlib" && codec != "none")
    throw tools::UsageError("a .foz archive's payloads are zlib or none, not " + codec);
  o.encode.format = codec == "zlib" ? foz::PayloadFormat::zlib : foz::PayloadFormat::none;
  if (f.level >= 0) {
    if (codec != "zlib" || f.level < 1 || f.level > 9)
      throw tools::UsageError("--level for a .foz archive is zlib 1-9");
    o.encode.level = f.level;
  }
  o.check_hashes = f.check_hashes;
  o.warnings = tools::warning_sink("trak-convert");
  o.progress = tools::progress_bar("trak-convert", !f.no_progress);
  tools::refuse_binary_terminal(output, explicit_output);
  foz::json_to_foz(o, in);
  return tools::kOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Convert an apitrace trace to text (byte-identical to `apitrace dump`), JSON Lines or a new trace;\n"
      "a VMA calls recording to another format version, JSON Lines or a trace; or a Fossilize .foz\n"
      "archive to JSON (one document, or a directory of entry files like fossilize-convert-db) and back.",
      "trak-convert"};
  libtrace::convert::ConvertOptions opt;
  std::string to = "text", color = "auto", codec = "snappy", grep;
  std::vector<std::string> calls, frames;
  bool no_progress = false, blobs = false;
  std::vector<std::string> inputs{"-"};
  app.add_option("input", inputs,
                 "Trace, VMA recording or .foz archive; '-' reads stdin. Several traces or recordings dump one after "
                 "the other (text, jsonl)")
      ->capture_default_str();
  auto* out_opt = app.add_option("-o,--output", opt.output, "Output file; '-' writes stdout")
                      ->capture_default_str()
                      ->type_name("FILE");
  auto* to_opt =
      app.add_option("--to", to, "Output format (csv: VMA recordings; json, json-dir: .foz archives; foz: JSON input)")
          ->check(CLI::IsMember({"text", "jsonl", "trace", "csv", "json", "json-dir", "foz"}))
          ->capture_default_str();
  FozFlags foz_flags;
  app.add_flag("--check-hashes", foz_flags.check_hashes,
               ".foz and JSON input: recompute every entry's hash with Fossilize's recipe and fail on a mismatch");
  std::string rec_version;
  app.add_option("--format-version", rec_version,
                 "With a VMA recording and --to csv: the format version to write (1.0 to 1.8)")
      ->type_name("VERSION");
  // --version VERSION was the first spelling of --format-version; --version
  // alone prints trak's version, as in every tool.
  auto* version_opt =
      app.add_option("--version", rec_version, "Print trak's version and exit")->expected(0, 1)->type_name("");
  app.add_flag("--keep-going", opt.keep_going, "Recordings: skip malformed lines with a warning instead of stopping");
  app.add_option(
         "--calls", calls,
         "Only these calls: 4 | 0-100/2 | 0-1000/draw | */frame | @FILE (repeatable; a recording's calls count from 0)")
      ->allow_extra_args(false)
      ->type_name("SET");
  app.add_option("--frames", frames,
                 "Traces: only the calls of these frames, counted from 0: 5 | 0-5/draw | 5/frame | @FILE "
                 "(repeatable; with --calls, calls in either, as apitrace trim)")
      ->allow_extra_args(false)
      ->type_name("SET");
  app.add_option("--thread", opt.select.threads,
                 "Traces: only the calls of this thread (repeatable; decimal, as apitrace trim; --thread-ids shows "
                 "it in hex)")
      ->allow_extra_args(false)
      ->type_name("ID");
  app.add_flag("--blobs", blobs,
               "Text: each blob's bytes into blob_call<NO>[_<k>].bin in the current folder, printed as "
               "blob(\"NAME\") (as apitrace dump --blobs)");
  app.add_flag("-v,--verbose", opt.dump.verbose, "Also show verbose calls (glGetString, glGetError() = 0, ...)");
  app.add_flag("--thread-ids,!--no-thread-ids", opt.dump.thread_ids, "Show thread ids as @N (default no)");
  app.add_flag("--call-nos,!--no-call-nos", opt.dump.call_nos, "Show call numbers (default yes)");
  app.add_flag("--arg-names,!--no-arg-names", opt.dump.arg_names, "Show argument names (default yes)");
  app.add_flag("--multiline,!--no-multiline", opt.dump.multiline,
               "Keep newlines in strings and a blank line after each frame (default yes)");
  // As apitrace's getopt reads it: --color alone is always, a value only
  // after '=' (--color never would name a file).
  app.add_flag("--color{always},--colour{always}", color,
               "Colour the text: --color[=WHEN], WHEN auto (default: when stdout is a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  auto* grep_opt = app.add_option("--grep", grep,
                                  "Traces: only calls whose function name REGEX matches in (ECMAScript, as "
                                  "apitrace dump --grep), for every output")
                       ->type_name("REGEX");
  auto* codec_opt =
      app.add_option("--codec", codec,
                     "Container for --to trace (snappy, gzip, brotli, zstd); payloads for --to foz (zlib, none)")
          ->check(CLI::IsMember({"snappy", "gzip", "brotli", "zstd", "zlib", "none"}))
          ->capture_default_str();
  app.add_option("--level", opt.encoder.level,
                 "Compression level for --to trace (gzip 1-9, brotli 0-11, zstd 1-19) and --to foz (zlib 1-9, "
                 "default 9)");
  app.add_flag("--no-progress", no_progress, "No progress bar on stderr");
  app.footer(R"(Examples:
  trak-convert gears.trace                       text dump, same bytes as `apitrace dump`
  trak-convert gears.trace --calls 0-100 --thread-ids
  trak-convert gears.trace --grep '^glVertex' --color | less -R    calls whose name matches, coloured
  cat gears.trace | trak-convert - -o gears.txt  read a pipe
  trak-convert gears.trace --to jsonl | jq -c 'select(.name == "glDrawArrays") | .args'
  trak-convert gears.trace --calls 0-1000 --to trace -o first1000.trace
  trak-convert game.trace --frames 100-102 --to trace -o three.trace   frames 100 to 102, as apitrace trim
  trak-convert game.trace --frames 0-5/draw --thread 1   the draw calls of frames 0-5 made on thread 1
  trak-convert a.trace b.trace | less            several traces, one after the other
  trak-convert gears.trace --blobs --calls 38   blob data into blob_call38.bin
  trak-convert app.vma.csv --to csv --format-version 1.5 -o app-1.5.csv   VMA recording, older format
  trak-convert app.vma.csv --to jsonl | jq -c 'select(.function == "vmaCreateBuffer")'
  trak-convert app.vma.csv --to trace -o app.trace && apitrace dump app.trace
  trak-convert cache.foz | jq '.graphicsPipelines | length'   one JSON document
  trak-convert cache.foz --to json-dir -o cache.d         TT.HASH.json files, as fossilize-convert-db writes
  trak-convert cache.d --to foz -o cache2.foz --check-hashes   and back, every hash recomputed)");

  return tools::run(app, argc, argv, [&] {
    if (version_opt->count() && rec_version.empty()) {
      std::cout << tools::kVersion << '\n';
      return tools::kOk;
    }
    opt.input = inputs.front();
    for (const auto& i : inputs) {
      tools::refuse_terminal_input(i);
      tools::refuse_output_is_input(i, opt.output);
    }
    if (std::count(inputs.begin(), inputs.end(), "-") > 1) throw tools::UsageError("stdin ('-') is one input at most");
    foz_flags.to = to;
    foz_flags.to_given = to_opt->count() > 0;
    foz_flags.codec = codec_opt->count() ? codec : "";
    foz_flags.level = opt.encoder.level;
    foz_flags.no_progress = no_progress;
    // Archives hold no calls: --calls there would be silently ignored.
    auto no_calls = [&] {
      if (!calls.empty()) throw tools::UsageError("--calls applies to traces and VMA recordings");
      if (grep_opt->count() || !frames.empty() || !opt.select.threads.empty() || blobs)
        throw tools::UsageError("--grep, --frames, --thread and --blobs apply to traces");
    };
    // Options of a trace's or a recording's conversion, checked once the
    // input is known to be one.
    auto trace_options = [&] {
      if (to == "json" || to == "json-dir") throw tools::UsageError("--to " + to + " applies to .foz archives");
      if (to == "foz") throw tools::UsageError("--to foz applies to JSON (a document or a directory of entry files)");
      if (foz_flags.check_hashes) throw tools::UsageError("--check-hashes applies to .foz archives and their JSON");
      if (codec == "zlib" || codec == "none") throw tools::UsageError("--codec " + codec + " applies to --to foz");
      opt.recording_version = rec_version;
      opt.warnings = tools::warning_sink("trak-convert");
      opt.format = to == "jsonl"   ? libtrace::convert::OutputFormat::jsonl
                   : to == "trace" ? libtrace::convert::OutputFormat::trace
                   : to == "csv"   ? libtrace::convert::OutputFormat::csv
                                   : libtrace::convert::OutputFormat::text;
      if (!rec_version.empty() && opt.format != libtrace::convert::OutputFormat::csv)
        throw tools::UsageError("--format-version applies to --to csv");
      opt.dump.color =
          color == "always" || (color == "auto" && libtrace::is_stdio(opt.output) && libtrace::stdout_is_terminal());
      if (opt.format != libtrace::convert::OutputFormat::text) opt.dump.color = false;
      if (opt.format == libtrace::convert::OutputFormat::csv) opt.dump.color = false;
      for (const auto& c : calls) opt.select.calls.add(c);
      opt.select.calls_given = !calls.empty();
      for (const auto& f : frames) opt.select.frames.add(f);
      opt.select.frames_given = !frames.empty();
      if (blobs) {
        if (opt.format != libtrace::convert::OutputFormat::text)
          throw tools::UsageError("--blobs applies to text output");
        opt.dump.blob_dir = ".";
      }
      if (grep_opt->count()) {
        try {
          opt.dump.grep = std::make_shared<const std::regex>(grep);
        } catch (const std::regex_error& e) {
          throw tools::UsageError("--grep: not a regular expression: " + grep + " (" + e.what() + ")");
        }
      }
      opt.encoder.container = *libtrace::parse_container(codec);
      if (opt.format == libtrace::convert::OutputFormat::trace) {
        libtrace::check_level(opt.encoder.container, opt.encoder.level);
        tools::refuse_binary_terminal(opt.output, out_opt->count() > 0);
      } else if (opt.encoder.level >= 0 || app.count("--codec")) {
        throw tools::UsageError("--codec and --level apply only to --to trace");
      }
      opt.progress = tools::progress_bar("trak-convert", !no_progress);
    };
    if (inputs.size() > 1) {
      trace_options();
      if (opt.format != libtrace::convert::OutputFormat::text && opt.format != libtrace::convert::OutputFormat::jsonl)
        throw tools::UsageError("several inputs dump one after the other --to text or jsonl; --to " + to +
                                " takes one input");
      libtrace::convert::convert_traces(opt, inputs);
      return tools::kOk;
    }
    if (!libtrace::is_stdio(opt.input) && std::filesystem::is_directory(opt.input)) {
      no_calls();
      return json_to_archive(opt.input, opt.output, out_opt->count() > 0, foz_flags, nullptr);
    }
    libtrace::InputFile in(opt.input);
    libtrace::Sniffed sniffed = libtrace::sniff(in);
    if (sniffed.format == libtrace::Format::gfxr_capture)
      throw tools::not_read_here(in, sniffed.format, "trak-convert",
                                 "apitrace traces, VMA calls recordings, Fossilize archives and their JSON");
    const bool foz = sniffed.format == libtrace::Format::foz_archive,
               foz_json = sniffed.format == libtrace::Format::foz_json;
    if (foz || foz_json) no_calls();
    if (sniffed.format == libtrace::Format::vma_recording && grep_opt->count())
      throw tools::UsageError("--grep applies to traces");
    if (foz) return archive_to_json(opt.input, opt.output, foz_flags, in);
    if (foz_json) return json_to_archive(opt.input, opt.output, out_opt->count() > 0, foz_flags, &in);
    trace_options();
    libtrace::convert::convert_trace(opt, in, std::move(sniffed));
    return tools::kOk;
  });
}
