// SPDX-License-Identifier: MIT
// ArchiveReader: an index of entry headers, payloads read on demand (pread).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "foz/internal.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

namespace {

constexpr std::size_t kWindow = 1 << 20;

// Reads up to n bytes at `offset`; fewer only at end of file.
std::size_t pread_full(int fd, std::uint8_t* dst, std::size_t n, std::uint64_t offset, const std::string& name) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd, dst + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw_errno(at_offset(name, offset + got), "read");
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return got;
}

}  // namespace

namespace detail {

void scan_index(int fd, std::uint64_t size, const std::string& name, const WarningSink& warnings, ScanSummary& s,
                std::vector<Entry>& all) {
  s = ScanSummary{};
  s.file_size = size;
  if (size == 0) return;
  // Headers are read through a window that slides forward: small entries
  // cost no system call each, large ones are hopped over.
  std::vector<std::uint8_t> win(static_cast<std::size_t>(std::min<std::uint64_t>(kWindow, size)));
  std::uint64_t win_off = 0;
  std::size_t win_len = 0;
  auto at = [&](std::uint64_t off, std::size_t n) -> const std::uint8_t* {
    if (off < win_off || off + n > win_off + win_len) {
      win_len = pread_full(fd, win.data(), win.size(), off, name);
      win_off = off;
    }
    return win.data() + (off - win_off);
  };
  const std::size_t head = static_cast<std::size_t>(std::min<std::uint64_t>(size, kMagicSize));
  s.version = check_file_header(at(0, head), head, name);
  std::uint64_t off = kMagicSize;
  s.valid_end = off;
  ScannedEntry e;
  while (off < size) {
    if (size - off < kEntryHeaderSize) {
      note_torn(s, off, size - off, kEntryHeaderSize, true, name, warnings);
      return;
    }
    const std::uint8_t* p = at(off, kEntryHeaderSize);
    const std::uint64_t need = kEntryHeaderSize + static_cast<std::uint64_t>(load_le32(p + kNameSize));
    if (size - off < need) {
      note_torn(s, off, size - off, need, false, name, warnings);
      return;
    }
    parse_entry_header(p, off, name, e);
    ++s.entries;
    if (e.known_tag()) {
      all.push_back(Entry{e.tag(), e.hash, off, e.header});
    } else {
      ++s.unknown_tags;
    }
    off += need;
    s.valid_end = off;
  }
  if (all.size() > 0xffffffffu) throw Error(Errc::unsupported, name, "more than 4 billion entries");
}

std::uint64_t dedupe(std::vector<Entry>& all, std::array<std::vector<std::uint32_t>, kTagCount>& by_hash) {
  for (auto& v : by_hash) v.clear();
  for (std::uint32_t i = 0; i < all.size(); ++i) by_hash[static_cast<std::size_t>(all[i].tag)].push_back(i);
  std::vector<bool> drop(all.size(), false);
  std::uint64_t dups = 0;
  for (auto& v : by_hash) {
    // Stable: among equal hashes the earliest entry stays first.
    std::stable_sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) { return all[a].hash < all[b].hash; });
    for (std::size_t i = 1; i < v.size(); ++i) {
      if (all[v[i]].hash == all[v[i - 1]].hash) {
        drop[v[i]] = true;
        ++dups;
      }
    }
  }
  if (dups == 0) return 0;
  std::vector<std::uint32_t> remap(all.size());
  std::uint32_t n = 0;
  for (std::uint32_t i = 0; i < all.size(); ++i) {
    remap[i] = n;
    if (!drop[i]) all[n++] = all[i];
  }
  for (auto& v : by_hash) {
    std::size_t k = 0;
    for (std::uint32_t i : v)
      if (!drop[i]) v[k++] = remap[i];
    v.resize(k);
  }
  all.resize(n);
  return dups;
}

}  // namespace detail

struct ArchiveReader::Impl {
  std::string name;
  int fd = -1;
  ScanSummary summary;
  std::uint64_t duplicates = 0;
  std::vector<Entry> entries;
  std::array<std::vector<std::uint32_t>, kTagCount> by_hash;

  ~Impl() {
    if (fd >= 0) ::close(fd);
  }
};

