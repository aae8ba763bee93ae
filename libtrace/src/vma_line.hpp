// SPDX-License-Identifier: MIT
// One call line of a VMA recording: the reference parser, which states every
// rule of the format, and a fast parser for the lines real recordings are made
// of (internal to libtrace).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libtrace/vma.hpp"
#include "vma_scan.hpp"

namespace libtrace::vma::detail {

// The reference parser: fills `call` (all but its line number) from a line
// without its line end, or returns why the line is malformed.
std::optional<std::string> parse_call(std::string_view line, Version version, Call& call);

// Parses the line starting at `p` in [p, stop), which ends with a '\n', in
// place: returns where the next line starts when it parsed the line exactly as
// parse_call would (without the '\n' and one '\r' before it); null when it
// declines (malformed or unusual lines), leaving `call` in no particular
// state for parse_call to fill or reject.
const char* parse_call_fast(const char* p, const char* stop, Version version, Call& call);

}  // namespace libtrace::vma::detail
