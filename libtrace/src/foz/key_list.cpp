// SPDX-License-Identifier: MIT
// Keep and skip lists for pruning: text, or the keys of a .foz archive.
#include <cstring>
#include <fstream>

#include "libtrace/foz/merge.hpp"

namespace libtrace::foz {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool is_archive(std::ifstream& f) {
  char head[kMagic.size()] = {};
  f.read(head, sizeof head);
  const bool archive =
      f.gcount() == static_cast<std::streamsize>(sizeof head) && std::memcmp(head, kMagic.data(), sizeof head) == 0;
  f.clear();
  f.seekg(0);
  return archive;
}

bool keep_takes(Tag t) {
  return t == Tag::shader_module || t == Tag::graphics_pipeline || t == Tag::compute_pipeline ||
         t == Tag::raytracing_pipeline;
}

void read_archive_keys(const std::string& path, TagHashSets& sets, KeyList use, const WarningSink& warnings) {
  ArchiveScanner scanner(path, ScanOptions{false, warnings});
  ScannedEntry e;
  while (scanner.next(e))
    if (e.known_tag() && (use == KeyList::skip || keep_takes(e.tag())))
      sets[static_cast<std::size_t>(e.tag())].insert(e.hash);
}

}  // namespace

void read_key_list(const std::string& path, TagHashSets& sets, KeyList use, const WarningSink& warnings) {
  std::ifstream f(path);
  if (!f) throw_errno(path);
  if (is_archive(f)) return read_archive_keys(path, sets, use, warnings);
  std::string line;
  std::uint64_t n = 0;
  while (std::getline(f, line)) {
    ++n;
    const std::string where = path + ": line " + std::to_string(n);
    std::string s = trim(line.substr(0, line.find('#')));
    if (s.empty()) continue;
    std::optional<Tag> tag;
    std::optional<std::uint64_t> hash;
    const auto sp = s.find_first_of(" \t");
    if (sp == std::string::npos && s.size() == kNameSize) {
      // An entry name: 24 tag digits, 16 hash digits.
      const auto t = parse_hash(s.substr(8, 16));
      if (t && *t < kTagCount) tag = static_cast<Tag>(*t);
      hash = parse_hash(s.substr(24));
    } else if (sp != std::string::npos) {
      tag = parse_tag(s.substr(0, sp));
      hash = parse_hash(trim(s.substr(sp)));
    }
    if (!tag || !hash)
      throw Error(Errc::bad_record, where,
                  "expected \"TAG HASH\" (a tag name or number, 16 hex digits) or a 40-digit entry name");
    sets[static_cast<std::size_t>(*tag)].insert(*hash);
  }
  if (f.bad()) throw_errno(path, "read");
}

}  // namespace libtrace::foz
