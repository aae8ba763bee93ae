// SPDX-License-Identifier: MIT
// .foz -> JSON: a directory of per-entry files (the payloads as they are, like
// fossilize-convert-db) or one whole-state document, every entry parsed
// through the object model on the way.
#include "libtrace/foz/convert.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>

#include "foz/convert_util.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/core/temp_file.hpp"
#include "libtrace/foz/object.hpp"

namespace libtrace::foz {

namespace detail {

void write_file_atomically(const std::string& path, std::string_view bytes) {
  TempFile f(path);
  write_all(f.fd(), bytes.data(), bytes.size(), path, "cannot write");
  f.commit(path);
}

void make_directory(const std::string& path) {
  if (::mkdir(path.c_str(), 0777) == 0) return;
  struct stat st;
  if (errno == EEXIST && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  throw_errno(path, "cannot create directory");
}

void HashChecker::check(const Object& o, Tag tag, Hash hash, const std::string& where) {
  // A JSON key is the hash the replayer registers: it must be the entry's.
  if (o.tag != tag)
    fail(where, "the entry is named " + std::string(tag_name(tag)) + " but holds " + std::string(tag_name(o.tag)));
  if (tag != Tag::application_info && tag != Tag::application_blob_link && tag != Tag::bucket_info && o.hash != hash)
    fail(where, "the JSON key is " + hash_hex(o.hash) + ", not the entry's hash " + hash_hex(hash));
  if (!enabled) return;
  const Hash h = compute_hash(o, lookup, where);
  if (h != hash) fail(where, "hash mismatch: the object hashes to " + hash_hex(h));
  ++checked;
}

}  // namespace detail

namespace {

using detail::fail;

constexpr std::uint64_t kProgressEvery = 256;

// Render passes parsed on demand, for hashing graphics pipelines.
class RenderPassCache {
 public:
  explicit RenderPassCache(const ArchiveReader* reader) : reader_(reader) {}
  void remember(const Object& o, std::string_view payload, const std::string& where) {
    if (o.tag == Tag::render_pass && !passes_.count(o.hash))
      passes_.emplace(o.hash, parse_payload(payload, arena_, where));
  }
  const Object* find(Hash h) {
    if (auto it = passes_.find(h); it != passes_.end()) return &it->second;
    const Entry* e = reader_ ? reader_->find(Tag::render_pass, h) : nullptr;
    if (!e) return nullptr;
    std::vector<std::uint8_t> bytes;
    reader_->read_payload(*e, bytes);
    const std::string where = reader_->where(*e);
    return &passes_
                .emplace(h, parse_payload({reinterpret_cast<const char*>(bytes.data()), bytes.size()}, arena_, where))
                .first->second;
  }

 private:
  const ArchiveReader* reader_;
  Arena arena_;
  std::map<Hash, Object> passes_;
};

// A pipe copied to a temporary file, removed again at scope exit.
class SpooledInput {
 public:
  explicit SpooledInput(InputFile& in) : name_(in.name()) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/trak-foz-XXXXXX";
    const int fd = ::mkstemp(path_.data());
    if (fd < 0) throw_errno(path_, "cannot create a temporary file for the piped archive");
    struct Close {
      int fd;
      ~Close() { ::close(fd); }
    } guard{fd};
    char buf[1 << 16];
    while (const std::size_t n = in.read(buf, sizeof buf)) write_all(fd, buf, n, path_, "cannot write");
  }
  ~SpooledInput() { ::unlink(path_.c_str()); }
  SpooledInput(const SpooledInput&) = delete;
  SpooledInput& operator=(const SpooledInput&) = delete;
  const std::string& path() const { return path_; }
  // Messages name the pipe, not the temporary.
  std::string rename(std::string s) const {
    for (std::size_t at; (at = s.find(path_)) != std::string::npos;) s.replace(at, path_.size(), name_);
    return s;
  }

