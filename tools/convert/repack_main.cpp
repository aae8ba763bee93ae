// SPDX-License-Identifier: MIT
// trak-repack: recompress a trace between snappy, gzip and brotli, or the
// payloads of a Fossilize .foz archive (told apart by content).
#include <cstdio>

#include "libtrace/apitrace/repack.hpp"
#include "libtrace/foz/repack.hpp"
#include "tool_main.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "Recompress an apitrace trace (snappy, gzip, brotli) without changing a call, or the payloads of a\n"
      "Fossilize .foz archive (none, zlib) without changing an entry.",
      "trak-repack"};
  libtrace::apitrace::RepackOptions opt;
  libtrace::foz::FozRepackOptions fopt;
  std::string codec = "snappy", crc = "add";
  bool quiet = false, no_progress = false;
  app.add_option("input", opt.input, "Input trace or archive; '-' reads stdin")->required();
  app.add_option("output", opt.output, "Output; '-' writes stdout")->required();
  auto* codec_opt = app.add_option("--codec", codec,
                                   "Traces: snappy, gzip, brotli, zstd (seekable). VMA recordings: gzip (default), "
                                   "brotli, zstd, none. Archives: zlib (default), none")
                        ->check(CLI::IsMember({"snappy", "gzip", "brotli", "zstd", "zlib", "none"}))
                        ->capture_default_str();
  app.add_option("--level", opt.encoder.level,
                 "gzip 1-9 (default 9), brotli 0-11 (default 11), zstd 1-19 (default 3), .foz zlib 1-9 "
                 "(default 9); snappy has none");
  app.add_option("--threads", opt.encoder.threads)->group("");  // the first spelling
  app.add_option("-j,--jobs", opt.encoder.threads,
                 "Compression threads for snappy, gzip, zstd and .foz (default: all cores)");
  app.add_option("--crc", crc,
                 "Archives: CRC-32 on every entry (add), on none (strip), or where the input had one (keep)")
      ->check(CLI::IsMember({"add", "strip", "keep"}))
      ->capture_default_str();
  app.add_flag("--verify", opt.verify, "Re-read the output and compare it with the input (calls, or decoded payloads)");
  app.add_flag("-q,--quiet", quiet, "No summary on stderr");
  app.add_flag("--no-progress", no_progress, "No progress bar on stderr");
  app.footer(R"(Examples:
  trak-repack gears.trace gears.gz.trace --codec gzip --verify
  trak-repack big.trace big.br.trace --codec brotli --level 5   much faster than 11, nearly as small
  trak-repack big.trace big.zst.trace --codec zstd        seekable zstd frames, as apitrace's newest writes
  trak-repack gears.br.trace - --codec snappy | trak-stat -
  trak-repack cache.foz small.foz --verify                 zlib level 9 with CRCs, like fossilize-convert-db
  trak-repack cache.foz fast.foz --codec none --crc strip   uncompressed, as fossilize-synth writes
  trak-repack torn.foz fixed.foz                            drops the torn last entry
  trak-repack app.vma.csv app.vma.csv.gz --verify           a VMA recording, gzip'd (brotli, none too))");

  return tools::run(app, argc, argv, [&] {
    tools::refuse_terminal_input(opt.input);
    libtrace::InputFile in(opt.input);
    libtrace::Sniffed sniffed = libtrace::sniff(in);
    if (sniffed.format == libtrace::Format::foz_json || sniffed.format == libtrace::Format::gfxr_capture)
      throw tools::not_read_here(in, sniffed.format, "trak-repack", "apitrace traces and Fossilize archives");
    const bool foz = sniffed.format == libtrace::Format::foz_archive;
    tools::refuse_binary_terminal(opt.output, false, "redirect it to a file or a pipe, or name an output file");
    if (foz) {
      namespace f = libtrace::foz;
      if (codec_opt->count() == 0) codec = "zlib";
      if (codec != "zlib" && codec != "none")
        throw tools::UsageError("a .foz archive's payloads are zlib or none, not " + codec);
      fopt.output = opt.output;
      fopt.encode.format = codec == "zlib" ? f::PayloadFormat::zlib : f::PayloadFormat::none;
      fopt.encode.level = opt.encoder.level < 0 ? 9 : opt.encoder.level;
      if (codec == "zlib" && (fopt.encode.level < 1 || fopt.encode.level > 9))
        throw tools::UsageError("zlib level " + std::to_string(fopt.encode.level) + " is outside 1-9");
      fopt.crc = crc == "add" ? f::CrcPolicy::add : crc == "strip" ? f::CrcPolicy::strip : f::CrcPolicy::keep;
      fopt.threads = opt.encoder.threads;
      fopt.verify = opt.verify;
      fopt.progress = tools::progress_bar("trak-repack", !no_progress);
      fopt.warnings = tools::warning_sink("trak-repack");
      const f::FozRepackResult r = f::repack_foz(in, fopt);
      if (!quiet) {
        std::fprintf(stderr, "trak-repack: %s: %llu entries, %llu -> %llu bytes", opt.output.c_str(),
                     static_cast<unsigned long long>(r.entries), static_cast<unsigned long long>(r.input_bytes),
                     static_cast<unsigned long long>(r.output_bytes));
        if (r.duplicates_dropped)
          std::fprintf(stderr, ", %llu duplicates dropped", static_cast<unsigned long long>(r.duplicates_dropped));
        if (r.unknown_tags_dropped)
          std::fprintf(stderr, ", %llu entries with unknown tags dropped",
                       static_cast<unsigned long long>(r.unknown_tags_dropped));
        if (r.torn_tail_dropped) std::fprintf(stderr, ", torn tail dropped");
        if (opt.verify) std::fprintf(stderr, ", %llu verified", static_cast<unsigned long long>(r.verified));
        std::fputc('\n', stderr);
      }
      return tools::kOk;
    }
    if (crc != "add") throw tools::UsageError("--crc applies to .foz archives");
    if (sniffed.format == libtrace::Format::vma_recording) {
      // VMA and trak read recordings plain, gzip'd or brotli'd; snappy is
      // apitrace's container alone.
      if (codec_opt->count() == 0) codec = "gzip";
      if (codec == "snappy")
        throw tools::UsageError("a VMA recording is compressed with gzip or brotli, or plain (none)");
      opt.bytes_only = true;
    } else if (codec == "none") {
      throw tools::UsageError("--codec none applies to .foz archives and VMA recordings");
    }
    opt.encoder.container = *libtrace::parse_container(codec);
    libtrace::check_level(opt.encoder.container, opt.encoder.level);
    opt.progress = tools::progress_bar("trak-repack", !no_progress);
    opt.warnings = tools::warning_sink("trak-repack");
    const libtrace::apitrace::RepackResult r = libtrace::apitrace::repack_trace(opt, in, std::move(sniffed.stream));
    if (!quiet && opt.verify && opt.bytes_only)
      std::fprintf(stderr, "trak-repack: %s: %llu bytes verified\n", opt.output.c_str(),
                   static_cast<unsigned long long>(r.bytes_verified));
    else if (!quiet && opt.verify)
      std::fprintf(stderr, "trak-repack: %s: %llu calls verified\n", opt.output.c_str(),
                   static_cast<unsigned long long>(r.calls_verified));
    return tools::kOk;
  });
}
