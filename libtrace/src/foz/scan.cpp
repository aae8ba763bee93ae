// SPDX-License-Identifier: MIT
// ArchiveScanner: one sequential pass over a .foz stream, in large blocks
// from a pipe, or straight from a read-only mapping of a regular file (no
// copies: merge and stat touch each byte once).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "foz/internal.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

namespace {
constexpr std::size_t kBlock = 1 << 20;
// Mapped files: each entry header sits in a cache line the CPU has not seen,
// and where the next one is depends on this one's size, so the loads would
// queue one after the other; prefetching every line a few KiB ahead lets
// them overlap.
constexpr std::size_t kPrefetchAhead = 8192;
}  // namespace

struct ArchiveScanner::Impl {
  std::unique_ptr<InputFile> owned;
  InputFile* in = nullptr;  // null when mapped
  std::string name;
  ScanOptions opt;
  ScanSummary summary;
  std::vector<std::uint8_t> buf;
  std::uint8_t* base = nullptr;  // buf.data(), or the mapping
  std::size_t map_size = 0;
  bool owns_map = false;         // false: the caller's bytes
  std::size_t prefetched = 0;    // mapped bytes already prefetched
  std::size_t pos = 0, end = 0;  // unread bytes are base[pos, end)
  std::uint64_t offset = 0;      // file offset of base[pos]
  bool eof = false, done = false;
  std::optional<Error> corrupt;  // a corrupt entry size met on the way

  Impl(InputFile& i, ScanOptions o) : in(&i), name(i.name()), opt(std::move(o)) {}
  Impl(const std::string& path, ScanOptions o) : name(path), opt(std::move(o)) {
    if (is_stdio(path)) {
      owned = std::make_unique<InputFile>(path);
      in = owned.get();
      name = in->name();
      return;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw_errno(path);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
      // Not a regular file (or empty): read it like a pipe.
      ::close(fd);
      owned = std::make_unique<InputFile>(path);
      in = owned.get();
      return;
    }
    map_size = static_cast<std::size_t>(st.st_size);
    void* m = ::mmap(nullptr, map_size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (m == MAP_FAILED) throw_errno(path, "mmap");
    ::madvise(m, map_size, MADV_SEQUENTIAL);
    base = static_cast<std::uint8_t*>(m);
    owns_map = true;
    end = map_size;
    eof = true;
  }
  Impl(std::span<const std::uint8_t> bytes, std::string n, ScanOptions o) : name(std::move(n)), opt(std::move(o)) {
    base = const_cast<std::uint8_t*>(bytes.data());  // only read
    map_size = end = bytes.size();
    eof = true;
  }
  ~Impl() {
    if (owns_map) ::munmap(base, map_size);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  std::size_t avail() const { return end - pos; }

  // Makes `n` bytes available at buf[pos] if the input has them; returns how
  // many are. The buffer grows only as data arrives, so a forged size in a
  // short file never allocates more than about twice the file.
  std::size_t fill(std::size_t n) {
    while (avail() < n && !eof) {
      if (pos > 0 && buf.size() - end < kBlock) {
        std::memmove(buf.data(), buf.data() + pos, avail());
        end -= pos;
        pos = 0;
      }
      if (buf.size() - end < kBlock) buf.resize(end + kBlock);
      base = buf.data();
      const std::size_t r = in->read(buf.data() + end, buf.size() - end);
      if (r == 0) eof = true;
      end += r;
    }
    return std::min(avail(), n);
  }

  void consume(std::size_t n) {
    pos += n;
    offset += n;
  }

  // Reads and drops n bytes; returns how many there were.
  std::uint64_t discard(std::uint64_t n) {
    std::uint64_t done_bytes = 0;
    while (done_bytes < n) {
      if (avail() == 0 && fill(1) == 0) break;
      const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n - done_bytes, avail()));
      consume(k);
      done_bytes += k;
    }
    return done_bytes;
  }

