// SPDX-License-Identifier: MIT
// JSON -> .foz: a directory of per-entry files (each stored as it is, after
// the object model accepted it) or a whole-state document (each object
// written in Fossilize's payload layout).
#include <algorithm>
#include <filesystem>
#include <map>

#include "foz_convert_util.hpp"
#include "libtrace/foz_convert.hpp"
#include "libtrace/foz_object.hpp"
#include "libtrace/io.hpp"

namespace libtrace::foz {

namespace {

using detail::fail;

std::string read_all(InputFile& in) {
  std::string s;
  char buf[1 << 16];
  while (const std::size_t n = in.read(buf, sizeof buf)) s.append(buf, n);
  return s;
}

std::string read_all(const std::string& path) {
  InputFile in(path);
  return read_all(in);
}

std::span<const std::uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// "06.e3b925b0c1c00de1.json" -> tag and hash.
bool parse_entry_file_name(const std::string& name, Tag& tag, Hash& hash) {
  if (name.size() != 2 + 1 + 16 + 5 || name[2] != '.' || name.substr(19) != ".json") return false;
  const auto t = parse_hash("00000000000000" + name.substr(0, 2));
  const auto h = parse_hash(name.substr(3, 16));
  if (!t || !h || *t >= kTagCount) return false;
  tag = static_cast<Tag>(*t);
  hash = *h;
  return true;
}

using EntryFiles = std::vector<std::pair<std::string, std::pair<Tag, Hash>>>;

// The entry files of a directory, sorted (tag, then hash); checked before any
// output exists.
EntryFiles list_entry_files(const JsonToFozOptions& opt) {
  EntryFiles files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(opt.input, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    Tag tag;
    Hash hash;
    if (parse_entry_file_name(name, tag, hash)) {
      files.push_back({name, {tag, hash}});
    } else if (name.ends_with(".json")) {
      fail(opt.input + "/" + name, "not an entry file name (TT.HHHHHHHHHHHHHHHH.json with a known tag)");
    } else if (opt.warnings) {
      opt.warnings(opt.input + "/" + name, "skipped: not a .json entry file");
    }
  }
  if (ec) throw Error(Errc::io, opt.input, "cannot list the directory: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

void from_directory(const JsonToFozOptions& opt, const EntryFiles& files, ArchiveWriter& writer, FozConvertResult& r) {
  Arena arena, pass_arena;
  std::map<Hash, Object> passes;
  std::vector<std::string> pass_text;
  const Lookup lookup = [&](Tag t, Hash h) -> const Object* {
    if (t != Tag::render_pass) return nullptr;
    if (auto it = passes.find(h); it != passes.end()) return &it->second;
    const std::string path = opt.input + "/" + json_entry_name(Tag::render_pass, h) + ".json";
    if (!std::filesystem::exists(path)) return nullptr;
    pass_text.push_back(read_all(path));
    return &passes.emplace(h, parse_payload(pass_text.back(), pass_arena, path)).first->second;
  };
  detail::HashChecker checker{opt.check_hashes, lookup};
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& [name, key] = files[i];
    const std::string path = opt.input + "/" + name;
    const std::string text = read_all(path);
    arena.reset();
    const Object o = detail::parse_entry(key.first, key.second, text, arena, path);
    checker.check(o, key.first, key.second, path);
    // The file's bytes are the payload: a round trip keeps them exactly.
    if (writer.write(key.first, key.second, as_bytes(text), opt.encode)) ++r.entries;
    if (opt.progress) opt.progress(i + 1, files.size());
  }
  r.hashes_checked = checker.checked;
}

void from_document(const JsonToFozOptions& opt, InputFile& in, ArchiveWriter& writer, FozConvertResult& r) {
  const std::string text = read_all(in);
  Arena arena;
  const std::vector<Object> objects = parse_document(text, arena, in.name());
  std::map<Hash, const Object*> passes;
  for (const Object& o : objects)
    if (o.tag == Tag::render_pass) passes.emplace(o.hash, &o);
  detail::HashChecker checker{opt.check_hashes, [&](Tag t, Hash h) -> const Object* {
                                const auto it = passes.find(h);
                                return t == Tag::render_pass && it != passes.end() ? it->second : nullptr;
                              }};
  // Tag then hash order, as a directory's file names sort: both inputs give
  // the same archive.
  std::vector<std::size_t> order(objects.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(objects[a].tag, objects[a].hash) < std::pair(objects[b].tag, objects[b].hash);
  });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Object& o = objects[order[i]];
    const std::string where = in.name() + ": " + describe_entry(o.tag, o.hash);
    checker.check(o, o.tag, o.hash, where);
    const std::string payload = serialize_payload(o, where);
    if (writer.write(o.tag, o.hash, as_bytes(payload), opt.encode)) ++r.entries;
    if (opt.progress) opt.progress(i + 1, objects.size());
  }
  r.hashes_checked = checker.checked;
}

}  // namespace

bool looks_like_json(std::string_view head) {
  for (char c : head) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{';
  }
  return false;
}

FozConvertResult json_to_foz(const JsonToFozOptions& opt, InputFile* in) {
  const EntryFiles files = in ? EntryFiles{} : list_entry_files(opt);
  ArchiveWriter writer(opt.output, WriteMode::overwrite);
  FozConvertResult r;
  try {
    if (in) from_document(opt, *in, writer, r);
    else from_directory(opt, files, writer, r);
    writer.commit();
  } catch (const Error& e) {
    const std::string partial = writer.keep_partial();
    if (partial.empty()) throw;
    throw Error(e.code(), e.where(), e.message() + " (entries so far kept in " + partial + ")");
  }
  return r;
}

}  // namespace libtrace::foz
