// SPDX-License-Identifier: MIT
// Table and JSON renderings of .foz statistics.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <vector>

#include "libtrace/foz/stat.hpp"
#include "core/json_util.hpp"
#include "core/text_util.hpp"

namespace libtrace::foz {

namespace {

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

std::string format_foz_stats_table(const FozStats& s) {
  std::string o;
  char line[512];
  auto row = [&](const char* key, const std::string& value) {
    std::snprintf(line, sizeof line, "%-22s %s\n", key, value.c_str());
    o += line;
  };
  row("file", s.file);
  row("format", "Fossilize archive (.foz), version " + std::to_string(s.version));
  row("size", human_bytes(s.file_bytes) + " (" + std::to_string(s.file_bytes) + " bytes)");
  std::string entries = std::to_string(s.entries);
  if (s.duplicates) entries += ", " + std::to_string(s.duplicates) + " duplicates ignored";
  if (s.unknown_tags) entries += ", " + std::to_string(s.unknown_tags) + " with unknown tags skipped";
  row("entries", entries);
  std::snprintf(line, sizeof line, " (ratio %.2f)", ratio(s.uncompressed_bytes(), s.stored_bytes()));
  row("payloads", human_bytes(s.stored_bytes()) + " stored, " + human_bytes(s.uncompressed_bytes()) + " uncompressed" + line);
  const auto modules = s.per_tag[static_cast<std::size_t>(Tag::shader_module)].entries;
  row("SPIR-V", human_bytes(s.spirv_bytes) + " in " + std::to_string(modules) + " shader modules");
  row("torn tail", s.torn ? "yes: the last entry at offset " + std::to_string(s.valid_end) + " is incomplete (" +
                                s.torn_reason + "); readers drop it"
                          : "no");
  if (s.error) row("stopped", std::string(s.error->what()) + " (the figures cover the entries before)");
  row("CRC failures", std::to_string(s.crc_failures));
  if (s.bad_entries.size() != s.crc_failures) row("other bad entries", std::to_string(s.bad_entries.size() - s.crc_failures));
  if (!s.json_errors.empty()) row("payloads not JSON", std::to_string(s.json_errors.size()) + " (a replayer would reject them)");
  row("dangling references", std::to_string(s.dangling.size()) +
                                 (s.dangling_links ? " (and " + std::to_string(s.dangling_links) + " links to missing objects)" : ""));

  o += "\ntag                      entries       stored  uncompressed  ratio   zlib    crc\n";
  for (std::size_t t = 0; t < kTagCount; ++t) {
    const TagStats& ts = s.per_tag[t];
    if (!ts.entries) continue;
    std::snprintf(line, sizeof line, "%-22s %9llu %12s %13s %6.2f %6llu %6llu\n",
                  std::string(tag_name(static_cast<Tag>(t))).c_str(), static_cast<unsigned long long>(ts.entries),
                  human_bytes(ts.stored_bytes).c_str(), human_bytes(ts.uncompressed_bytes).c_str(),
                  ratio(ts.uncompressed_bytes, ts.stored_bytes), static_cast<unsigned long long>(ts.zlib_entries),
                  static_cast<unsigned long long>(ts.crc_entries));
    o += line;
  }
  if (!s.applications.empty()) {
    o += "\napplication       graphics  compute  raytracing   links  name\n";
    for (const AppStats& a : s.applications) {
      std::snprintf(line, sizeof line, "%s %9llu %8llu %11llu %7llu  %s\n", hash_hex(a.hash).c_str(),
                    static_cast<unsigned long long>(a.graphics), static_cast<unsigned long long>(a.compute),
                    static_cast<unsigned long long>(a.raytracing), static_cast<unsigned long long>(a.links),
                    app_label(a).c_str());
      o += line;
    }
  }
  if (!s.dangling.empty()) {
    o += "\nmissing entry                            named by (first of N)\n";
    for (const Dangling& d : s.dangling) {
      std::snprintf(line, sizeof line, "%-40s %s (%llu)\n", describe_entry(d.tag, d.hash).c_str(),
                    describe_entry(d.from_tag, d.from_hash).c_str(), static_cast<unsigned long long>(d.referrers));
      o += line;
    }
  }
  if (!s.bad_entries.empty() || !s.json_errors.empty()) {
    o += "\nbad entry                                offset  problem\n";
    std::vector<const BadEntry*> all;
    for (const BadEntry& b : s.bad_entries) all.push_back(&b);
    for (const BadEntry& b : s.json_errors) all.push_back(&b);
    for (const BadEntry* pb : all) {
      const BadEntry& b = *pb;
      std::snprintf(line, sizeof line, "%-40s %6llu  %s\n", describe_entry(b.tag, b.hash).c_str(),
                    static_cast<unsigned long long>(b.offset), b.why.c_str());
      o += line;
    }
  }
  return o;
}

std::string format_foz_stats_json(const FozStats& s) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  auto str = [&](std::string_view v) { detail::put_text(w, v); };
  auto key_str = [&](const char* k, const std::string& v) {
    w.Key(k);
    str(v);
  };
  auto key_u64 = [&](const char* k, std::uint64_t v) {
    w.Key(k);
    w.Uint64(v);
  };
  w.StartObject();
  key_str("format", "foz");
  key_str("file", s.file);
  key_u64("version", s.version);
  key_u64("file_bytes", s.file_bytes);
  key_u64("entries", s.entries);
  w.Key("entries_per_tag");
  w.StartObject();
  for (std::size_t t = 0; t < kTagCount; ++t) key_u64(std::string(tag_name(static_cast<Tag>(t))).c_str(), s.per_tag[t].entries);
  w.EndObject();
  key_u64("duplicates", s.duplicates);
  key_u64("unknown_tag_entries", s.unknown_tags);
  key_u64("stored_bytes", s.stored_bytes());
  key_u64("uncompressed_bytes", s.uncompressed_bytes());
  w.Key("compression_ratio");
  w.Double(ratio(s.uncompressed_bytes(), s.stored_bytes()));
  w.Key("per_tag");
  w.StartObject();
  for (std::size_t t = 0; t < kTagCount; ++t) {
    const TagStats& ts = s.per_tag[t];
    w.Key(std::string(tag_name(static_cast<Tag>(t))).c_str());
    w.StartObject();
    key_u64("entries", ts.entries);
    key_u64("stored_bytes", ts.stored_bytes);
    key_u64("uncompressed_bytes", ts.uncompressed_bytes);
    key_u64("zlib_entries", ts.zlib_entries);
    key_u64("crc_entries", ts.crc_entries);
    w.EndObject();
  }
  w.EndObject();
  key_u64("spirv_bytes", s.spirv_bytes);
  w.Key("applications");
  w.StartArray();
  for (const AppStats& a : s.applications) {
    w.StartObject();
    key_str("hash", hash_hex(a.hash));
    if (a.has_info) {
      key_str("name", a.name);
      key_str("engine", a.engine);
    }
    key_u64("graphics_pipelines", a.graphics);
    key_u64("compute_pipelines", a.compute);
    key_u64("raytracing_pipelines", a.raytracing);
    key_u64("links", a.links);
    w.EndObject();
  }
  w.EndArray();
  w.Key("dangling_references");
  w.StartArray();
  for (const Dangling& d : s.dangling) {
    w.StartObject();
    key_str("tag", std::string(tag_name(d.tag)));
    key_str("hash", hash_hex(d.hash));
    key_str("referenced_by_tag", std::string(tag_name(d.from_tag)));
    key_str("referenced_by_hash", hash_hex(d.from_hash));
    key_u64("referrers", d.referrers);
    w.EndObject();
  }
  w.EndArray();
  key_u64("dangling_links", s.dangling_links);
  w.Key("torn_tail");
  w.Bool(s.torn);
  if (s.torn) {
    key_u64("torn_offset", s.valid_end);
    key_str("torn_reason", s.torn_reason);
  }
  key_u64("crc_failures", s.crc_failures);
  auto bad_list = [&](const char* k, const std::vector<BadEntry>& list) {
    w.Key(k);
    w.StartArray();
    for (const BadEntry& b : list) {
      w.StartObject();
      key_u64("offset", b.offset);
      key_str("tag", std::string(tag_name(b.tag)));
      key_str("hash", hash_hex(b.hash));
      key_str("error", b.why);
      w.EndObject();
    }
    w.EndArray();
  };
  bad_list("bad_entries", s.bad_entries);
  bad_list("json_errors", s.json_errors);
  if (s.error) key_str("error", s.error->what());
  w.EndObject();
  return std::string(sb.GetString(), sb.GetSize()) + "\n";
}

}  // namespace libtrace::foz
