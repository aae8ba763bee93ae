// SPDX-License-Identifier: MIT
// Text from input files as JSON strings (internal to libtrace). Traces,
// recordings and archives carry bytes in whatever encoding their application
// used, while JSON must be UTF-8: a byte that is not part of a valid UTF-8
// sequence is read as Latin-1 (U+0080 to U+00FF), so that no byte is lost and
// the output always parses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace libtrace::detail {

// Length of the valid UTF-8 sequence at s[i], or 0.
inline std::size_t utf8_len(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n;
  std::uint32_t min;
  if (c < 0x80) return 1;
  if ((c & 0xe0) == 0xc0) {
    n = 2;
    min = 0x80;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3;
    min = 0x800;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  std::uint32_t cp = c & (0x7f >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (b & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

// `s` as valid UTF-8: unchanged if it is, else each stray byte in its
// Latin-1 reading (two bytes in UTF-8). For JSON writers that escape, but do
// not check, what they are given.
inline std::string to_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (const std::size_t n = utf8_len(s, i)) {
      out.append(s.data() + i, n);
      i += n;
    } else {
      const auto c = static_cast<unsigned char>(s[i++]);
      out += static_cast<char>(0xc0 | c >> 6);
      out += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  return out;
}

inline void put_escaped_unit(std::string& out, std::uint32_t c) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 15];
}

// Appends `s` as a JSON string: escaped, with stray bytes as \u00XX.
inline void put_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
      ++i;
    } else if (c >= 0x20 && c < 0x80) {
      out += ch;
      ++i;
    } else if (ch == '\n') {
      out += "\\n";
      ++i;
    } else if (ch == '\t') {
      out += "\\t";
      ++i;
    } else if (c < 0x20) {
      put_escaped_unit(out, c);
      ++i;
    } else if (const std::size_t n = utf8_len(s, i)) {
      out.append(s.data() + i, n);
      i += n;
    } else {
      put_escaped_unit(out, c);
      ++i;
    }
  }
  out += '"';
}

}  // namespace libtrace::detail
