// SPDX-License-Identifier: MIT
// One call line of a VMA recording: the reference parser, which states every
// rule of the format, and a fast parser for the lines real recordings are made
// of (internal to libtrace).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libtrace/vma/recording.hpp"
#include "vma/scan.hpp"
#include "vma/schema.hpp"

namespace libtrace::vma::detail {

// The reference parser: fills `call` (all but its line number) from a line
// without its line end, or returns why the line is malformed.
std::optional<std::string> parse_call(std::string_view line, Version version, Call& call);

// A call line as the fast parser leaves it, in place: the numbers in an
// array, the text a view into the line, the lists in vectors kept for their
// capacity. trak-stat counts these, sparing a Call's vectors and string.
struct LineCall {
  std::uint32_t thread = 0, frame = 0;
  double time = 0;
  Function function = Function::CreateAllocator;
  std::uint8_t numbers = 0;  // num[0, numbers), as Call::num
  std::uint8_t lists = 0;    // list[0, lists), as Call::lists
  bool has_text = false;
  std::array<std::uint64_t, kMaxNumbers> num{};
  std::string_view text;
  std::array<std::vector<std::uint64_t>, kMaxLists> list;
};

// Like parse_call_fast, into a LineCall.
const char* parse_line_fast(const char* p, const char* stop, Version version, LineCall& call);

// A Call as a LineCall (for lines the reference parser took): the text is a
// view of c.text.
void to_line_call(const Call& c, LineCall& out);

// Parses the line starting at `p` in [p, stop), which ends with a '\n', in
// place: returns where the next line starts when it parsed the line exactly as
// parse_call would (without the '\n' and one '\r' before it); null when it
// declines (malformed or unusual lines), leaving `call` in no particular
// state for parse_call to fill or reject.
const char* parse_call_fast(const char* p, const char* stop, Version version, Call& call);

}  // namespace libtrace::vma::detail
