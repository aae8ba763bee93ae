// SPDX-License-Identifier: MIT
// Helpers for the .foz tests: byte views, counts per tag, shared data paths,
// and archives built byte by byte (independently of ArchiveWriter).
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "libtrace/foz/archive.hpp"

namespace test {

inline std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// "0:1 4:2 8:7": unique entries per tag, as the data README lists them.
inline std::string counts(const libtrace::foz::ArchiveReader& r) {
  std::string s;
  for (unsigned t = 0; t < libtrace::foz::kTagCount; ++t) {
    const auto n = r.count(static_cast<libtrace::foz::Tag>(t));
    if (n == 0) continue;
    if (!s.empty()) s += ' ';
    s += std::to_string(t) + ":" + std::to_string(n);
  }
  return s;
}

inline std::string le32(std::uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
  return s;
}

inline std::string foz_header(int version = 6) {
  return std::string(
             "\x81"
             "FOSSILIZEDB\0\0\0",
             15) +
         static_cast<char>(version);
}

// One entry spelled out by hand: name, header, payload.
inline std::string foz_entry(unsigned tag, std::uint64_t hash, const std::string& payload, std::uint32_t format = 1,
                             std::uint32_t crc = 0, std::int64_t uncompressed = -1) {
  char name[41];
  std::snprintf(name, sizeof name, "%024x%016llx", tag, static_cast<unsigned long long>(hash));
  return std::string(name, 40) + le32(static_cast<std::uint32_t>(payload.size())) + le32(format) + le32(crc) +
         le32(static_cast<std::uint32_t>(uncompressed < 0 ? static_cast<std::int64_t>(payload.size()) : uncompressed)) +
         payload;
}

}  // namespace test
