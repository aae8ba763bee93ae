// SPDX-License-Identifier: MIT
// trak-repack on .foz archives: every payload decoded and encoded again
// (none or zlib at a level, with or without CRCs); hashes and decoded
// payloads stay the same.
#pragma once

#include <cstdint>
#include <string>

#include "libtrace/core/progress.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

enum class CrcPolicy { add, strip, keep };

struct FozRepackOptions {
  std::string output = "-";
  EncodeOptions encode;            // format and level; `checksum` is set from `crc`
  CrcPolicy crc = CrcPolicy::add;  // keep: a CRC where the input entry had one
  unsigned threads = 0;            // compression threads; 0 = all cores
  // Re-read the output and compare every entry's decoded payload with the
  // input's (the input must then be a file).
  bool verify = false;
  WarningSink warnings;
  Progress progress;
};

struct FozRepackResult {
  std::uint64_t entries = 0;  // written
  std::uint64_t input_bytes = 0, output_bytes = 0;
  std::uint64_t duplicates_dropped = 0;  // later copies of a key
  std::uint64_t unknown_tags_dropped = 0;
  bool torn_tail_dropped = false;
  std::uint64_t verified = 0;  // entries compared by --verify
};

// Reads `in` (a file or a pipe) once, in order; the first copy of each
// (tag, hash) is kept, a torn tail dropped with a warning. Throws Error on a
// bad entry: the entries before it are kept as "<output>.partial".
FozRepackResult repack_foz(InputFile& in, const FozRepackOptions& opt);

// Compares two archives entry by entry (same keys, same decoded payloads);
// returns the number of entries. Throws Error(bad_record) at the first
// difference.
std::uint64_t compare_foz(const std::string& expected, const std::string& actual);

}  // namespace libtrace::foz
