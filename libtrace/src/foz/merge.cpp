// SPDX-License-Identifier: MIT
// merge_archives: raw copies in input order, first (tag, hash) wins, later
// copies compared with it; with pruning, an index pass decides first.
#include "libtrace/foz/merge.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "foz/internal.hpp"
#include "foz/keys.hpp"
#include "foz/prune.hpp"

namespace libtrace::foz {

namespace {

// Where the first copy of a key is: which source, at what offset. In the
// index it is packed into 60 bits; the header is read again from the source.
struct Loc {
  std::uint32_t source = 0;
  std::uint64_t offset = 0;
  PayloadHeader header;
};

constexpr unsigned kOffsetBits = 48;         // 256 TiB per input
constexpr std::uint32_t kMaxSources = 4094;  // 12 bits, with one value left to mark a dropped copy

std::uint64_t pack(std::uint32_t source, std::uint64_t offset) {
  return static_cast<std::uint64_t>(source) << kOffsetBits | offset;
}

// A source mapped read-only, so a duplicate is compared with the first copy
// in place, without a system call.
class Source {
 public:
  explicit Source(std::string name) : name_(std::move(name)) {
    if (is_stdio(name_)) throw Error(Errc::usage, "<stdin>", "archives are merged by offset: give files, not a pipe");
    const int fd = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw_errno(name_);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      throw_errno(name_);
    }
    if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
      ::close(fd);
      if (S_ISDIR(st.st_mode)) throw Error(Errc::io, name_, "Is a directory");
      throw Error(Errc::usage, name_, "archives are merged by offset: give a regular file");
    }
    dev_ = st.st_dev;
    ino_ = st.st_ino;
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_) {
      void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (m == MAP_FAILED) {
        ::close(fd);
        throw_errno(name_, "mmap");
      }
      map_ = static_cast<const std::uint8_t*>(m);
      ::madvise(m, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
  }
  ~Source() {
    if (map_) ::munmap(const_cast<std::uint8_t*>(map_), size_);
  }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  const std::string& name() const { return name_; }
  std::uint64_t size() const { return size_; }
  bool same_file(const struct stat& st) const { return st.st_dev == dev_ && st.st_ino == ino_; }

  // The payload header of the entry at `offset` (which was read before).
  PayloadHeader header(std::uint64_t offset) const {
    if (offset + kEntryHeaderSize > size_)
      throw Error(Errc::truncated, at_offset(name_, offset), "the file changed while it was merged");
    const std::uint8_t* p = map_ + offset + kNameSize;
    return PayloadHeader{detail::load_le32(p), detail::load_le32(p + 4), detail::load_le32(p + 8),
                         detail::load_le32(p + 12)};
  }

  // Bytes [begin, end) of the file, which a scan has seen.
  std::span<const std::uint8_t> bytes(std::uint64_t begin, std::uint64_t end) const {
    if (end > size_ || begin > end)
      throw Error(Errc::truncated, at_offset(name_, begin), "the file changed while it was merged");
    return {map_ + begin, static_cast<std::size_t>(end - begin)};
  }

  std::span<const std::uint8_t> stored(const Loc& l) const {
    const std::uint64_t begin = l.offset + kEntryHeaderSize;
    if (begin + l.header.stored_size > size_)
      throw Error(Errc::truncated, at_offset(name_, l.offset), "the file changed while it was merged");
    return {map_ + begin, l.header.stored_size};
  }

 private:
  std::string name_;
  const std::uint8_t* map_ = nullptr;
  std::size_t size_ = 0;
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
    if (opt_.inputs.size() + first_input_ > kMaxSources)
      throw Error(Errc::usage, "", "at most " + std::to_string(kMaxSources) + " archives at once");
    for (const std::string& in : opt_.inputs) {
      sources_.push_back(std::make_unique<Source>(in));
      if (opt_.append && out_exists && sources_.back()->same_file(out_st))
        throw Error(Errc::usage, in, "is the output: appending to a file while reading it");
      r_.inputs.push_back(MergeInput{in});
    }
    for (const auto& s : sources_) total_bytes_ += s->size();
    if (opt_.prune.enabled) {
      index_inputs(ro);
      keep_ = detail::prune_keep_set(opt_.prune, prune_input());
    }
    // The existing output's torn tail was reported when it was indexed above.
    ArchiveWriter w(opt_.output, opt_.append ? WriteMode::append : WriteMode::overwrite, existing ? ReadOptions{} : ro);
    r_.truncated_bytes = w.append_info().truncated_bytes;
    for (std::uint32_t i = first_input_; i < sources_.size(); ++i) copy_input(i, w);
    w.commit();
    r_.bytes_written = w.bytes_written();
    if (opt_.prune.enabled)
      first_.for_each([&](Tag t, std::uint64_t h, std::uint64_t packed) {
        if (locate(packed).source >= first_input_ && !keep_[static_cast<std::size_t>(t)].count(h))
          ++r_.pruned_per_tag[static_cast<std::size_t>(t)];
      });
    if (opt_.progress) opt_.progress(total_bytes_, total_bytes_);
    return std::move(r_);
  }

