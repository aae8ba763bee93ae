// SPDX-License-Identifier: MIT
// Pieces the .foz reader, scanner and writer share: entry-header parsing and
// the torn-tail wording.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "libtrace/foz/archive.hpp"

namespace libtrace::foz::detail {

inline std::uint32_t load_le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

inline void store_le32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
  p[2] = static_cast<std::uint8_t>(v >> 16);
  p[3] = static_cast<std::uint8_t>(v >> 24);
}

// Checks the 16-byte file header (`got` bytes of it present, from a file of
// `got` or more bytes) and returns the version. Throws as ArchiveScanner's
// constructor documents.
std::uint8_t check_file_header(const std::uint8_t* p, std::size_t got, const std::string& name);

// Fills e.offset/tag_value/hash/header from the 56 bytes at `p`. Throws
// Error(bad_record) naming the offset when the name is not hex.
void parse_entry_header(const std::uint8_t* p, std::uint64_t offset, const std::string& name, ScannedEntry& e);

// Writes the 56-byte entry header for (tag, hash, header) at `p`.
void format_entry_header(std::uint8_t* p, std::uint64_t tag, std::uint64_t hash, const PayloadHeader& header);

// decode_payload / check_crc that build the "<file>: offset N: <tag> <hash>"
// prefix only when something is wrong: per-entry strings cost more than
// checking a small payload.
void decode_entry(const PayloadHeader& h, std::span<const std::uint8_t> stored, std::vector<std::uint8_t>& out,
                  const std::string& file, std::uint64_t offset, Tag tag, std::uint64_t hash);
void check_entry_crc(const PayloadHeader& h, std::span<const std::uint8_t> stored, const std::string& file,
                     std::uint64_t offset, Tag tag, std::uint64_t hash);

// Marks `s` torn at `offset` and tells `warnings`.
void note_torn(ScanSummary& s, std::uint64_t offset, std::uint64_t have, std::uint64_t need, bool in_header,
               const std::string& name, const WarningSink& warnings);

}  // namespace libtrace::foz::detail

namespace libtrace::foz::detail {

// The index pass ArchiveReader and append mode share: reads entry headers of
// the regular file `fd` (of `size` bytes) and hops over payloads, appending
// every complete entry of a known tag to `all` in file order, duplicates
// included. Fills `s`; warns about a torn tail.
void scan_index(int fd, std::uint64_t size, const std::string& name, const WarningSink& warnings, ScanSummary& s,
                std::vector<Entry>& all);

// Keeps the first occurrence of each (tag, hash) of `all` (file order) and
// returns how many were dropped; `by_hash[t]` receives indices into the
// result, sorted by hash.
std::uint64_t dedupe(std::vector<Entry>& all, std::array<std::vector<std::uint32_t>, kTagCount>& by_hash);

}  // namespace libtrace::foz::detail
