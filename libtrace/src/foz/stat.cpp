// SPDX-License-Identifier: MIT
// stats: one pass over an archive, payloads checked and peeked into.
#include "libtrace/foz/stat.hpp"

#include <algorithm>
#include <map>

#include "foz/internal.hpp"
#include "foz/keys.hpp"
#include "foz/peek.hpp"

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

namespace {

FozStats scan_stats(ArchiveScanner& scanner, const FozStatOptions& opt) {
  FozStats s;
  s.file = scanner.name();
  detail::KeySet seen;
  detail::KeyMap<Target> targets;
  std::map<std::uint64_t, AppStats> apps;
  struct Link {
    std::uint64_t tag, hash;
  };
  std::vector<Link> links;
  std::vector<std::uint8_t> payload;
  detail::Peeked peek;
  ProgressEvery progress(opt.progress, kProgressStep);
  s.version = scanner.version();
  try {
    ScannedEntry e;
    while (scanner.next(e)) {
      progress(scanner.offset(), scanner.size());
      if (!e.known_tag()) continue;
      const Tag tag = e.tag();
      const auto t = static_cast<std::size_t>(tag);
      if (!seen.try_emplace(tag, e.hash).second) {
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
        detail::decode_entry(e.header, e.stored, payload, s.file, e.offset, tag, e.hash);
      } catch (const Error& err) {
        const bool crc = err.message().starts_with("CRC mismatch");
        if (crc) ++s.crc_failures;
        s.bad_entries.push_back(BadEntry{e.offset, tag, e.hash, err.message(), crc});
        continue;
      }
      // Samplers, render passes and bucket infos name nothing: no need to look.
      if (tag == Tag::sampler || tag == Tag::render_pass || tag == Tag::bucket_info) continue;
      try {
        detail::peek_payload_in_place(tag, payload, peek, s.file);
      } catch (const Error& err) {
        s.json_errors.push_back(BadEntry{e.offset, tag, e.hash, err.message(), false});
        continue;
      }
      for (const detail::Ref& r : peek.refs) {
        Target& tg = *targets.try_emplace(r.tag, r.hash).first;
        if (tg.referrers++ == 0) {
          tg.from_tag = tag;
          tg.from_hash = e.hash;
        }
      }
      switch (tag) {
        case Tag::shader_module: s.spirv_bytes += peek.code_size; break;
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
        default: break;
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
    s.file_bytes = scanner.offset();
  }
  for (auto& [h, a] : apps) {
    a.hash = h;
    s.applications.push_back(std::move(a));
  }
  targets.for_each([&](Tag t, std::uint64_t h, const Target& tg) {
    if (!seen.contains(t, h)) s.dangling.push_back(Dangling{t, h, tg.from_tag, tg.from_hash, tg.referrers});
  });
  std::sort(s.dangling.begin(), s.dangling.end(),
            [](const Dangling& a, const Dangling& b) { return a.tag != b.tag ? a.tag < b.tag : a.hash < b.hash; });
  for (const Link& l : links)
    if (l.tag >= kTagCount || !seen.contains(static_cast<Tag>(l.tag), l.hash)) ++s.dangling_links;
  for (const auto& ts : s.per_tag) s.entries += ts.entries;
  if (opt.progress && !s.error) opt.progress(scanner.offset(), scanner.offset());
  return s;
}

ScanOptions scan_options(const FozStatOptions& opt) {
  ScanOptions so;
  so.warnings = opt.warnings;
  return so;
}

}  // namespace

FozStats stats(InputFile& in, const FozStatOptions& opt) {
  ArchiveScanner scanner(in, scan_options(opt));
  return scan_stats(scanner, opt);
}

FozStats stats(const std::string& path, const FozStatOptions& opt) {
  ArchiveScanner scanner(path, scan_options(opt));
  return scan_stats(scanner, opt);
}

}  // namespace libtrace::foz
