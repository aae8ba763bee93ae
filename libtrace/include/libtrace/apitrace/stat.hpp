// SPDX-License-Identifier: MIT
// trak-stat's figures for trace streams, and their table and JSON renderings.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libtrace/apitrace/model.hpp"
#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/progress.hpp"

namespace libtrace::apitrace {

struct TraceStats {
  std::string file;
  std::uint64_t file_bytes = 0;
  std::uint64_t stream_bytes = 0;  // decompressed
  Container container = Container::snappy;
  TraceHeader header;
  std::string api;  // as `apitrace info` names it
  std::uint64_t calls = 0;
  std::uint64_t incomplete_calls = 0;
  std::uint64_t fake_calls = 0;
  std::uint64_t verbose_calls = 0;
  std::vector<std::pair<std::string, std::uint64_t>> calls_per_function;  // most calls first
  std::map<std::uint32_t, std::uint64_t> calls_per_thread;
  std::uint64_t frames = 0;  // frame-ending calls
  std::uint64_t calls_after_last_frame = 0;
  std::uint64_t frame_calls_min = 0, frame_calls_median = 0, frame_calls_max = 0;
  std::uint64_t blobs = 0, blob_bytes = 0;
  // Set when the trace is truncated or corrupt past its header: the figures
  // then cover every call read before the problem.
  std::optional<Error> error;
  // Set when the container is cut short between two whole calls (a trace
  // whose writer was not closed): every call was counted; a warning, not an
  // error (Parser::cut_short()).
  std::optional<Error> cut_short;
};

// Reads the whole trace once. Throws Error when not even the header is
// readable; later problems end the count and are returned in `error`.
TraceStats stats(const std::string& path, const Progress& progress = {});
// The same over an opened input whose decoder the caller made (for example
// after peeking at the content to pick a format).
TraceStats stats(InputFile& in, std::unique_ptr<Decoder> decoder, const Progress& progress = {});

// A human table; `top` functions (0: all).
std::string report_table(const TraceStats& s, std::size_t top);
// One JSON object (schema in README.md), newline-terminated.
std::string report_json(const TraceStats& s);

}  // namespace libtrace::apitrace