 private:
  std::string name_, path_;
};

std::string_view as_text(const std::vector<std::uint8_t>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size()};
}

// A pipe: one pass in file order, first copy of each key, files only.
FozConvertResult pipe_to_directory(const FozToJsonOptions& opt, InputFile& in) {
  FozConvertResult r;
  ScanOptions so;
  so.warnings = opt.warnings;
  ArchiveScanner scanner(in, so);
  detail::make_directory(opt.output);
  RenderPassCache passes(nullptr);
  detail::HashChecker checker{opt.check_hashes,
                              [&](Tag t, Hash h) { return t == Tag::render_pass ? passes.find(h) : nullptr; }};
  std::map<std::pair<std::uint64_t, Hash>, bool> seen;
  Arena arena;
  ScannedEntry e;
  std::vector<std::uint8_t> payload;
  while (scanner.next(e)) {
    if (!e.known_tag() || !seen.emplace(std::make_pair(e.tag_value, e.hash), true).second) continue;
    const std::string where = at_offset(scanner.name(), e.offset) + ": " + describe_entry(e.tag(), e.hash);
    decode_payload(e.header, e.stored, payload, where);
    arena.reset();
    const Object o = detail::parse_entry(e.tag(), e.hash, as_text(payload), arena, where);
    passes.remember(o, as_text(payload), where);
    checker.check(o, e.tag(), e.hash, where);
    detail::write_file_atomically(opt.output + "/" + json_entry_name(e.tag(), e.hash) + ".json", as_text(payload));
    ++r.entries;
    if (opt.progress && r.entries % kProgressEvery == 0) opt.progress(in.offset(), 0);
  }
  r.hashes_checked = checker.checked;
  return r;
}

}  // namespace

FozConvertResult foz_to_json(const FozToJsonOptions& opt, InputFile& in) {
  if (is_stdio(opt.input)) {
    if (opt.layout == JsonLayout::directory) return pipe_to_directory(opt, in);
    // A document is written tag by tag, which needs random access: the pipe
    // goes to a temporary file first (disk, not memory).
    SpooledInput spool(in);
    FozToJsonOptions o = opt;
    o.input = spool.path();
    try {
      return foz_to_json(o, in);
    } catch (const Error& e) {
      throw Error(e.code(), spool.rename(e.where()), spool.rename(e.message()));
    }
  }
  ReadOptions ro;
  ro.warnings = opt.warnings;
  if (opt.warnings && in.name() != opt.input)
    ro.warnings = [&](const std::string& where, const std::string& why) {
      opt.warnings(where.starts_with(opt.input) ? in.name() + where.substr(opt.input.size()) : where, why);
    };
  const ArchiveReader reader(opt.input, ro);
  RenderPassCache passes(&reader);
  detail::HashChecker checker{opt.check_hashes,
                              [&](Tag t, Hash h) { return t == Tag::render_pass ? passes.find(h) : nullptr; }};
  FozConvertResult r;
  Arena arena;
  std::vector<std::uint8_t> payload;
  const std::uint64_t total = reader.summary().file_size;
  std::uint64_t done = 0;
  // Parses and checks one entry; the payload stays in `payload`.
  const auto load = [&](const Entry& e) -> Object {
    const std::string where = reader.where(e);
    reader.read_payload(e, payload);
    arena.reset();
    Object o = detail::parse_entry(e.tag, e.hash, as_text(payload), arena, where);
    checker.check(o, e.tag, e.hash, where);
    ++r.entries;
    done += kEntryHeaderSize + e.header.stored_size;
    if (opt.progress && r.entries % kProgressEvery == 0) opt.progress(done, total);
    return o;
  };

  if (opt.layout == JsonLayout::directory) {
    detail::make_directory(opt.output);
    for (const Entry& e : reader.entries()) {
      load(e);
      detail::write_file_atomically(opt.output + "/" + json_entry_name(e.tag, e.hash) + ".json", as_text(payload));
    }
  } else {
    OutputFile out(opt.output);
    DocumentWriter doc([&](std::string_view bytes) { out.write(bytes.data(), bytes.size()); });
    bool between_objects = true;
    try {
      for (unsigned t = 0; t < kTagCount; ++t) {
        for (Hash h : reader.hashes(static_cast<Tag>(t))) {
          const Entry& e = *reader.find(static_cast<Tag>(t), h);
          Object o = load(e);
          // Application infos are keyed by their entry (a custom hash stays).
          o.hash = e.hash;
          between_objects = false;
          doc.add(o, reader.where(e));
          between_objects = true;
        }
      }
      doc.finish();
      out.commit();
    } catch (const Error& e) {
      // What was converted stays a valid document when the failure came
      // between objects (a bad entry); inside one, the text just stops.
      if (between_objects) {
        try {
          doc.finish();
        } catch (const Error&) {
        }
      }
      const std::string partial = out.keep_partial();
      if (partial.empty()) throw;
      throw Error(e.code(), e.where(), e.message() + " (output so far kept in " + partial + ")");
    }
  }
  if (opt.progress) opt.progress(total, total);
  r.hashes_checked = checker.checked;
  return r;
}

}  // namespace libtrace::foz
