// SPDX-License-Identifier: MIT
// trak-stat's figures for Fossilize .foz archives: entries per tag, bytes,
// SPIR-V, pipelines per application, dangling references, damage.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libtrace/core/progress.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

struct TagStats {
  std::uint64_t entries = 0;             // unique (first occurrences)
  std::uint64_t stored_bytes = 0;        // payload bytes in the file
  std::uint64_t uncompressed_bytes = 0;  // as the headers say
  std::uint64_t zlib_entries = 0;        // format 2 (the rest are format 1)
  std::uint64_t crc_entries = 0;         // with a CRC to check
};

struct AppStats {
  std::uint64_t hash = 0;    // the application/feature hash links name
  std::string name, engine;  // from its application_info entry, when present
  bool has_info = false;
  std::uint64_t links = 0;
  std::uint64_t graphics = 0, compute = 0, raytracing = 0;  // pipelines linked
};

// An entry named by handle that the archive lacks.
struct Dangling {
  Tag tag;  // what is missing
  std::uint64_t hash = 0;
  Tag from_tag;  // the first entry naming it
  std::uint64_t from_hash = 0;
  std::uint64_t referrers = 0;  // entries naming it
};

// An entry that failed its checks: CRC, inflate, sizes (bad_entries), or,
// decoded fine, has a payload that is not the JSON Fossilize writes
// (json_errors: the archive is sound, a replayer would reject the entry).
struct BadEntry {
  std::uint64_t offset = 0;
  Tag tag;
  std::uint64_t hash = 0;
  std::string why;
  bool crc = false;  // a CRC mismatch
};

struct FozStats {
  std::string file;
  std::uint8_t version = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t entries = 0;       // unique entries of known tags: what Fossilize reads
  std::uint64_t duplicates = 0;    // later copies of a (tag, hash), ignored
  std::uint64_t unknown_tags = 0;  // entries with a tag >= 11, skipped
  std::array<TagStats, kTagCount> per_tag{};
  std::uint64_t spirv_bytes = 0;       // shader modules' codeSize
  std::vector<AppStats> applications;  // by hash
  std::vector<Dangling> dangling;      // by (tag, hash)
  std::uint64_t dangling_links = 0;    // links to an object the archive lacks
  bool torn = false;
  std::uint64_t valid_end = 0;
  std::string torn_reason;
  std::vector<BadEntry> bad_entries;  // in file order
  std::uint64_t crc_failures = 0;
  std::vector<BadEntry> json_errors;  // in file order
  std::optional<Error> error;         // the figures cover the entries before it

  std::uint64_t stored_bytes() const;
  std::uint64_t uncompressed_bytes() const;
};

struct FozStatOptions {
  WarningSink warnings;  // about a torn tail
  Progress progress;
};

// One streaming pass: every payload is checked (CRC when non-zero, inflate,
// sizes) and its JSON looked into for handles. Throws Error for an input that
// is not an archive (header); bad data after the header lands in
// bad_entries, json_errors or error.
FozStats stats(InputFile& in, const FozStatOptions& opt = {});
// The same on a path (a regular file is scanned in place, without copies).
FozStats stats(const std::string& path, const FozStatOptions& opt = {});

std::string report_json(const FozStats& s);
std::string report_table(const FozStats& s);

// trak-stat --list: the entries Fossilize reads (first copy of a key, known
// tags), in Fossilize's tag order and, within a tag, by ascending hash (the
// order fossilize-list prints). Payloads are not decoded, as fossilize-list
// does not: a bad CRC is trak-stat's whole report to find.
struct ListedEntry {
  Tag tag = Tag::application_info;
  std::uint64_t hash = 0;
  std::uint64_t offset = 0;
  PayloadHeader header;
};

struct FozList {
  std::string file;
  std::uint8_t version = 0;
  std::optional<Tag> only;  // the tag kept (--tag), if one
  std::vector<ListedEntry> entries;
  std::uint64_t duplicates = 0, unknown_tags = 0;
  bool torn = false;
  std::optional<Error> error;  // the list holds the entries read before it
};

struct FozListOptions {
  std::optional<Tag> only;  // keep this tag alone
  WarningSink warnings;     // about a torn tail
  Progress progress;
};

FozList list_entries(InputFile& in, const FozListOptions& opt = {});
FozList list_entries(const std::string& path, const FozListOptions& opt = {});

// "TAG HASH" lines; and one JSON object: file, version, tag (or null),
// entries [{tag, hash, offset, stored_bytes, bytes}], duplicates,
// unknown_tags, torn_tail, error (or null).
std::string report_list(const FozList& l);
std::string report_list_json(const FozList& l);

}  // namespace libtrace::foz