 private:
  MergeInput& input_report(std::uint32_t source) { return r_.inputs[source - first_input_]; }

  Loc locate(std::uint64_t packed) const {
    Loc l;
    l.source = static_cast<std::uint32_t>(packed >> kOffsetBits);
    l.offset = packed & ((std::uint64_t{1} << kOffsetBits) - 1);
    if (l.source != kBad) l.header = sources_[l.source]->header(l.offset);
    return l;
  }

  // Records the first copy of a key; for a later one, classifies it against
  // the first and returns false.
  bool remember(Tag tag, std::uint64_t hash, const Loc& loc) {
    auto [packed, fresh] = first_.try_emplace(tag, hash, pack(loc.source, loc.offset));
    if (fresh) return true;
    const Loc kept = locate(packed);
    if (kept.source == loc.source && kept.offset == loc.offset) return false;  // the same entry seen twice
    compare(tag, hash, kept, loc);
    return false;
  }

  void compare(Tag tag, std::uint64_t hash, const Loc& kept, const Loc& other) {
    const std::span<const std::uint8_t> a = sources_[kept.source]->stored(kept);
    const std::span<const std::uint8_t> stored = sources_[other.source]->stored(other);
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
    if (!opt_.check_crc && !opt_.drop_bad) return true;
    try {
      detail::check_entry_crc(h, stored, sources_[source]->name(), offset, tag, hash);
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
    first_.for_each([&](Tag t, std::uint64_t h, std::uint64_t) { pi.present[static_cast<std::size_t>(t)].insert(h); });
    pi.read = [this](Tag tag, std::uint64_t hash, std::vector<std::uint8_t>& out) {
      const Loc l = locate(*first_.find(tag, hash));
      const std::string where = at_offset(sources_[l.source]->name(), l.offset) + ": " + describe_entry(tag, hash);
      decode_payload(l.header, sources_[l.source]->stored(l), out, where);
      return where;
    };
    return pi;
  }

  void copy_input(std::uint32_t i, ArchiveWriter& w) {
    MergeInput& mi = input_report(i);
    if (opt_.prune.enabled) {
      const ArchiveReader& rd = *readers_[i - first_input_];
      for (const Entry& e : rd.entries()) {
        const Loc first = locate(*first_.find(e.tag, e.hash));
        if (first.source != i || first.offset != e.offset) continue;
        if (!keep_[static_cast<std::size_t>(e.tag)].count(e.hash)) continue;
        const auto stored = sources_[i]->stored(first);
        if (!crc_ok(i, e.tag, e.hash, e.header, stored, e.offset)) continue;
        if (w.write_raw(e.tag, e.hash, e.header, stored)) count_written(mi, e.tag);
      }
      progress_ += sources_[i]->size();
      if (opt_.progress) opt_.progress(progress_, total_bytes_);
      return;
    }
    ScanOptions so;
    so.warnings = opt_.warnings;
    ArchiveScanner sc(sources_[i]->bytes(0, sources_[i]->size()), sources_[i]->name(), so);
    mi.version = sc.version();
    // Entries go in batches: the index probes of a batch are prefetched
    // together, so their cache misses overlap instead of adding up.
    constexpr std::size_t kBatch = 32;
    Loc batch[kBatch];
    Tag tags[kBatch];
    std::uint64_t hashes[kBatch];
    std::size_t n = 0;
    // New entries that follow each other in the input are copied as one run.
    std::uint64_t run_begin = 0, run_end = 0, run_count = 0;
    auto flush_run = [&] {
      if (run_count) w.write_entries_unchecked(sources_[i]->bytes(run_begin, run_end), run_count);
      run_count = 0;
    };
    auto process = [&] {
      first_.reserve_more(n);
      for (std::size_t k = 0; k < n; ++k) first_.prefetch(tags[k], hashes[k]);
      for (std::size_t k = 0; k < n; ++k) {
        const Loc& l = batch[k];
        if (!add_entry(i, tags[k], hashes[k], l, mi)) continue;
        const std::uint64_t end = l.offset + kEntryHeaderSize + l.header.stored_size;
        if (run_count == 0 || l.offset != run_end) {
          flush_run();
          run_begin = l.offset;
        }
        run_end = end;
        ++run_count;
      }
      n = 0;
    };
    ScannedEntry e;
    std::uint64_t next_progress = 0;
    while (sc.next(e)) {
      if (opt_.progress && sc.offset() >= next_progress) {
        opt_.progress(progress_ + sc.offset(), total_bytes_);
        next_progress = sc.offset() + (1 << 22);
      }
      if (!e.known_tag()) continue;  // ends a run: its offset is not the run's end
      ++mi.entries;
      tags[n] = e.tag();
      hashes[n] = e.hash;
      batch[n++] = Loc{i, e.offset, e.header};
      if (n == kBatch) process();
    }
    process();
    flush_run();
    mi.torn = sc.summary().torn;
    mi.unknown_tags = sc.summary().unknown_tags;
    progress_ += sc.summary().file_size;
  }

  // Indexes one entry of input i; true when it is to be copied (first_ is
  // the index of what is written: the writer need not check again).
  bool add_entry(std::uint32_t i, Tag tag, std::uint64_t hash, const Loc& loc, MergeInput& mi) {
    const auto [packed, fresh] = first_.try_emplace(tag, hash, pack(i, loc.offset));
    if (!fresh && (packed >> kOffsetBits) != kBad) {
      ++mi.duplicates;
      compare(tag, hash, locate(packed), loc);
      return false;
    }
    if (!fresh) first_.set(tag, hash, pack(i, loc.offset));  // a copy that failed its CRC before gives way
    if (!crc_ok(i, tag, hash, loc.header, sources_[i]->stored(loc), loc.offset)) {
      first_.set(tag, hash, pack(kBad, 0));
      return false;
    }
    count_written(mi, tag);
    return true;
  }

  void count_written(MergeInput& mi, Tag tag) {
    ++mi.written;
    ++r_.written_per_tag[static_cast<std::size_t>(tag)];
    ++r_.entries_written;
  }

  static constexpr std::uint32_t kBad = kMaxSources + 1;  // Loc::source of a dropped copy

  const MergeOptions& opt_;
  MergeReport r_;
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<std::unique_ptr<ArchiveReader>> readers_;  // prune: one per input
  std::uint32_t first_input_ = 0;
  detail::PackedKeyMap first_;
  TagHashSets keep_;
  std::vector<std::uint8_t> dec_a_, dec_b_;
  std::uint64_t total_bytes_ = 0, progress_ = 0;
};

}  // namespace

MergeReport merge_archives(const MergeOptions& opt) { return Merger(opt).run(); }

}  // namespace libtrace::foz
