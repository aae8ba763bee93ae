// SPDX-License-Identifier: MIT
// Limits and helpers shared by the two halves of the parser (events, values).
#pragma once

#include <cstdint>
#include <string>

namespace libtrace::apitrace::detail {

// Values nest as deep as an API's structures do. Vulkan's pNext chains are
// the deepest: each link is a struct under a one-element array, two levels,
// so vulkaninfo's features query (108 structs) nests about 220 levels, and a
// chain the registry allows (each extending struct once: 151 extend
// VkDeviceCreateInfo in 1.3.239) about 300. 4096 is far above that, and far
// below what would exhaust the stack: the parser and the walkers after it
// (dump, JSON Lines, writer, repack's comparison, the replay's decoder)
// recurse once per level (the decoder once per link). Measured at this depth
// (ulimit -s): at most 1.0 MiB at -O2, 2.8 MiB under ASan, of the main
// thread's 8 MiB.
inline constexpr unsigned kMaxDepth = 4096;
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
