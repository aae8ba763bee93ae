// SPDX-License-Identifier: MIT
// trak-stat's first pass over a chunk of lines (internal to libtrace): parses
// the calls and counts what does not depend on the lines before the chunk.
// What does (live allocations, pools) becomes events, which vma/stat.cpp
// applies in file order. Chunks are counted on two threads at once.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libtrace/vma/recording.hpp"
#include "libtrace/vma/stat.hpp"
#include "vma/line.hpp"
#include "vma/source.hpp"

namespace libtrace::vma::detail {

enum class EventKind : std::uint8_t { create, destroy, user_data, pool_create, pool_destroy, pool_name };

// What most events need, in 40 bytes (the counting threads write one for most
// lines and the merge reads it on another core); the rest is in an EventAux.
struct Event {
  std::uint64_t ptr;    // the allocation or the pool
  std::uint64_t bytes;  // create: its bytes; pool_create: block size
  double time;
  std::uint32_t line;  // in the chunk, from 1 (a chunk has far fewer lines)
  std::uint32_t aux;   // ChunkStats::aux[aux]; 0 is the empty entry
  std::int16_t type;   // create: the memory type without a pool, -1 unknown
  EventKind kind;
  Function function;  // create: the creating function
};

// A chunk's events, reserved for the most a chunk can hold and kept from
// chunk to chunk. On 4 KiB pages only the pages used are ever touched; on
// huge pages (tried) the kernel zeroed a whole 2 MiB for each of the
// pipeline's chunks in flight, 14 % of trak-stat's CPU on a 200k-call
// recording.
using Events = std::vector<Event>;

struct EventAux {
  std::uint64_t pool = 0;                        // create: its pool (0: none); pool_create: memory type
  std::uint64_t min_blocks = 0, max_blocks = 0;  // pool_create
  std::uint32_t text_at = 0, text_size = 0;      // create (user data), user_data,
                                                 // pool_name: ChunkStats::texts[at, at + size)
};

struct LineNote {
  std::uint64_t line = 0;  // in the chunk, from 1
  std::string why;
};

struct ChunkStats {
  std::uint64_t lines = 0;  // up to the error, if any, included
  std::uint64_t calls = 0;
  std::array<std::uint64_t, kFunctionCount> calls_per_function{};
  std::vector<std::pair<std::uint32_t, std::uint64_t>> threads;  // calls per thread
  std::vector<std::uint32_t> frames;                             // the frame index wherever it changes
  double first_time = 0, last_time = 0;                          // of the first and last calls
  double max_time = 0;                                           // max(0, every time), as Stats::last_time
  std::uint64_t time_steps_back = 0;                             // within the chunk
  std::uint64_t failed_creations = 0, allocations_created = 0, image_bytes_estimated = 0;
  decltype(Stats::size_histogram) size_histogram{};
  Events events;
  std::vector<EventAux> aux = std::vector<EventAux>(1);  // [0] is empty: the merge reads aux[e.aux] without a branch
  std::string texts;
  std::vector<LineNote> notes;    // lines skipped with --keep-going
  std::optional<LineNote> error;  // the counts cover the lines before it
  LineCall line;                  // scratch, kept for its capacity
  Call call;                      //   (the reference parser's)
};

// resolve_memory_type() scans every memory type for each creation, while a
// recording repeats a few argument combinations: remember the last results.
class TypeCache {
 public:
  int get(const Config& config, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
          std::uint64_t type_bits, std::uint32_t req_bits);

 private:
  struct Entry {
    std::uint64_t usage, required, preferred, type_bits;
    std::uint32_t req_bits;
    int type;
    bool valid;
  };
  std::array<Entry, 64> entries_{};
};

// Counts the lines of `chunk` into `out` (cleared first).
void count_chunk(const Chunk& chunk, const Header& header, bool keep_going, TypeCache& types, ChunkStats& out);

}  // namespace libtrace::vma::detail
