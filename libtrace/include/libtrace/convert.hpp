// SPDX-License-Identifier: MIT
// trak-convert's job on trace streams: text dump, JSON Lines, or a new stream.
#pragma once

#include <string>

#include "libtrace/codec.hpp"
#include "libtrace/dump.hpp"
#include "libtrace/progress.hpp"

namespace libtrace {

enum class OutputFormat { text, jsonl, trace };

struct ConvertOptions {
  std::string input = "-";
  std::string output = "-";
  OutputFormat format = OutputFormat::text;
  DumpOptions dump;                                  // text (and call selection for all)
  EncoderOptions encoder;                            // trace output
  Progress progress;
};

// Streams `input` to `output`. Output goes through a temporary file renamed
// at the end; on an error the calls converted so far are kept (flushed on
// stdout, or left in "<output>.partial") and Error is thrown naming the input
// and offset. Truncated input yields every recoverable call first, exactly as
// `apitrace dump` prints them.
void convert_trace(const ConvertOptions& opt);

}  // namespace libtrace
