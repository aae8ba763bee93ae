// SPDX-License-Identifier: MIT
// ArchiveScanner: one sequential pass over a .foz stream in large blocks.
#include <algorithm>
#include <cstring>

#include "foz_internal.hpp"
#include "libtrace/foz_archive.hpp"

namespace libtrace::foz {

namespace {
constexpr std::size_t kBlock = 1 << 20;
}

struct ArchiveScanner::Impl {
  InputFile& in;
  ScanOptions opt;
  ScanSummary summary;
  std::vector<std::uint8_t> buf;
  std::size_t pos = 0, end = 0;  // unread bytes are buf[pos, end)
  std::uint64_t offset = 0;      // file offset of buf[pos]
  bool eof = false, done = false;

  Impl(InputFile& i, ScanOptions o) : in(i), opt(std::move(o)) {}

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
      const std::size_t r = in.read(buf.data() + end, buf.size() - end);
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

  void finish_torn(std::uint64_t at, std::uint64_t have, std::uint64_t need, bool in_header) {
    // The rest of the input counts as seen: drain it for file_size.
    discard(~std::uint64_t{0});
    summary.file_size = offset;
    detail::note_torn(summary, at, have, need, in_header, in.name(), opt.warnings);
    done = true;
  }
};

ArchiveScanner::ArchiveScanner(InputFile& in, ScanOptions opt) : impl_(std::make_unique<Impl>(in, std::move(opt))) {
  Impl& s = *impl_;
  const std::size_t got = s.fill(kMagicSize);
  if (got == 0) {  // an empty file is an empty archive, as for Fossilize
    s.done = true;
    return;
  }
  s.summary.version = detail::check_file_header(s.buf.data() + s.pos, got, in.name());
  s.consume(kMagicSize);
  s.summary.valid_end = s.summary.file_size = kMagicSize;
}

ArchiveScanner::~ArchiveScanner() = default;

bool ArchiveScanner::next(ScannedEntry& e) {
  Impl& s = *impl_;
  if (s.done) return false;
  const std::uint64_t at = s.offset;
  const std::size_t h = s.fill(kEntryHeaderSize);
  if (h == 0) {
    s.summary.file_size = s.summary.valid_end = at;
    s.done = true;
    return false;
  }
  if (h < kEntryHeaderSize) {
    s.finish_torn(at, h, kEntryHeaderSize, true);
    return false;
  }
  // The size comes from the header; the name is checked once the entry is
  // known to be complete, so a torn tail of junk reads as torn, as in Fossilize.
  const std::uint32_t stored = detail::load_le32(s.buf.data() + s.pos + kNameSize);
  const std::uint64_t need = kEntryHeaderSize + static_cast<std::uint64_t>(stored);
  if (s.opt.want_payload) {
    const std::size_t got = s.fill(static_cast<std::size_t>(need));
    if (got < need) {
      s.finish_torn(at, got, need, false);
      return false;
    }
    detail::parse_entry_header(s.buf.data() + s.pos, at, s.in.name(), e);
    e.raw = std::span<const std::uint8_t>(s.buf.data() + s.pos, static_cast<std::size_t>(need));
    e.stored = e.raw.subspan(kEntryHeaderSize);
    s.consume(static_cast<std::size_t>(need));
  } else {
    std::uint8_t head[kEntryHeaderSize];
    std::memcpy(head, s.buf.data() + s.pos, kEntryHeaderSize);
    const std::uint64_t got = s.discard(need);
    if (got < need) {
      s.finish_torn(at, got, need, false);
      return false;
    }
    detail::parse_entry_header(head, at, s.in.name(), e);
    e.raw = {};
    e.stored = {};
  }
  ++s.summary.entries;
  if (!e.known_tag()) ++s.summary.unknown_tags;
  s.summary.valid_end = s.summary.file_size = s.offset;
  return true;
}

std::uint8_t ArchiveScanner::version() const { return impl_->summary.version; }
const ScanSummary& ArchiveScanner::summary() const { return impl_->summary; }
const std::string& ArchiveScanner::name() const { return impl_->in.name(); }

}  // namespace libtrace::foz
