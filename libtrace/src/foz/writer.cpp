// SPDX-License-Identifier: MIT
// ArchiveWriter: overwrite (temporary + rename), exclusive create, and append
// that cuts a torn tail off first.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "foz/internal.hpp"
#include "foz/keys.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/core/temp_file.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

namespace {

constexpr std::size_t kOutBuf = 1 << 20;

// A buffered writer over a descriptor, on the calling thread: merge only
// copies bytes, and a hand-over to a writer thread every buffer costs more
// than it saves when the cores are busy.
class FdSink final : public Sink {
 public:
  FdSink(int fd, std::string name, bool owns = true) : fd_(fd), owns_(owns), name_(std::move(name)) {
    buf_.reserve(kOutBuf);
  }
  ~FdSink() override {
    if (fd_ >= 0 && owns_) ::close(fd_);
  }
  FdSink(const FdSink&) = delete;
  FdSink& operator=(const FdSink&) = delete;

  void write(const void* data, std::size_t size) override {
    const auto* p = static_cast<const std::uint8_t*>(data);
    if (buf_.size() + size > kOutBuf) flush();
    if (size >= kOutBuf) {
      write_fd(p, size);
      return;
    }
    buf_.insert(buf_.end(), p, p + size);
  }
  void flush() {
    write_fd(buf_.data(), buf_.size());
    buf_.clear();
  }
  void close() {
    flush();
    const int fd = fd_;
    fd_ = -1;
    if (owns_ && ::close(fd) != 0) throw_errno(name_, "close");
  }
  // After a failure: the descriptor goes, whatever is buffered is dropped.
  void abandon() {
    buf_.clear();
    if (fd_ >= 0 && owns_) ::close(fd_);
    fd_ = -1;
  }

 private:
  void write_fd(const std::uint8_t* p, std::size_t n) { write_all(fd_, p, n, name_); }

  int fd_;
  bool owns_;
  std::string name_;
  std::vector<std::uint8_t> buf_;
};

std::array<std::uint8_t, kMagicSize> file_header() {
  std::array<std::uint8_t, kMagicSize> h{};
  std::memcpy(h.data(), kMagic.data(), kMagic.size());
  h[15] = kVersion;
  return h;
}

}  // namespace

struct ArchiveWriter::Impl {
  std::string path;
  std::unique_ptr<TempFile> temp;  // overwrite: written here, named on commit
  std::unique_ptr<FdSink> fd_out;
  Sink* sink = nullptr;
  detail::KeySet keys;
  std::uint64_t entries_written = 0, bytes_written = 0;
  AppendInfo append;
  std::vector<std::uint8_t> scratch;
  bool committed = false;

  void emit(const void* p, std::size_t n) {
    sink->write(p, n);
    bytes_written += n;
  }

  void start_new_file() {
    const auto h = file_header();
    emit(h.data(), h.size());
  }

  void open_exclusive_fd(int fd) {
    fd_out = std::make_unique<FdSink>(fd, path);
    sink = fd_out.get();
    start_new_file();
  }

  void open_append(const ReadOptions& opt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) throw_errno(path);
    fd_out = std::make_unique<FdSink>(fd, path);
    sink = fd_out.get();
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw_errno(path);
    if (!S_ISREG(st.st_mode)) throw Error(Errc::usage, path, "can only append to a regular file");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size == 0) {
      start_new_file();
      return;
    }
    ScanSummary s;
    std::vector<Entry> all;
    detail::scan_index(fd, size, path, opt.warnings, s, all);
    std::array<std::vector<std::uint32_t>, kTagCount> by_hash;
    detail::dedupe(all, by_hash);
    for (const Entry& e : all) keys.try_emplace(e.tag, e.hash);
    append.existing_entries = all.size();
    append.offset = s.valid_end;
    if (s.valid_end < size) {
      // Fossilize seeks back but leaves the tail: stale bytes would follow
      // our entries and be parsed again on the next open.
      if (::ftruncate(fd, static_cast<off_t>(s.valid_end)) != 0) throw_errno(path, "truncate");
      append.truncated_bytes = size - s.valid_end;
    }
    if (::lseek(fd, static_cast<off_t>(s.valid_end), SEEK_SET) < 0) throw_errno(path, "seek");
  }

  bool present(Tag tag, std::uint64_t hash) {
    const auto t = static_cast<std::size_t>(tag);
    if (t >= kTagCount) throw Error(Errc::usage, path, "tag " + std::to_string(t) + " is not a Fossilize resource tag");
    return !keys.try_emplace(tag, hash).second;
  }

  void put(Tag tag, std::uint64_t hash, const PayloadHeader& h, std::span<const std::uint8_t> stored) {
    std::uint8_t head[kEntryHeaderSize];
    detail::format_entry_header(head, static_cast<std::uint64_t>(tag), hash, h);
    emit(head, sizeof head);
    emit(stored.data(), stored.size());
    ++entries_written;
  }
};

