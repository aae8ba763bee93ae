// SPDX-License-Identifier: MIT
// merge_archives: raw copies in input order, first (tag, hash) wins, later
// copies compared with it; with pruning, an index pass decides first.
#include "libtrace/foz_merge.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <unordered_map>

#include "foz_prune.hpp"

namespace libtrace::foz {

namespace {

// Where the first copy of a key is: which source, at what offset.
struct Loc {
  std::uint32_t source = 0;
  std::uint64_t offset = 0;
  PayloadHeader header;
};

// A source opened for reads at offsets (comparisons of duplicates).
class Source {
 public:
  explicit Source(std::string name) : name_(std::move(name)) {
    if (is_stdio(name_)) throw Error(Errc::usage, "<stdin>", "trak-merge reads archives by offset: give files, not a pipe");
    fd_ = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw_errno(name_);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_errno(name_);
    if (S_ISDIR(st.st_mode)) throw Error(Errc::io, name_, "Is a directory");
    if (!S_ISREG(st.st_mode)) throw Error(Errc::usage, name_, "trak-merge reads archives by offset: give a regular file");
    dev_ = st.st_dev;
    ino_ = st.st_ino;
  }
  ~Source() {
    if (fd_ >= 0) ::close(fd_);
  }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  const std::string& name() const { return name_; }
  bool same_file(const struct stat& st) const { return st.st_dev == dev_ && st.st_ino == ino_; }

  void read_stored(const Loc& l, std::vector<std::uint8_t>& out) const {
    out.resize(l.header.stored_size);
    std::size_t got = 0;
    while (got < out.size()) {
      const ssize_t r = ::pread(fd_, out.data() + got, out.size() - got,
                                static_cast<off_t>(l.offset + kEntryHeaderSize + got));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) throw_errno(at_offset(name_, l.offset), "read");
      if (r == 0) throw Error(Errc::truncated, at_offset(name_, l.offset), "the file changed while it was merged");
      got += static_cast<std::size_t>(r);
    }
  }

 private:
  std::string name_;
  int fd_ = -1;
  dev_t dev_{};
  ino_t ino_{};
};

class Merger {
 public:
  explicit Merger(const MergeOptions& opt) : opt_(opt) {}

  MergeReport run() {
    r_.output = opt_.output;
    if (opt_.inputs.empty()) throw Error(Errc::usage, "", "no input archives");
    std::unique_ptr<ArchiveReader> existing;
    ReadOptions ro;
    ro.warnings = opt_.warnings;
    struct stat out_st {};
    const bool out_exists = !is_stdio(opt_.output) && ::stat(opt_.output.c_str(), &out_st) == 0;
    if (opt_.append && out_exists && out_st.st_size > 0) {
      existing = std::make_unique<ArchiveReader>(opt_.output, ro);
      sources_.push_back(std::make_unique<Source>(opt_.output));
      for (const Entry& e : existing->entries()) remember(e.tag, e.hash, Loc{0, e.offset, e.header});
      r_.existing_entries = existing->size();
    }
    first_input_ = static_cast<std::uint32_t>(sources_.size());
    for (const std::string& in : opt_.inputs) {
      sources_.push_back(std::make_unique<Source>(in));
      if (opt_.append && out_exists && sources_.back()->same_file(out_st))
        throw Error(Errc::usage, in, "is the output: appending to a file while reading it");
      r_.inputs.push_back(MergeInput{in});
    }
    for (const auto& s : sources_) total_bytes_ += file_size(*s);
    if (opt_.prune.enabled) {
      index_inputs(ro);
      keep_ = detail::prune_keep_set(opt_.prune, prune_input());
    }
    ArchiveWriter w(opt_.output, opt_.append ? WriteMode::append : WriteMode::overwrite, ro);
    r_.truncated_bytes = w.append_info().truncated_bytes;
    for (std::uint32_t i = first_input_; i < sources_.size(); ++i) copy_input(i, w);
    w.commit();
    r_.bytes_written = w.bytes_written();
    if (opt_.prune.enabled)
      for (std::size_t t = 0; t < kTagCount; ++t)
        for (const auto& [h, loc] : first_[t])
          if (loc.source >= first_input_ && !keep_[t].count(h)) ++r_.pruned_per_tag[t];
    if (opt_.progress) opt_.progress(total_bytes_, total_bytes_);
    return std::move(r_);
  }

