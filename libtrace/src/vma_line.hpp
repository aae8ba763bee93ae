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

namespace libtrace::vma::detail {

// Whole-field helpers: the format's rules for one field.
std::string_view trim_right(std::string_view s);
// Splits off the next comma-separated field; `more` says whether a comma
// followed it.
std::string_view next_field(std::string_view& s, bool& more);
// Decimal digits only, within 64 bits.
bool parse_dec(std::string_view f, std::uint64_t& out);
// MSVC's %p (16 upper-case digits), glibc's (0x..., "(nil)"), 8-digit 32-bit.
bool parse_ptr(std::string_view f, std::uint64_t& out);
// Seconds as std::from_chars reads a double.
bool parse_time(std::string_view f, double& out);

// Scanners for the fast parser: each reads one value starting at `p`, stops
// at the first character that is not part of it and returns where it
// stopped, or null when it declines. They accept only what the whole-field
// helpers accept with the same result, and decline some of it (then the
// reference parser decides). [p, end) must end with a '\n', which stops the
// digit loops without a bounds check.
//
// 1 to 20 digits within 64 bits.
const char* scan_dec(const char* p, const char* end, std::uint64_t& out);
// "D+" or "D+.D+" with at most 15 digits in all: the mantissa and the power of
// ten are then exact doubles, so one division rounds exactly as from_chars
// does (Clinger's fast path).
const char* scan_time(const char* p, const char* end, double& out);
// A pointer ending at ',', a line end, or for a list item also at ' '.
const char* scan_ptr(const char* p, const char* end, bool list_item, std::uint64_t& out);
// Exactly 16 hex digits (either case) at p: MSVC's %p, the common spelling.
bool hex16(const char* p, std::uint64_t& out);

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
