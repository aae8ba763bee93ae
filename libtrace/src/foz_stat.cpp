// SPDX-License-Identifier: MIT
// foz_stats: one pass over an archive, payloads checked and peeked into.
#include "libtrace/foz_stat.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "foz_peek.hpp"

namespace libtrace::foz {

namespace {

struct Target {
  std::uint64_t referrers = 0;
  Tag from_tag = Tag::application_info;
  std::uint64_t from_hash = 0;
};

constexpr std::uint64_t kProgressStep = 1 << 20;

}  // namespace

std::uint64_t FozStats::stored_bytes() const {
  std::uint64_t n = 0;
  for (const auto& t : per_tag) n += t.stored_bytes;
  return n;
}

std::uint64_t FozStats::uncompressed_bytes() const {
  std::uint64_t n = 0;
  for (const auto& t : per_tag) n += t.uncompressed_bytes;
  return n;
}

FozStats foz_stats(InputFile& in, const FozStatOptions& opt) {
  FozStats s;
  s.file = in.name();
  std::array<std::unordered_set<std::uint64_t>, kTagCount> seen;
  std::array<std::unordered_map<std::uint64_t, Target>, kTagCount> targets;
  std::map<std::uint64_t, AppStats> apps;
  struct Link {
    std::uint64_t tag, hash;
  };
  std::vector<Link> links;
  std::vector<std::uint8_t> payload;
  detail::Peeked peek;
  std::uint64_t next_progress = kProgressStep;
  try {
    ScanOptions so;
    so.warnings = opt.warnings;
    ArchiveScanner scanner(in, so);
    s.version = scanner.version();
    ScannedEntry e;
    while (scanner.next(e)) {
      if (opt.progress && in.offset() >= next_progress) {
        opt.progress(in.offset(), in.size());
        next_progress = in.offset() + kProgressStep;
      }
      if (!e.known_tag()) continue;
      const Tag tag = e.tag();
      const auto t = static_cast<std::size_t>(tag);
      if (!seen[t].insert(e.hash).second) {
        ++s.duplicates;
        continue;
      }
      TagStats& ts = s.per_tag[t];
      ++ts.entries;
      ts.stored_bytes += e.header.stored_size;
      ts.uncompressed_bytes += e.header.uncompressed_size;
      if (e.header.format == static_cast<std::uint32_t>(PayloadFormat::zlib)) ++ts.zlib_entries;
      if (e.header.crc) ++ts.crc_entries;
      try {
        const std::string where = at_offset(s.file, e.offset) + ": " + describe_entry(tag, e.hash);
        try {
          decode_payload(e.header, e.stored, payload, where);
        } catch (const Error& err) {
          if (err.message().starts_with("CRC mismatch")) ++s.crc_failures;
          s.bad_entries.push_back(BadEntry{e.offset, tag, e.hash, err.message(), err.message().starts_with("CRC mismatch")});
          continue;
        }
        detail::peek_payload(tag, payload, peek, where);
      } catch (const Error& err) {
        s.bad_entries.push_back(BadEntry{e.offset, tag, e.hash, err.message(), false});
        continue;
      }
      for (const detail::Ref& r : peek.refs) {
        Target& tg = targets[static_cast<std::size_t>(r.tag)][r.hash];
        if (tg.referrers++ == 0) {
          tg.from_tag = tag;
          tg.from_hash = e.hash;
        }
      }
      switch (tag) {
        case Tag::shader_module:
          s.spirv_bytes += peek.code_size;
          break;
        case Tag::application_info: {
          AppStats& a = apps[e.hash];
          a.has_info = true;
          a.name = peek.application_name;
          a.engine = peek.engine_name;
          break;
        }
        case Tag::application_blob_link: {
          if (!peek.link_ok) break;
          AppStats& a = apps[peek.link_application];
          ++a.links;
          if (peek.link_tag == static_cast<std::uint64_t>(Tag::graphics_pipeline)) ++a.graphics;
          if (peek.link_tag == static_cast<std::uint64_t>(Tag::compute_pipeline)) ++a.compute;
          if (peek.link_tag == static_cast<std::uint64_t>(Tag::raytracing_pipeline)) ++a.raytracing;
          links.push_back(Link{peek.link_tag, peek.link_hash});
          break;
        }
        default:
          break;
      }
    }
    const ScanSummary& sum = scanner.summary();
    s.file_bytes = sum.file_size;
    s.unknown_tags = sum.unknown_tags;
    s.torn = sum.torn;
    s.valid_end = sum.valid_end;
    s.torn_reason = sum.torn_reason;
  } catch (const Error& err) {
    s.error = err;
    s.file_bytes = in.offset();
  }
  for (auto& [h, a] : apps) {
    a.hash = h;
    s.applications.push_back(std::move(a));
  }
  for (std::size_t t = 0; t < kTagCount; ++t)
    for (const auto& [h, tg] : targets[t])
      if (!seen[t].count(h)) s.dangling.push_back(Dangling{static_cast<Tag>(t), h, tg.from_tag, tg.from_hash, tg.referrers});
  std::sort(s.dangling.begin(), s.dangling.end(), [](const Dangling& a, const Dangling& b) {
    return a.tag != b.tag ? a.tag < b.tag : a.hash < b.hash;
  });
  for (const Link& l : links)
    if (l.tag >= kTagCount || !seen[l.tag].count(l.hash)) ++s.dangling_links;
  for (const auto& ts : s.per_tag) s.entries += ts.entries;
  if (opt.progress && !s.error) opt.progress(in.offset(), in.offset());
  return s;
}

}  // namespace libtrace::foz