 private:
  static std::uint64_t file_size(const Source& s) {
    struct stat st {};
    return ::stat(s.name().c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  }

  MergeInput& input_report(std::uint32_t source) { return r_.inputs[source - first_input_]; }

  // Records the first copy of a key; for a later one, classifies it against
  // the first and returns false.
  bool remember(Tag tag, std::uint64_t hash, const Loc& loc, std::span<const std::uint8_t> stored = {}) {
    auto [it, fresh] = first_[static_cast<std::size_t>(tag)].try_emplace(hash, loc);
    if (fresh) return true;
    const Loc& kept = it->second;
    if (kept.source == loc.source && kept.offset == loc.offset) return false;  // the same entry seen twice
    compare(tag, hash, kept, loc, stored);
    return false;
  }

  void compare(Tag tag, std::uint64_t hash, const Loc& kept, const Loc& other, std::span<const std::uint8_t> stored) {
    std::vector<std::uint8_t>& a = buf_a_;
    sources_[kept.source]->read_stored(kept, a);
    std::vector<std::uint8_t> b_store;
    if (stored.empty() && other.header.stored_size) {
      sources_[other.source]->read_stored(other, b_store);
      stored = b_store;
    }
    const PayloadHeader& ha = kept.header;
    const PayloadHeader& hb = other.header;
    if (ha.format == hb.format && ha.uncompressed_size == hb.uncompressed_size && a.size() == stored.size() &&
        std::memcmp(a.data(), stored.data(), a.size()) == 0) {
      ++r_.identical_duplicates;
      return;
    }
    std::string detail;
    try {
      const std::string wa = at_offset(sources_[kept.source]->name(), kept.offset) + ": " + describe_entry(tag, hash);
      const std::string wb = at_offset(sources_[other.source]->name(), other.offset) + ": " + describe_entry(tag, hash);
      decode_payload(ha, a, dec_a_, wa);
      decode_payload(hb, stored, dec_b_, wb);
      if (dec_a_ == dec_b_) {
        ++r_.reencoded_duplicates;
        return;
      }
      detail = "decoded payloads differ (" + std::to_string(dec_a_.size()) + " and " + std::to_string(dec_b_.size()) +
               " bytes)";
    } catch (const Error& e) {
      detail = "cannot compare: " + std::string(e.what());
    }
    r_.conflicts.push_back(MergeConflict{tag, hash, sources_[kept.source]->name(), sources_[other.source]->name(),
                                         kept.offset, other.offset, std::move(detail)});
  }

  // A failed CRC stops the merge, or (drop_bad) drops the entry.
  bool crc_ok(std::uint32_t source, Tag tag, std::uint64_t hash, const PayloadHeader& h,
              std::span<const std::uint8_t> stored, std::uint64_t offset) {
    try {
      check_crc(h, stored, at_offset(sources_[source]->name(), offset) + ": " + describe_entry(tag, hash));
      return true;
    } catch (const Error& e) {
      if (!opt_.drop_bad) throw;
      if (opt_.warnings) opt_.warnings(e.where(), e.message() + ": entry dropped");
      ++input_report(source).bad;
      return false;
    }
  }

  void index_inputs(const ReadOptions& ro) {
    for (std::uint32_t i = first_input_; i < sources_.size(); ++i) {
      readers_.push_back(std::make_unique<ArchiveReader>(sources_[i]->name(), ro));
      const ArchiveReader& rd = *readers_.back();
      MergeInput& mi = input_report(i);
      mi.version = rd.version();
      mi.torn = rd.summary().torn;
      mi.unknown_tags = rd.summary().unknown_tags;
      mi.entries = rd.size() + rd.duplicates();
      mi.duplicates = rd.duplicates();
      for (const Entry& e : rd.entries())
        if (!remember(e.tag, e.hash, Loc{i, e.offset, e.header})) ++mi.duplicates;
    }
  }

  detail::PruneInput prune_input() {
    detail::PruneInput pi;
    for (std::size_t t = 0; t < kTagCount; ++t)
      for (const auto& [h, loc] : first_[t]) pi.present[t].insert(h);
    pi.read = [this](Tag tag, std::uint64_t hash, std::vector<std::uint8_t>& out) {
      const Loc& l = first_[static_cast<std::size_t>(tag)].at(hash);
      const std::string where = at_offset(sources_[l.source]->name(), l.offset) + ": " + describe_entry(tag, hash);
      sources_[l.source]->read_stored(l, buf_a_);
      decode_payload(l.header, buf_a_, out, where);
      return where;
    };
    return pi;
  }

  void copy_input(std::uint32_t i, ArchiveWriter& w) {
    MergeInput& mi = input_report(i);
    if (opt_.prune.enabled) {
      const ArchiveReader& rd = *readers_[i - first_input_];
      for (const Entry& e : rd.entries()) {
        const Loc& first = first_[static_cast<std::size_t>(e.tag)].at(e.hash);
        if (first.source != i || first.offset != e.offset) continue;
        if (!keep_[static_cast<std::size_t>(e.tag)].count(e.hash)) continue;
        sources_[i]->read_stored(first, buf_b_);
        if (!crc_ok(i, e.tag, e.hash, e.header, buf_b_, e.offset)) continue;
        if (w.write_raw(e.tag, e.hash, e.header, buf_b_)) count_written(mi, e.tag);
      }
      progress_ += file_size(*sources_[i]);
      if (opt_.progress) opt_.progress(progress_, total_bytes_);
      return;
    }
    InputFile in(sources_[i]->name());
    ScanOptions so;
    so.warnings = opt_.warnings;
    ArchiveScanner sc(in, so);
    mi.version = sc.version();
    ScannedEntry e;
    std::uint64_t next_progress = 0;
    while (sc.next(e)) {
      if (opt_.progress && in.offset() >= next_progress) {
        opt_.progress(progress_ + in.offset(), total_bytes_);
        next_progress = in.offset() + (1 << 22);
      }
      if (!e.known_tag()) continue;
      ++mi.entries;
      const Tag tag = e.tag();
      const Loc loc{i, e.offset, e.header};
      if (first_[static_cast<std::size_t>(tag)].count(e.hash)) {
        ++mi.duplicates;
        remember(tag, e.hash, loc, e.stored);
        continue;
      }
      if (!crc_ok(i, tag, e.hash, e.header, e.stored, e.offset)) continue;
      remember(tag, e.hash, loc);
      if (w.write_raw(tag, e.hash, e.header, e.stored)) count_written(mi, tag);
    }
    mi.torn = sc.summary().torn;
    mi.unknown_tags = sc.summary().unknown_tags;
    progress_ += sc.summary().file_size;
  }

  void count_written(MergeInput& mi, Tag tag) {
    ++mi.written;
    ++r_.written_per_tag[static_cast<std::size_t>(tag)];
    ++r_.entries_written;
  }

  const MergeOptions& opt_;
  MergeReport r_;
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<std::unique_ptr<ArchiveReader>> readers_;  // prune: one per input
  std::uint32_t first_input_ = 0;
  std::array<std::unordered_map<std::uint64_t, Loc>, kTagCount> first_;
  TagHashSets keep_;
  std::vector<std::uint8_t> buf_a_, buf_b_, dec_a_, dec_b_;
  std::uint64_t total_bytes_ = 0, progress_ = 0;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace

MergeReport merge_archives(const MergeOptions& opt) { return Merger(opt).run(); }

void read_key_list(const std::string& path, TagHashSets& sets) {
  std::ifstream f(path);
  if (!f) throw_errno(path);
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
      throw Error(Errc::bad_record, where, "expected \"TAG HASH\" (a tag name or number, 16 hex digits) or a 40-digit entry name");
    sets[static_cast<std::size_t>(*tag)].insert(*hash);
  }
  if (f.bad()) throw_errno(path, "read");
}

}  // namespace libtrace::foz
