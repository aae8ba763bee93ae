// SPDX-License-Identifier: MIT
// trak-repack's job on trace streams: recompress without touching a call.
#pragma once

#include <string>

#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/progress.hpp"

namespace libtrace::apitrace {

struct RepackOptions {
  std::string input = "-";
  std::string output = "-";
  EncoderOptions encoder;
  // Re-read the output and compare it call by call with the input (which
  // must then be a file, not a pipe).
  bool verify = false;
  // The stream is no trace (a VMA recording): --verify compares its
  // decompressed bytes instead of its calls.
  bool bytes_only = false;
  Progress progress;
  // Told when the input's container is cut short between two whole calls:
  // the output then holds every call, in a complete container.
  WarningSink warnings;
};

struct RepackResult {
  std::uint64_t input_bytes = 0;
  std::uint64_t stream_bytes = 0;  // decompressed
  std::uint64_t output_bytes = 0;
  std::uint64_t calls_verified = 0;
  std::uint64_t bytes_verified = 0;  // with bytes_only
};

// Decompresses `input` and compresses the same stream into `output`. Throws
// Error on bad input (the output is then not created) and on a failed verify.
// An input whose container is cut short between two whole calls is no bad
// input: its output is complete, and `warnings` is told.
RepackResult repack_trace(const RepackOptions& opt);
// The same on an input already opened, whose stream `decoder` reads (as
// sniff() gives it); opt.input still names it for --verify.
RepackResult repack_trace(const RepackOptions& opt, InputFile& in, std::unique_ptr<Decoder> decoder);

// Parses both traces and compares them call by call, and their decompressed
// sizes. Returns the number of calls; throws Error(bad_record) naming the first
// difference. `actual_name` is how errors name `actual` (default: its path).
std::uint64_t compare_traces(const std::string& expected, const std::string& actual,
                             const std::string& actual_name = {});

}  // namespace libtrace::apitrace