ArchiveReader::ArchiveReader(const std::string& path, ReadOptions opt) : impl_(std::make_unique<Impl>()) {
  Impl& r = *impl_;
  r.name = path;
  if (is_stdio(path)) throw Error(Errc::usage, "<stdin>", "a .foz archive is read by offset: give a file, not a pipe");
  r.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (r.fd < 0) throw_errno(path);
  struct stat st {};
  if (::fstat(r.fd, &st) != 0) throw_errno(path);
  if (S_ISDIR(st.st_mode)) throw Error(Errc::io, path, "Is a directory");
  if (!S_ISREG(st.st_mode)) throw Error(Errc::usage, path, "a .foz archive is read by offset: give a regular file");
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(r.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  detail::scan_index(r.fd, static_cast<std::uint64_t>(st.st_size), path, opt.warnings, r.summary, r.entries);
  r.duplicates = detail::dedupe(r.entries, r.by_hash);
}

ArchiveReader::~ArchiveReader() = default;

const std::string& ArchiveReader::name() const { return impl_->name; }
std::uint8_t ArchiveReader::version() const { return impl_->summary.version; }
const ScanSummary& ArchiveReader::summary() const { return impl_->summary; }
std::uint64_t ArchiveReader::duplicates() const { return impl_->duplicates; }
std::size_t ArchiveReader::size() const { return impl_->entries.size(); }
const std::vector<Entry>& ArchiveReader::entries() const { return impl_->entries; }

std::size_t ArchiveReader::count(Tag tag) const {
  const auto t = static_cast<std::size_t>(tag);
  return t < kTagCount ? impl_->by_hash[t].size() : 0;
}

std::vector<std::uint64_t> ArchiveReader::hashes(Tag tag) const {
  std::vector<std::uint64_t> out;
  const auto t = static_cast<std::size_t>(tag);
  if (t >= kTagCount) return out;
  out.reserve(impl_->by_hash[t].size());
  for (std::uint32_t i : impl_->by_hash[t]) out.push_back(impl_->entries[i].hash);
  return out;
}

const Entry* ArchiveReader::find(Tag tag, std::uint64_t hash) const {
  const auto t = static_cast<std::size_t>(tag);
  if (t >= kTagCount) return nullptr;
  const auto& v = impl_->by_hash[t];
  const auto it = std::lower_bound(v.begin(), v.end(), hash,
                                   [&](std::uint32_t i, std::uint64_t h) { return impl_->entries[i].hash < h; });
  if (it == v.end() || impl_->entries[*it].hash != hash) return nullptr;
  return &impl_->entries[*it];
}

std::string ArchiveReader::where(const Entry& e) const {
  return at_offset(impl_->name, e.offset) + ": " + describe_entry(e.tag, e.hash);
}

void ArchiveReader::read_stored(const Entry& e, std::vector<std::uint8_t>& out) const {
  out.resize(e.header.stored_size);
  const std::size_t got = pread_full(impl_->fd, out.data(), out.size(), e.offset + kEntryHeaderSize, impl_->name);
  if (got != out.size())  // the file shrank since it was indexed
    throw Error(Errc::truncated, where(e), "payload cut short: the file changed while it was read");
  detail::check_entry_crc(e.header, out, impl_->name, e.offset, e.tag, e.hash);
}

void ArchiveReader::read_payload(const Entry& e, std::vector<std::uint8_t>& out) const {
  thread_local std::vector<std::uint8_t> stored;
  stored.resize(e.header.stored_size);
  const std::size_t got = pread_full(impl_->fd, stored.data(), stored.size(), e.offset + kEntryHeaderSize, impl_->name);
  if (got != stored.size())
    throw Error(Errc::truncated, where(e), "payload cut short: the file changed while it was read");
  detail::decode_entry(e.header, stored, out, impl_->name, e.offset, e.tag, e.hash);
}

std::vector<std::uint8_t> ArchiveReader::read_payload(Tag tag, std::uint64_t hash) const {
  const Entry* e = find(tag, hash);
  if (!e) throw Error(Errc::usage, impl_->name, "no entry " + describe_entry(tag, hash));
  std::vector<std::uint8_t> out;
  read_payload(*e, out);
  return out;
}

}  // namespace libtrace::foz
