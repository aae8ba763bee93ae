// SPDX-License-Identifier: MIT
// Limits and helpers shared by the two halves of the parser (events, values).
#pragma once

#include <cstdint>
#include <string>

namespace libtrace::apitrace::detail {

// Deeper nesting than any API produces; the limit keeps a corrupt file from
// exhausting the stack.
inline constexpr unsigned kMaxDepth = 64;
// Values per call: far above real calls (a few thousand), far below what would
// exhaust memory.
inline constexpr std::size_t kMaxValues = 1u << 24;

inline std::string hex_byte(unsigned b) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  s += digits[(b >> 4) & 15];
  s += digits[b & 15];
  return s;
}

}  // namespace libtrace::apitrace::detail
