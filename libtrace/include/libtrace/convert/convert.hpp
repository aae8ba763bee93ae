// SPDX-License-Identifier: MIT
// trak-convert's job on trace streams: text dump, JSON Lines, or a new stream.
#pragma once

#include <string>
#include <vector>

#include "libtrace/apitrace/dump.hpp"
#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/core/progress.hpp"
#include "libtrace/core/sniff.hpp"

namespace libtrace::convert {

// csv applies to VMA recordings only (another format version of the CSV).
enum class OutputFormat { text, jsonl, trace, csv };

struct ConvertOptions {
  std::string input = "-";
  std::string output = "-";
  OutputFormat format = OutputFormat::text;
  apitrace::DumpOptions dump;      // text
  apitrace::CallSelection select;  // for every output (a recording's: calls only)
  EncoderOptions encoder;          // trace output
  std::string recording_version;   // csv output: "1.5"; empty keeps the input's
  bool keep_going = false;         // recordings: malformed lines become warnings
  WarningSink warnings;
  Progress progress;
};

// Streams `input` (a trace, or a VMA recording: told apart by content) to
// `output`. A recording converts to CSV of another version, JSON Lines, or a
// trace stream (text means CSV). Output goes through a temporary file renamed
// at the end; on an error the calls converted so far are kept (flushed on
// stdout, or left in "<output>.partial") and Error is thrown naming the input
// and offset. Truncated input yields every recoverable call first, exactly as
// `apitrace dump` prints them.
void convert_trace(const ConvertOptions& opt);
// The same on an input already sniffed (a trace or a recording).
void convert_trace(const ConvertOptions& opt, InputFile& in, Sniffed sniffed);

// Several inputs (traces or recordings, each told apart by content) into one
// text or JSON Lines output, one after the other, as `apitrace dump` prints
// several traces; opt.input is not read. Throws Error(usage) for other outputs.
void convert_traces(const ConvertOptions& opt, const std::vector<std::string>& inputs);

}  // namespace libtrace::convert