ArchiveWriter::ArchiveWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ArchiveWriter::ArchiveWriter(const std::string& path, WriteMode mode, ReadOptions opt)
    : impl_(std::make_unique<Impl>()) {
  Impl& w = *impl_;
  w.path = path;
  switch (mode) {
    case WriteMode::overwrite:
      if (is_stdio(path)) {
        w.fd_out = std::make_unique<FdSink>(STDOUT_FILENO, "<stdout>", false);
      } else {
        // A temporary that takes the destination's name on commit, so a
        // failure never leaves half an archive where a good one was.
        w.temp = std::make_unique<TempFile>(path);
        w.fd_out = std::make_unique<FdSink>(w.temp->fd(), path, false);
      }
      w.sink = w.fd_out.get();
      w.start_new_file();
      break;
    case WriteMode::exclusive: {
      const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0) throw_errno(path);
      w.open_exclusive_fd(fd);
      break;
    }
    case WriteMode::append: w.open_append(opt); break;
  }
}

std::unique_ptr<ArchiveWriter> ArchiveWriter::create_numbered(const std::string& base, ReadOptions) {
  std::string stem = base;
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".foz") == 0) stem.resize(stem.size() - 4);
  for (int n = 1; n <= 255; ++n) {
    std::string p = stem + "." + std::to_string(n) + ".foz";
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      throw_errno(p);
    }
    auto impl = std::make_unique<Impl>();
    impl->path = std::move(p);
    impl->open_exclusive_fd(fd);
    return std::unique_ptr<ArchiveWriter>(new ArchiveWriter(std::move(impl)));
  }
  throw Error(Errc::io, stem + ".N.foz", "every name from .1.foz to .255.foz exists already");
}

ArchiveWriter::~ArchiveWriter() {
  Impl& w = *impl_;
  if (w.committed || !w.fd_out) return;
  if (w.temp) {
    w.fd_out->abandon();
    w.temp->discard();
    return;
  }
  // Exclusive and append files are written in place: what is written stays,
  // as after a crash (a torn tail at worst, which readers drop).
  try {
    w.fd_out->close();
  } catch (const Error&) {
  }
}

bool ArchiveWriter::contains(Tag tag, std::uint64_t hash) const {
  const auto t = static_cast<std::size_t>(tag);
  return t < kTagCount && impl_->keys.contains(tag, hash);
}

bool ArchiveWriter::write(Tag tag, std::uint64_t hash, std::span<const std::uint8_t> payload,
                          const EncodeOptions& opt) {
  Impl& w = *impl_;
  if (contains(tag, hash)) return false;
  const PayloadHeader h = encode_payload(payload, opt, w.scratch);  // may throw: then the key stays free
  w.present(tag, hash);
  w.put(tag, hash, h, w.scratch);
  return true;
}

bool ArchiveWriter::write_raw(Tag tag, std::uint64_t hash, const PayloadHeader& header,
                              std::span<const std::uint8_t> stored) {
  Impl& w = *impl_;
  if (stored.size() != header.stored_size)
    throw Error(Errc::usage, w.path, describe_entry(tag, hash) + ": stored bytes do not match the header's size");
  if (w.present(tag, hash)) return false;
  w.put(tag, hash, header, stored);
  return true;
}

void ArchiveWriter::write_raw_unchecked(Tag tag, std::uint64_t hash, const PayloadHeader& header,
                                        std::span<const std::uint8_t> stored) {
  Impl& w = *impl_;
  if (stored.size() != header.stored_size)
    throw Error(Errc::usage, w.path, describe_entry(tag, hash) + ": stored bytes do not match the header's size");
  if (static_cast<std::size_t>(tag) >= kTagCount)
    throw Error(Errc::usage, w.path,
                "tag " + std::to_string(static_cast<unsigned>(tag)) + " is not a Fossilize resource tag");
  w.put(tag, hash, header, stored);
}

void ArchiveWriter::write_entries_unchecked(std::span<const std::uint8_t> entries, std::uint64_t count) {
  Impl& w = *impl_;
  w.emit(entries.data(), entries.size());
  w.entries_written += count;
}

void ArchiveWriter::flush() {
  Impl& w = *impl_;
  if (!w.committed && !w.temp) w.fd_out->flush();
}

void ArchiveWriter::abandon() {
  Impl& w = *impl_;
  if (w.committed) return;
  w.committed = true;
  w.fd_out->abandon();
}

void ArchiveWriter::commit() {
  Impl& w = *impl_;
  if (w.committed) return;
  w.fd_out->close();
  w.committed = true;
  if (w.temp) w.temp->commit(w.path);
}

std::string ArchiveWriter::keep_partial() {
  Impl& w = *impl_;
  if (w.committed) return w.path;
  w.committed = true;
  try {
    w.fd_out->close();
  } catch (const Error&) {
    // Best effort: the original failure is what gets reported.
  }
  if (is_stdio(w.path)) return {};
  if (!w.temp) return w.path;
  const std::string partial = w.path + ".partial";
  try {
    w.temp->commit(partial);  // an archive of no entries is still one
  } catch (const Error&) {
    return {};
  }
  return partial;
}

const std::string& ArchiveWriter::path() const { return impl_->path; }
std::uint64_t ArchiveWriter::entries_written() const { return impl_->entries_written; }
std::uint64_t ArchiveWriter::bytes_written() const { return impl_->bytes_written; }
const AppendInfo& ArchiveWriter::append_info() const { return impl_->append; }

}  // namespace libtrace::foz
