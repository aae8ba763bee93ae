// SPDX-License-Identifier: MIT
// Pieces both directions of the .foz <-> JSON conversion share.
#pragma once

#include <string>
#include <string_view>

#include "foz/model.hpp"

namespace libtrace::foz::detail {

// Writes `bytes` to `path` through a temporary renamed over it, so a failure
// never leaves half a file. (OutputFile's writer thread would cost more than
// a small JSON file.)
void write_file_atomically(const std::string& path, std::string_view bytes);
// Creates `path` unless it is already a directory.
void make_directory(const std::string& path);

// An entry's payload as an object: bucket infos are opaque JSON, the rest
// goes through the model.
inline Object parse_entry(Tag tag, Hash hash, std::string_view payload, Arena& arena, const std::string& where) {
  return tag == Tag::bucket_info ? parse_bucket_info(payload, hash, arena, where)
                                 : parse_payload(payload, arena, where);
}

// Checks that an entry holds the object its name says: always the tag and the
// JSON key; with `enabled`, also Fossilize's hash of the content.
struct HashChecker {
  bool enabled = false;
  Lookup lookup;
  std::uint64_t checked = 0;
  void check(const Object& o, Tag tag, Hash hash, const std::string& where);
};

}  // namespace libtrace::foz::detail
