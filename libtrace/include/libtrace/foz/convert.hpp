// SPDX-License-Identifier: MIT
// trak-convert on Fossilize data: a .foz archive to JSON (one document, or a
// directory of TT.HHHHHHHHHHHHHHHH.json files like fossilize-convert-db
// writes) and JSON back to a .foz archive. Every entry goes through the
// object model, so anything it cannot represent is an error, not a loss.
#pragma once

#include <cstdint>
#include <string>

#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/core/progress.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

enum class JsonLayout {
  document,   // one whole-state JSON document (Fossilize's StateReplayer reads it)
  directory,  // one file per entry, each the entry's payload byte for byte
};

struct FozToJsonOptions {
  std::string input;   // a .foz file; "-" (a pipe) only for `directory`
  std::string output;  // a file or "-" (document), a directory (created if missing)
  JsonLayout layout = JsonLayout::document;
  // Recompute every entry's hash with Fossilize's recipe and fail on the
  // first that differs from the name the entry is stored under.
  bool check_hashes = false;
  WarningSink warnings;  // a torn tail
  Progress progress;
};

struct JsonToFozOptions {
  std::string input;                                   // a directory of entry files, a JSON document, or "-"
  std::string output;                                  // the .foz archive ("-": stdout)
  EncodeOptions encode{PayloadFormat::zlib, 9, true};  // as fossilize-convert-db writes
  bool check_hashes = false;
  WarningSink warnings;  // files skipped in a directory
  Progress progress;
};

struct FozConvertResult {
  std::uint64_t entries = 0;         // written
  std::uint64_t hashes_checked = 0;  // with check_hashes
};

// Errors name the entry (file, offset, tag, hash) and the JSON path. The
// entries converted before an error are kept: directory files stay, a
// document or archive is kept as "<output>.partial".
// `in` is the input already opened (a caller may have peeked at it); a file
// is then read by path, a pipe from `in`.
FozConvertResult foz_to_json(const FozToJsonOptions& opt, InputFile& in);
// `in` is the opened input for a document, null for a directory.
FozConvertResult json_to_foz(const JsonToFozOptions& opt, InputFile* in);

}  // namespace libtrace::foz
