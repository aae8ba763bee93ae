// SPDX-License-Identifier: MIT
// trak-repack: recompress a trace between snappy, gzip and brotli.
#include <cstdio>

#include "libtrace/repack.hpp"
#include "tool_main.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Recompress an apitrace trace (snappy, gzip, brotli) without changing a call.", "trak-repack"};
  libtrace::RepackOptions opt;
  std::string codec = "snappy";
  bool quiet = false, no_progress = false;
  app.add_option("input", opt.input, "Input trace; '-' reads stdin")->required();
  app.add_option("output", opt.output, "Output trace; '-' writes stdout")->required();
  app.add_option("--codec", codec, "Output container")->check(CLI::IsMember({"snappy", "gzip", "brotli"}))->capture_default_str();
  app.add_option("--level", opt.encoder.level, "gzip 1-9 (default 9), brotli 0-11 (default 11); snappy has none");
  app.add_option("-j,--threads", opt.encoder.threads, "Compression threads for snappy and gzip (default: all cores)");
  app.add_flag("--verify", opt.verify, "Re-read the output and compare it call by call with the input");
  app.add_flag("-q,--quiet", quiet, "No summary on stderr");
  app.add_flag("--no-progress", no_progress, "No progress bar on stderr");
  app.footer(R"(Examples:
  trak-repack gears.trace gears.gz.trace --codec gzip --verify
  trak-repack big.trace big.br.trace --codec brotli --level 5   much faster than 11, nearly as small
  trak-repack gears.br.trace - --codec snappy | trak-stat -)");

  return tools::run(app, argc, argv, [&] {
    tools::refuse_terminal_input(opt.input);
    opt.encoder.container = *libtrace::parse_container(codec);
    libtrace::check_level(opt.encoder.container, opt.encoder.level);
    tools::refuse_binary_terminal(opt.output, false);
    opt.progress = tools::progress_bar("trak-repack", !no_progress);
    const libtrace::RepackResult r = libtrace::repack_trace(opt);
    if (!quiet && opt.verify)
      std::fprintf(stderr, "trak-repack: %s: %llu calls verified\n", opt.output.c_str(),
                   static_cast<unsigned long long>(r.calls_verified));
    return tools::kOk;
  });
}
