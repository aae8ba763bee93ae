// SPDX-License-Identifier: MIT
// trak-stat's figures for VMA recordings: calls, threads, frames, live
// allocations and bytes over time, histograms, leaks, pools.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libtrace/core/progress.hpp"
#include "libtrace/vma/recording.hpp"

namespace libtrace::vma {

struct Leak {
  std::uint64_t pointer = 0;
  std::uint64_t line = 0;  // where it was created
  Function function{};
  std::uint64_t bytes = 0;  // as estimated for the live-bytes figures
  std::string user_data;
};

struct Pool {
  std::uint64_t pointer = 0;
  std::uint64_t line = 0;
  std::uint32_t memory_type = 0;
  std::uint64_t block_size = 0, min_blocks = 0, max_blocks = 0;
  std::string name;
  bool destroyed = false;
  std::uint64_t allocations = 0;  // created in this pool
};

struct Stats {
  std::string file;
  Container container = Container::plain;
  Header header;
  std::uint64_t calls = 0;
  std::array<std::uint64_t, kFunctionCount> calls_per_function{};
  std::map<std::uint32_t, std::uint64_t> calls_per_thread;
  std::uint64_t frames = 0;  // distinct frame indices
  double first_time = 0, last_time = 0;
  std::uint64_t time_steps_back = 0;  // consecutive lines whose time went backwards

  // Every successful creation of an allocation counts (buffers, images,
  // memory, each page, lost allocations); one stays live until destroyed or
  // freed, lost or not.
  std::uint64_t allocations_created = 0, failed_creations = 0;
  std::uint64_t peak_live_allocations = 0, peak_live_allocations_line = 0;
  std::uint64_t live_at_end = 0;
  // Bytes: buffer sizes and memory requirements as recorded; image sizes are
  // estimated from extent, format, mips, layers and samples.
  std::uint64_t peak_live_bytes = 0, live_bytes_at_end = 0;
  std::uint64_t image_bytes_estimated = 0;         // creations whose size is an estimate
  std::vector<std::uint64_t> peak_bytes_per_heap;  // by resolved memory type's heap
  std::vector<std::uint64_t> peak_bytes_per_type;
  std::uint64_t unresolved_type_allocations = 0;  // memory type not determined

  std::array<std::uint64_t, 48> size_histogram{};     // [k]: sizes in [2^k, 2^(k+1)), [0] also 0..1
  std::array<std::uint64_t, 8> lifetime_histogram{};  // <1ms <10ms <100ms <1s <10s <100s >=100s, never freed
  // Live bytes per heap over time, at most kTimelinePoints samples: when it
  // fills up, neighbouring samples merge keeping their maxima, so peaks stay.
  static constexpr std::size_t kTimelinePoints = 4096;
  std::vector<double> timeline_time;
  std::vector<std::vector<std::uint64_t>> timeline_heap_bytes;  // [sample][heap]
  std::vector<Leak> leaks;
  std::vector<Pool> pools;
  std::uint64_t unknown_pointer_destroys = 0;  // destroy/free of a pointer not live
  std::uint64_t reused_live_pointers = 0;      // a creation returned a pointer still live
  std::uint64_t warnings = 0;                  // every warning
  std::uint64_t dropped_lines = 0;             // lines left out with a warning
  std::optional<Error> error;                  // the figures cover the lines before it
};

struct StatOptions {
  bool keep_going = false;
  // Sample live bytes per heap over time (Stats::timeline_*, which only the
  // HTML report plots): a tenth of the merge's work, so trak-stat asks for
  // it only with --html.
  bool timeline = true;
  // Threads parsing and counting (0: one per core, up to 12). From 6 on, the
  // live allocations are split between them too (not with the timeline).
  unsigned threads = 0;
  WarningSink warnings;
  Progress progress;
  std::uint64_t input_size = 0;  // the file's bytes, for progress (0: unknown, a pipe)
};

// Reads a whole recording. Throws Error when not even the header can be read;
// later problems end the count and are returned in `error`.
Stats stats(std::unique_ptr<Decoder> decoder, const std::string& name, const StatOptions& opt);

std::string report_table(const Stats& s);
std::string report_json(const Stats& s);
// A self-contained HTML report (inline SVG plot of live bytes per heap over
// time, the tables; no network).
std::string report_html(const Stats& s);

// Estimated bytes of an image (VkFormat texel sizes, all mips, layers and
// samples); 4 bytes per texel for formats it does not know.
std::uint64_t estimate_image_bytes(std::uint32_t format, std::uint32_t width, std::uint32_t height, std::uint32_t depth,
                                   std::uint32_t mips, std::uint32_t layers, std::uint32_t samples);

}  // namespace libtrace::vma
