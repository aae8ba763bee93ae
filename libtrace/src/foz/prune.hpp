// SPDX-License-Identifier: MIT
// Which entries survive pruning: the fossilize-prune rules over the union of
// the merged archives (see PruneOptions).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "libtrace/foz/merge.hpp"

namespace libtrace::foz::detail {

struct PruneInput {
  TagHashSets present;  // every unique (tag, hash) available
  // Decodes the payload of a present entry into `out`; returns the "where"
  // prefix errors about it use.
  std::function<std::string(Tag, std::uint64_t, std::vector<std::uint8_t>& out)> read;
};

// The (tag, hash) keys to write. Throws Error(bad_record) for a payload that
// cannot be read or whose JSON is malformed.
TagHashSets prune_keep_set(const PruneOptions& opt, const PruneInput& in);

}  // namespace libtrace::foz::detail
