// SPDX-License-Identifier: MIT
// Number formatting into a std::string without locale or allocation, shared
// by the text and JSON renderings.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>

namespace libtrace::detail {

inline void put_u64(std::string& out, std::uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

inline void put_i64(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

// Lowercase, no prefix, no padding.
inline void put_hex(std::string& out, std::uint64_t v) {
  char buf[20];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

// "512 B", "1.5 KiB", "2.0 GiB": sizes for people.
inline std::string human_bytes(std::uint64_t v) {
  if (v < 1024) return std::to_string(v) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double d = static_cast<double>(v);
  int u = -1;
  while (d >= 1024 && u < 3) {
    d /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", d, units[u]);
  return buf;
}

}  // namespace libtrace::detail