  // A torn write leaves nothing whole after the tear: a well-formed entry
  // header behind an entry that claims more bytes than are left means its
  // size field is corrupt. The scan goes on from that header, so that the
  // entries behind it are read too, and fails once they are (`corrupt`).
  // The tail is base[header_pos, limit): all of the input after the header
  // (limit 0 where it was read past unseen: a pipe scanned without payloads).
  // True when the scan was moved on to the next entry.
  bool skip_corrupt_size(std::uint64_t at, std::size_t header_pos, std::size_t limit, std::uint64_t need) {
    auto hex = [](std::uint8_t c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    for (std::size_t p = header_pos + kEntryHeaderSize; p + kEntryHeaderSize <= limit; ++p) {
      if (!hex(base[p])) continue;
      std::size_t n = 0;
      while (n < kNameSize && hex(base[p + n])) ++n;
      if (n < kNameSize) {
        p += n;
        continue;
      }
      const std::uint32_t stored = detail::load_le32(base + p + kNameSize);
      if (stored > limit - p - kEntryHeaderSize) continue;
      const std::uint64_t next = at + (p - header_pos);
      if (!corrupt)
        corrupt = Error(Errc::bad_record, at_offset(name, at),
                        "corrupt entry size: the entry claims " + std::to_string(need) +
                            " bytes, but a whole entry follows at offset " + std::to_string(next) +
                            " (a torn write leaves none); the entries from there on were read");
      pos = p;
      offset = next;
      return true;
    }
    return false;
  }

  // After the last entry: a corrupt entry met on the way fails the scan now.
  void raise_corrupt() {
    if (corrupt) {
      const Error e = *corrupt;
      corrupt.reset();
      throw e;
    }
  }

  void finish_torn(std::uint64_t at, std::uint64_t have, std::uint64_t need, bool in_header) {
    // The rest of the input counts as seen: drain it for file_size.
    discard(~std::uint64_t{0});
    summary.file_size = offset;
    detail::note_torn(summary, at, have, need, in_header, name, opt.warnings);
    done = true;
    raise_corrupt();
  }
};

ArchiveScanner::ArchiveScanner(InputFile& in, ScanOptions opt) : impl_(std::make_unique<Impl>(in, std::move(opt))) {
  start();
}

ArchiveScanner::ArchiveScanner(const std::string& path, ScanOptions opt)
    : impl_(std::make_unique<Impl>(path, std::move(opt))) {
  start();
}

ArchiveScanner::ArchiveScanner(std::span<const std::uint8_t> bytes, std::string name, ScanOptions opt)
    : impl_(std::make_unique<Impl>(bytes, std::move(name), std::move(opt))) {
  start();
}

void ArchiveScanner::start() {
  Impl& s = *impl_;
  const std::size_t got = s.fill(kMagicSize);
  if (got == 0) {  // an empty file is an empty archive, as for Fossilize
    s.done = true;
    return;
  }
  s.summary.version = detail::check_file_header(s.base + s.pos, got, s.name);
  s.consume(kMagicSize);
  s.summary.valid_end = s.summary.file_size = kMagicSize;
}

ArchiveScanner::~ArchiveScanner() = default;

bool ArchiveScanner::next(ScannedEntry& e) {
  Impl& s = *impl_;
  // A loop, not recursion, past corrupt entries: an input may hold many.
  for (;;) {
    if (s.done) return false;
    if (!s.in) {
      const std::size_t until = std::min(s.pos + kPrefetchAhead, s.map_size);
      for (s.prefetched = std::max(s.prefetched, s.pos); s.prefetched < until; s.prefetched += 64)
        __builtin_prefetch(s.base + s.prefetched);
    }
    const std::uint64_t at = s.offset;
    const std::size_t h = s.fill(kEntryHeaderSize);
    if (h == 0) {
      s.summary.file_size = s.summary.valid_end = at;
      s.done = true;
      s.raise_corrupt();
      return false;
    }
    if (h < kEntryHeaderSize) {
      s.finish_torn(at, h, kEntryHeaderSize, true);
      return false;
    }
    // The size comes from the header; the name is checked once the entry is
    // known to be complete, so a torn tail of junk reads as torn, as in Fossilize.
    const std::uint32_t stored = detail::load_le32(s.base + s.pos + kNameSize);
    const std::uint64_t need = kEntryHeaderSize + static_cast<std::uint64_t>(stored);
    const std::size_t header_pos = s.pos;
    if (s.opt.want_payload) {
      const std::size_t got = s.fill(static_cast<std::size_t>(need));
      if (got < need) {
        if (s.skip_corrupt_size(at, s.pos, s.pos + got, need)) continue;  // fill() may have moved the header
        s.finish_torn(at, got, need, false);
        return false;
      }
      detail::parse_entry_header(s.base + s.pos, at, s.name, e);
      e.raw = std::span<const std::uint8_t>(s.base + s.pos, static_cast<std::size_t>(need));
      e.stored = e.raw.subspan(kEntryHeaderSize);
      s.consume(static_cast<std::size_t>(need));
    } else {
      std::uint8_t head[kEntryHeaderSize];
      std::memcpy(head, s.base + s.pos, kEntryHeaderSize);
      const std::uint64_t got = s.discard(need);
      if (got < need) {
        if (s.skip_corrupt_size(at, header_pos, s.in ? 0 : s.map_size, need)) continue;
        s.finish_torn(at, got, need, false);
        return false;
      }
      detail::parse_entry_header(head, at, s.name, e);
      e.raw = {};
      e.stored = {};
    }
    ++s.summary.entries;
    if (!e.known_tag()) ++s.summary.unknown_tags;
    s.summary.valid_end = s.summary.file_size = s.offset;
    return true;
  }
}

std::uint8_t ArchiveScanner::version() const { return impl_->summary.version; }
const ScanSummary& ArchiveScanner::summary() const { return impl_->summary; }
const std::string& ArchiveScanner::name() const { return impl_->name; }
std::uint64_t ArchiveScanner::offset() const { return impl_->offset; }
std::uint64_t ArchiveScanner::size() const { return impl_->in ? impl_->in->size() : impl_->map_size; }

}  // namespace libtrace::foz
