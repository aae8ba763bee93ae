// SPDX-License-Identifier: MIT
// The lines of a VMA recording, parsed into batches of calls (internal to
// libtrace; the Reader hands the calls out, possibly from another thread).
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/vma/recording.hpp"

namespace libtrace::vma::detail {

// A warning, due before calls[before] of its batch.
struct Note {
  std::size_t before = 0;
  std::string where, why;
};

struct Batch {
  static constexpr std::size_t kCalls = 256;
  Batch();
  std::vector<Call> calls;  // reused: their vectors keep their capacity
  std::size_t count = 0;    // calls[0, count) are this batch's
  std::vector<Note> notes;
  std::exception_ptr error;            // due after the calls and the notes; nothing follows
  bool last = false;                   // nothing follows
  std::uint64_t lines = 0, bytes = 0;  // read when the batch was filled
};

// Whole lines of the recording, for parsing on any thread: `head` (a line
// begun in the previous block, with its '\n'; often empty), then
// block[begin, end). What follows the lines is in the flags; line numbers are
// left to whoever counts the lines.
struct Chunk {
  Block block;                 // the decoder's block, when copied
  const char* data = nullptr;  // the block: block.data(), or in place
  std::size_t size = 0;        // the block's bytes
  bool in_place = false;       // data is the decoder's memory (a mapped
                               // file): such chunks follow each other in it
  std::string head;
  std::size_t begin = 0, end = 0;
  std::uint64_t bytes = 0;        // of the stream, read up to this chunk's end
  std::uint64_t file_offset = 0;  // of the input file (compressed), likewise
  bool last = false;              // nothing follows
  bool cut_off = false;           // then a last line with no line end, dropped
  bool too_long = false;          // then a line longer than the reader takes
  std::exception_ptr error;       // then the decoder's error
};

class Source {
 public:
  // Reads the two header lines and the Config section; their warnings go to
  // opt.warnings at once.
  Source(std::unique_ptr<Decoder> decoder, std::string name, const ReaderOptions& opt);

  const Header& header() const { return header_; }
  std::uint64_t header_warnings() const { return header_warnings_; }
  std::uint64_t header_dropped_lines() const { return header_dropped_; }  // of those warnings

  // Parses the next calls into `b`. Never throws: an error ends the batch and
  // the data (b.error, b.last).
  void fill(Batch& b);

  // Instead of fill(): the next lines, the first call taking over what the
  // header left; false when the last chunk was handed out. Never throws.
  bool next_chunk(Chunk& c);
  // After in-place chunks' lines are parsed, their memory can go. Any thread.
  void done_with(std::string_view blocks) { decoder_->done_with(blocks); }
  std::uint64_t lines_read() const { return line_no_; }  // before the first chunk: the header's

 private:
  bool next_call(Call& call);
  bool refill();
  std::string_view take_line();
  bool read_line(std::string_view& line);
  void parse_header();
  void parse_config_line(std::string_view line);
  void check_config();
  [[noreturn]] void fail(const std::string& why) const;
  // `drops_line`: the warning is for a line left out (not for one taken
  // with a default).
  void warn(const std::string& why, bool drops_line = false);

  std::unique_ptr<Decoder> decoder_;
  std::string name_;
  const ReaderOptions& opt_;
  Header header_;
  std::uint64_t header_warnings_ = 0, header_dropped_ = 0;
  // Which Heap / Type lines the Config section had: bit 0 size or heapIndex,
  // bit 1 flags or propertyFlags.
  std::vector<std::uint8_t> heap_lines_, type_lines_;
  Batch* batch_ = nullptr;  // where warnings go while filling

  Block block_;
  std::size_t block_stop_ = 0;  // block_'s whole lines end here
  std::string carry_;           // a line split between blocks
  const char* cur_ = nullptr;   // block_ or carry_
  std::size_t pos_ = 0, stop_ = 0;
  bool in_carry_ = false;
  std::size_t resume_ = 0;  // where block_'s lines go on after carry_'s
  bool eof_ = false;
  bool chunked_ = false;  // next_chunk() has taken over
  std::uint64_t line_no_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace libtrace::vma::detail
