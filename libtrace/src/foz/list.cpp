// SPDX-License-Identifier: MIT
// list_entries: the keys of an archive, as fossilize-list prints them.
#include <algorithm>

#include "core/report.hpp"
#include "foz/keys.hpp"
#include "libtrace/foz/stat.hpp"

namespace libtrace::foz {

namespace {

constexpr std::uint64_t kProgressStep = 1 << 20;

FozList scan_list(ArchiveScanner& scanner, const FozListOptions& opt) {
  FozList l;
  l.file = scanner.name();
  l.version = scanner.version();
  l.only = opt.only;
  detail::KeySet seen;
  ProgressEvery progress(opt.progress, kProgressStep);
  try {
    ScannedEntry e;
    while (scanner.next(e)) {
      progress(scanner.offset(), scanner.size());
      if (!e.known_tag()) continue;
      // Duplicates are counted across every tag, kept or not, as trak-stat counts them.
      if (!seen.try_emplace(e.tag(), e.hash).second) {
        ++l.duplicates;
        continue;
      }
      if (opt.only && *opt.only != e.tag()) continue;
      l.entries.push_back(ListedEntry{e.tag(), e.hash, e.offset, e.header});
    }
    l.unknown_tags = scanner.summary().unknown_tags;
    l.torn = scanner.summary().torn;
  } catch (const Error& err) {
    l.error = err;
  }
  std::sort(l.entries.begin(), l.entries.end(), [](const ListedEntry& a, const ListedEntry& b) {
    return a.tag != b.tag ? a.tag < b.tag : a.hash < b.hash;
  });
  if (opt.progress && !l.error) opt.progress(scanner.offset(), scanner.offset());
  return l;
}

}  // namespace

FozList list_entries(InputFile& in, const FozListOptions& opt) {
  ArchiveScanner scanner(in, ScanOptions{true, opt.warnings});
  return scan_list(scanner, opt);
}

FozList list_entries(const std::string& path, const FozListOptions& opt) {
  ArchiveScanner scanner(path, ScanOptions{true, opt.warnings});
  return scan_list(scanner, opt);
}

std::string report_list(const FozList& l) {
  std::string o;
  o.reserve(l.entries.size() * 40);
  for (const ListedEntry& e : l.entries) o.append(tag_name(e.tag)).append(" ").append(hash_hex(e.hash)).append("\n");
  return o;
}

std::string report_list_json(const FozList& l) {
  libtrace::detail::JsonReport report;
  report.object([&] {
    report.members("format", "foz", "file", l.file, "version", l.version);
    if (l.only)
      report.text("tag", tag_name(*l.only));
    else
      report.null("tag");
    report.objects("entries", l.entries, [&](const ListedEntry& e) {
      report.members("tag", tag_name(e.tag), "hash", hash_hex(e.hash), "offset", e.offset, "stored_bytes",
                     e.header.stored_size, "bytes", e.header.uncompressed_size);
    });
    report.members("duplicates", l.duplicates, "unknown_tag_entries", l.unknown_tags, "torn_tail", l.torn);
    if (l.error)
      report.text("error", l.error->what());
    else
      report.null("error");
  });
  return report.finish();
}

}  // namespace libtrace::foz
