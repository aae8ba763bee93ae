// SPDX-License-Identifier: MIT
// JSON -> .foz: a directory of per-entry files (each stored as it is, after
// the object model accepted it) or a whole-state document (each object
// written in Fossilize's payload layout).
#include <algorithm>
#include <filesystem>
#include <map>
#include <thread>

#include "foz/convert_util.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/foz/convert.hpp"
#include "libtrace/foz/object.hpp"

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

// Compresses payloads in batches on all cores and writes them in order:
// zlib level 9, as convert-db writes, is most of the work otherwise.
class BatchWriter {
 public:
  BatchWriter(ArchiveWriter& w, const EncodeOptions& opt) : w_(w), opt_(opt) {
    threads_ = std::max(1u, std::thread::hardware_concurrency());
  }
  void add(Tag tag, Hash hash, std::string_view payload) {
    if (used_ == jobs_.size()) jobs_.emplace_back();
    Job& j = jobs_[used_++];
    j.tag = tag;
    j.hash = hash;
    j.payload.assign(payload.begin(), payload.end());
    bytes_ += payload.size();
    if (used_ == kBatchEntries || bytes_ >= kBatchBytes) flush();
  }
  // Writes what is queued; returns how many entries were new.
  std::uint64_t flush() {
    const auto encode = [&](std::size_t first) {
      for (std::size_t i = first; i < used_; i += threads_)
        jobs_[i].header =
            encode_payload({reinterpret_cast<const std::uint8_t*>(jobs_[i].payload.data()), jobs_[i].payload.size()},
                           opt_, jobs_[i].stored);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::min<std::size_t>(threads_, used_); ++t) pool.emplace_back(encode, t);
    encode(0);
    for (auto& t : pool) t.join();
    for (std::size_t i = 0; i < used_; ++i)
      if (w_.write_raw(jobs_[i].tag, jobs_[i].hash, jobs_[i].header, jobs_[i].stored)) ++written_;
    used_ = bytes_ = 0;
    return written_;
  }
  std::uint64_t written() const { return written_; }

 private:
  static constexpr std::size_t kBatchEntries = 512;
  static constexpr std::size_t kBatchBytes = 8 << 20;
  struct Job {
    Tag tag;
    Hash hash;
    std::string payload;
    std::vector<std::uint8_t> stored;
    PayloadHeader header;
  };
  ArchiveWriter& w_;
  EncodeOptions opt_;
  unsigned threads_;
  std::vector<Job> jobs_;
  std::size_t used_ = 0, bytes_ = 0;
  std::uint64_t written_ = 0;
};

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

void from_directory(const JsonToFozOptions& opt, const EntryFiles& files, BatchWriter& writer, FozConvertResult& r) {
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
    writer.add(key.first, key.second, text);
    if (opt.progress) opt.progress(i + 1, files.size());
  }
  r.hashes_checked = checker.checked;
}

void from_document(const JsonToFozOptions& opt, InputFile& in, BatchWriter& writer, FozConvertResult& r) {
  const std::string text = read_all(in);
  const DocumentIndex index(text, in.name());
  // Tag then hash order, as a directory's file names sort: both inputs give
  // the same archive.
  std::vector<const DocumentEntry*> order;
  std::map<Hash, const DocumentEntry*> pass_entries;
  for (const DocumentEntry& e : index.entries()) {
    order.push_back(&e);
    if (e.tag == Tag::render_pass) pass_entries.emplace(e.hash, &e);
  }
  std::sort(order.begin(), order.end(), [](const DocumentEntry* a, const DocumentEntry* b) {
    return std::pair(a->tag, a->hash) < std::pair(b->tag, b->hash);
  });
  Arena arena, pass_arena;
  std::map<Hash, Object> passes;
  detail::HashChecker checker{opt.check_hashes, [&](Tag t, Hash h) -> const Object* {
                                if (t != Tag::render_pass) return nullptr;
                                if (auto it = passes.find(h); it != passes.end()) return &it->second;
                                const auto e = pass_entries.find(h);
                                if (e == pass_entries.end()) return nullptr;
                                return &passes.emplace(h, index.parse(*e->second, pass_arena)).first->second;
                              }};
  for (std::size_t i = 0; i < order.size(); ++i) {
    arena.reset();
    const Object o = index.parse(*order[i], arena);
    const std::string where = in.name() + ": " + describe_entry(o.tag, o.hash);
    checker.check(o, o.tag, o.hash, where);
    writer.add(o.tag, o.hash, serialize_payload(o, where));
    if (opt.progress) opt.progress(i + 1, order.size());
  }
  r.hashes_checked = checker.checked;
}

}  // namespace

FozConvertResult json_to_foz(const JsonToFozOptions& opt, InputFile* in) {
  const EntryFiles files = in ? EntryFiles{} : list_entry_files(opt);
  ArchiveWriter writer(opt.output, WriteMode::overwrite);
  BatchWriter batches(writer, opt.encode);
  FozConvertResult r;
  try {
    if (in)
      from_document(opt, *in, batches, r);
    else
      from_directory(opt, files, batches, r);
    r.entries = batches.flush();
    writer.commit();
  } catch (const Error& e) {
    // Entries queued before the failing one are good.
    try {
      batches.flush();
    } catch (const Error&) {
    }
    const std::string partial = writer.keep_partial();
    if (partial.empty()) throw;
    throw Error(e.code(), e.where(), e.message() + " (entries so far kept in " + partial + ")");
  }
  return r;
}

}  // namespace libtrace::foz
