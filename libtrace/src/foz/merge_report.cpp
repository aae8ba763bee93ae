// SPDX-License-Identifier: MIT
// trak-merge's report: a table for people, JSON for scripts.

#include <cstdio>

#include "core/report.hpp"
#include "libtrace/foz/merge.hpp"

namespace libtrace::foz {

namespace {

using libtrace::detail::appendf;

std::string table(const MergeReport& r) {
  std::string o;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  o += "version   entries   written  duplicates  input\n";
  for (const MergeInput& in : r.inputs) {
    std::string notes;
    if (in.torn) notes += " (torn tail dropped)";
    if (in.bad) notes += " (" + std::to_string(in.bad) + " bad entries dropped)";
    if (in.unknown_tags) notes += " (" + std::to_string(in.unknown_tags) + " with unknown tags skipped)";
    appendf(o, "%7u %9llu %9llu %11llu  %s%s\n", in.version, u(in.entries), u(in.written), u(in.duplicates),
            in.file.c_str(), notes.c_str());
  }
  o += "\n";
  appendf(o, "%-22s %s: %llu entries, %llu bytes written\n", "output", r.output.c_str(), u(r.entries_written),
          u(r.bytes_written));
  if (r.existing_entries || r.truncated_bytes) {
    appendf(o, "%-22s %llu entries kept, %llu bytes of torn tail cut off\n", "appended to", u(r.existing_entries),
            u(r.truncated_bytes));
  }
  appendf(o, "%-22s %llu identical, %llu same payload encoded differently, %llu conflicting\n", "duplicates",
          u(r.identical_duplicates), u(r.reencoded_duplicates), u(r.conflicts.size()));
  o += "\ntag                      written   pruned\n";
  for (std::size_t t = 0; t < kTagCount; ++t) {
    if (!r.written_per_tag[t] && !r.pruned_per_tag[t]) continue;
    appendf(o, "%-22s %9llu %8llu\n", std::string(tag_name(static_cast<Tag>(t))).c_str(), u(r.written_per_tag[t]),
            u(r.pruned_per_tag[t]));
  }
  if (!r.conflicts.empty()) {
    o += "\nconflicting duplicates (the first copy was kept):\n";
    for (const MergeConflict& c : r.conflicts) {
      appendf(o, "%s: kept %s offset %llu, not %s offset %llu: %s\n", describe_entry(c.tag, c.hash).c_str(),
              c.kept_file.c_str(), u(c.kept_offset), c.other_file.c_str(), u(c.other_offset), c.detail.c_str());
    }
  }
  return o;
}

std::string json(const MergeReport& r) {
  libtrace::detail::JsonReport report;
  auto per_tag = [&](const char* key, const std::array<std::uint64_t, kTagCount>& a) {
    report.object(key, [&] {
      for (std::size_t t = 0; t < kTagCount; ++t) report.u64(tag_name(static_cast<Tag>(t)), a[t]);
    });
  };
  report.object([&] {
    report.members("output", r.output, "entries_written", r.entries_written, "bytes_written", r.bytes_written,
                   "existing_entries", r.existing_entries, "truncated_bytes", r.truncated_bytes);
    per_tag("written_per_tag", r.written_per_tag);
    per_tag("pruned_per_tag", r.pruned_per_tag);
    report.u64("identical_duplicates", r.identical_duplicates);
    report.u64("reencoded_duplicates", r.reencoded_duplicates);
    report.objects("inputs", r.inputs, [&](const MergeInput& in) {
      report.members("file", in.file, "version", in.version, "entries", in.entries, "written", in.written, "duplicates",
                     in.duplicates, "bad_entries_dropped", in.bad, "unknown_tag_entries", in.unknown_tags, "torn_tail",
                     in.torn);
    });
    report.objects("conflicts", r.conflicts, [&](const MergeConflict& c) {
      report.members("tag", tag_name(c.tag), "hash", hash_hex(c.hash), "kept_file", c.kept_file, "kept_offset",
                     c.kept_offset, "other_file", c.other_file, "other_offset", c.other_offset, "detail", c.detail);
    });
  });
  return report.finish();
}

}  // namespace

std::string report_merge(const MergeReport& r, bool as_json) { return as_json ? json(r) : table(r); }

}  // namespace libtrace::foz
