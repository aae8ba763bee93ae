// SPDX-License-Identifier: MIT
// trak-merge's job: N .foz archives into one, deduplicated by (tag, hash),
// entries copied raw (no recompression), optionally pruned the way
// fossilize-prune prunes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "libtrace/core/progress.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

using HashSet = std::unordered_set<std::uint64_t>;
using TagHashSets = std::array<HashSet, kTagCount>;

// What to keep, following fossilize-prune. Pipelines (graphics, compute,
// raytracing) are the roots: a pipeline stays when it is not skipped, is in
// the keep list of its tag if any pipeline keep list is given, is linked from
// one of `applications` if any are given, and (graphics, raytracing: at least
// one of its stages; compute: its stage) uses a kept module when a module keep
// list is given, uses no skipped module or library, and needs no skipped
// layout, render pass, set layout or sampler. What kept pipelines need stays
// with them: layouts, set layouts, samplers, render passes, shader modules,
// pipeline libraries and base pipelines (fossilize-prune drops base
// pipelines; a derived pipeline cannot be replayed without its base). Every
// other object is dropped. Application infos stay (only those of
// `applications` if given, none skipped); links stay (only those of
// `applications` if given, none with skip_links, none skipped). Bucket infos
// are dropped.
struct PruneOptions {
  bool enabled = false;
  HashSet applications;  // application/feature hashes (--filter-application)
  TagHashSets keep;      // per tag; only pipeline and shader-module tags
  TagHashSets skip;      // per tag; entries named here are dropped, and the pipelines that need them
  // Keep lists were given and name nothing: no pipeline is kept (an empty
  // whitelist, not the absence of one).
  bool keep_list_empty = false;
  bool skip_links = false;
};

// Parses a list of entries, one per line: "TAG HASH" (a tag name or number,
// then 16 hex digits) or an entry's 40-character name; '#' starts a comment.
// Or, told by its content, a .foz archive, as fossilize-prune's --whitelist
// and --blacklist take (a replayer cache of 0-byte entries, or any archive):
// the keys of its entries, payloads unread. Adds them to `sets`. A keep list
// that is an archive gives its pipelines and shader modules alone (its other
// entries are what kept pipelines need anyway, as fossilize-prune ignores
// them in a whitelist); a skip list gives every entry. Throws
// Error(bad_record) naming file and line (or offset); `warnings` hears of a
// torn last entry.
enum class KeyList { keep, skip };
void read_key_list(const std::string& path, TagHashSets& sets, KeyList use = KeyList::skip,
                   const WarningSink& warnings = {});

struct MergeOptions {
  std::vector<std::string> inputs;  // files (entries are compared by offset)
  std::string output;               // "-" writes stdout
  // Keep the output's entries and append to it (a torn tail is cut off
  // first), as fossilize-merge-db does; otherwise the output is replaced.
  bool append = false;
  // Check the CRC of every entry copied (the copies keep their CRCs, so
  // readers of the output still catch damage: fossilize-merge-db does not
  // check). A failure stops the merge, or with drop_bad drops the entry
  // with a warning.
  bool check_crc = false;
  bool drop_bad = false;  // implies check_crc
  PruneOptions prune;
  WarningSink warnings;
  Progress progress;
};

struct MergeInput {
  std::string file;
  std::uint8_t version = 0;
  std::uint64_t entries = 0;     // complete entries of known tags, duplicates included
  std::uint64_t written = 0;     // copied to the output
  std::uint64_t duplicates = 0;  // keys seen before (in an earlier input or this one)
  std::uint64_t bad = 0;         // dropped for a failed CRC (drop_bad)
  std::uint64_t unknown_tags = 0;
  bool torn = false;  // a torn last entry was dropped
};

// Two entries with one (tag, hash) but different decoded payloads. The first
// one is in the output.
struct MergeConflict {
  Tag tag;
  std::uint64_t hash = 0;
  std::string kept_file, other_file;
  std::uint64_t kept_offset = 0, other_offset = 0;
  std::string detail;
};

struct MergeReport {
  std::string output;
  std::uint64_t existing_entries = 0;  // append: entries already in the output
  std::uint64_t truncated_bytes = 0;   // append: torn tail cut off
  std::vector<MergeInput> inputs;
  std::array<std::uint64_t, kTagCount> written_per_tag{};
  std::array<std::uint64_t, kTagCount> pruned_per_tag{};  // unique entries left out by pruning
  std::uint64_t entries_written = 0, bytes_written = 0;
  std::uint64_t identical_duplicates = 0;  // same stored bytes
  std::uint64_t reencoded_duplicates = 0;  // different stored bytes, same decoded payload
  std::vector<MergeConflict> conflicts;
};

// Merges; the output is complete when this returns. Throws Error on an
// unreadable input or output (nothing is then left at the output path,
// except in append mode where entries already appended stay, as after a
// crash: a later append cuts a torn tail).
MergeReport merge_archives(const MergeOptions& opt);

std::string report_merge(const MergeReport& r, bool json);

}  // namespace libtrace::foz
