// SPDX-License-Identifier: MIT
// Table and JSON renderings of .foz statistics.

#include <cstdio>
#include <vector>

#include "core/report.hpp"
#include "core/text_util.hpp"
#include "libtrace/foz/stat.hpp"

namespace libtrace::foz {

namespace {

using libtrace::detail::appendf;

using detail::human_bytes;

double ratio(std::uint64_t uncompressed, std::uint64_t stored) {
  return stored ? static_cast<double>(uncompressed) / static_cast<double>(stored) : 0.0;
}

std::string app_label(const AppStats& a) {
  if (!a.has_info) return "(no application_info entry)";
  std::string s = a.name.empty() ? "(unnamed)" : a.name;
  if (!a.engine.empty() && a.engine != a.name) s += " / " + a.engine;
  return s;
}

}  // namespace

std::string report_table(const FozStats& s) {
  libtrace::detail::TableReport table(22);
  std::string& o = table.text();
  char line[512];
  table.row("file", s.file);
  table.row("format", "Fossilize archive (.foz), version " + std::to_string(s.version));
  table.row("size", human_bytes(s.file_bytes) + " (" + std::to_string(s.file_bytes) + " bytes)");
  std::string entries = std::to_string(s.entries);
  if (s.duplicates) entries += ", " + std::to_string(s.duplicates) + " duplicates ignored";
  if (s.unknown_tags) entries += ", " + std::to_string(s.unknown_tags) + " with unknown tags skipped";
  table.row("entries", entries);
  std::snprintf(line, sizeof line, " (ratio %.2f)", ratio(s.uncompressed_bytes(), s.stored_bytes()));
  table.row("payloads",
            human_bytes(s.stored_bytes()) + " stored, " + human_bytes(s.uncompressed_bytes()) + " uncompressed" + line);
  const auto modules = s.per_tag[static_cast<std::size_t>(Tag::shader_module)].entries;
  table.row("SPIR-V", human_bytes(s.spirv_bytes) + " in " + std::to_string(modules) + " shader modules");
  table.row("torn tail", s.torn ? "yes: the last entry at offset " + std::to_string(s.valid_end) + " is incomplete (" +
                                      s.torn_reason + "); readers drop it"
                                : "no");
  if (s.error) table.row("stopped", std::string(s.error->what()) + " (the figures cover the entries before)");
  table.row("CRC failures", std::to_string(s.crc_failures));
  if (s.bad_entries.size() != s.crc_failures)
    table.row("other bad entries", std::to_string(s.bad_entries.size() - s.crc_failures));
  if (!s.json_errors.empty())
    table.row("payloads not JSON", std::to_string(s.json_errors.size()) + " (a replayer would reject them)");
  table.row("dangling references",
            std::to_string(s.dangling.size()) +
                (s.dangling_links ? " (and " + std::to_string(s.dangling_links) + " links to missing objects)" : ""));

  o += "\ntag                      entries       stored  uncompressed  ratio   zlib    crc\n";
  for (std::size_t t = 0; t < kTagCount; ++t) {
    const TagStats& ts = s.per_tag[t];
    if (!ts.entries) continue;
    appendf(o, "%-22s %9llu %12s %13s %6.2f %6llu %6llu\n", std::string(tag_name(static_cast<Tag>(t))).c_str(),
            static_cast<unsigned long long>(ts.entries), human_bytes(ts.stored_bytes).c_str(),
            human_bytes(ts.uncompressed_bytes).c_str(), ratio(ts.uncompressed_bytes, ts.stored_bytes),
            static_cast<unsigned long long>(ts.zlib_entries), static_cast<unsigned long long>(ts.crc_entries));
  }
  if (!s.applications.empty()) {
    o += "\napplication       graphics  compute  raytracing   links  name\n";
    for (const AppStats& a : s.applications) {
      appendf(o, "%s %9llu %8llu %11llu %7llu  %s\n", hash_hex(a.hash).c_str(),
              static_cast<unsigned long long>(a.graphics), static_cast<unsigned long long>(a.compute),
              static_cast<unsigned long long>(a.raytracing), static_cast<unsigned long long>(a.links),
              app_label(a).c_str());
    }
  }
  if (!s.dangling.empty()) {
    o += "\nmissing entry                            named by (first of N)\n";
    for (const Dangling& d : s.dangling) {
      appendf(o, "%-40s %s (%llu)\n", describe_entry(d.tag, d.hash).c_str(),
              describe_entry(d.from_tag, d.from_hash).c_str(), static_cast<unsigned long long>(d.referrers));
    }
  }
  if (!s.bad_entries.empty() || !s.json_errors.empty()) {
    o += "\nbad entry                                offset  problem\n";
    std::vector<const BadEntry*> all;
    for (const BadEntry& b : s.bad_entries) all.push_back(&b);
    for (const BadEntry& b : s.json_errors) all.push_back(&b);
    for (const BadEntry* pb : all) {
      const BadEntry& b = *pb;
      appendf(o, "%-40s %6llu  %s\n", describe_entry(b.tag, b.hash).c_str(), static_cast<unsigned long long>(b.offset),
              b.why.c_str());
    }
  }
  return o;
}

std::string report_json(const FozStats& s) {
  libtrace::detail::JsonReport report;
  auto bad_list = [&](const char* key, const std::vector<BadEntry>& list) {
    report.objects(key, list, [&](const BadEntry& b) {
      report.members("offset", b.offset, "tag", tag_name(b.tag), "hash", hash_hex(b.hash), "error", b.why);
    });
  };
  report.object([&] {
    report.members("format", "foz", "file", s.file, "version", s.version, "file_bytes", s.file_bytes, "entries",
                   s.entries);
    report.object("entries_per_tag", [&] {
      for (std::size_t t = 0; t < kTagCount; ++t) report.u64(tag_name(static_cast<Tag>(t)), s.per_tag[t].entries);
    });
    report.members("duplicates", s.duplicates, "unknown_tag_entries", s.unknown_tags, "stored_bytes", s.stored_bytes(),
                   "uncompressed_bytes", s.uncompressed_bytes(), "compression_ratio",
                   ratio(s.uncompressed_bytes(), s.stored_bytes()));
    report.object("per_tag", [&] {
      for (std::size_t t = 0; t < kTagCount; ++t) {
        const TagStats& ts = s.per_tag[t];
        report.object(tag_name(static_cast<Tag>(t)), [&] {
          report.members("entries", ts.entries, "stored_bytes", ts.stored_bytes, "uncompressed_bytes",
                         ts.uncompressed_bytes, "zlib_entries", ts.zlib_entries, "crc_entries", ts.crc_entries);
        });
      }
    });
    report.u64("spirv_bytes", s.spirv_bytes);
    report.objects("applications", s.applications, [&](const AppStats& a) {
      report.text("hash", hash_hex(a.hash));
      if (a.has_info) {
        report.text("name", a.name);
        report.text("engine", a.engine);
      }
      report.members("graphics_pipelines", a.graphics, "compute_pipelines", a.compute, "raytracing_pipelines",
                     a.raytracing, "links", a.links);
    });
    report.objects("dangling_references", s.dangling, [&](const Dangling& d) {
      report.members("tag", tag_name(d.tag), "hash", hash_hex(d.hash), "referenced_by_tag", tag_name(d.from_tag),
                     "referenced_by_hash", hash_hex(d.from_hash), "referrers", d.referrers);
    });
    report.u64("dangling_links", s.dangling_links);
    report.boolean("torn_tail", s.torn);
    if (s.torn) {
      report.u64("torn_offset", s.valid_end);
      report.text("torn_reason", s.torn_reason);
    }
    report.u64("crc_failures", s.crc_failures);
    bad_list("bad_entries", s.bad_entries);
    bad_list("json_errors", s.json_errors);
    if (s.error) report.text("error", s.error->what());
  });
  return report.finish();
}

}  // namespace libtrace::foz
