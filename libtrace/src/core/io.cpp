// SPDX-License-Identifier: MIT
// InputFile / OutputFile over POSIX file descriptors.
#include "libtrace/core/io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/thread.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace {

InputFile::InputFile(const std::string& path) {
  if (is_stdio(path)) {
    fd_ = STDIN_FILENO;
    name_ = "<stdin>";
  } else {
    name_ = path;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw_errno(name_);
    owns_fd_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (owns_fd_) ::close(fd_);
      fd_ = -1;
      throw Error(Errc::io, name_, "Is a directory");
    }
    if (S_ISREG(st.st_mode)) size_ = static_cast<std::uint64_t>(st.st_size);
  }
}

InputFile::~InputFile() {
  if (map_) ::munmap(map_, map_size_);
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

std::string_view InputFile::map_rest() {
  if (map_ || size_ == 0 || size_ > SIZE_MAX) return {};
  // Where the next unconsumed byte is in the file: stdin may be a file whose
  // position did not start at 0.
  const off_t pos = ::lseek(fd_, 0, SEEK_CUR);
  if (pos < 0 || static_cast<std::uint64_t>(pos) < pushback_.size() || static_cast<std::uint64_t>(pos) > size_)
    return {};
  const auto start = static_cast<std::size_t>(static_cast<std::uint64_t>(pos) - pushback_.size());
  if (start >= size_) return {};
  void* m = ::mmap(nullptr, static_cast<std::size_t>(size_), PROT_READ, MAP_PRIVATE, fd_, 0);
  if (m == MAP_FAILED) return {};
  map_ = m;
  map_size_ = static_cast<std::size_t>(size_);
  // Read once, front to back: the kernel may read ahead further and drop
  // pages behind.
  ::madvise(map_, map_size_, MADV_SEQUENTIAL);
  const std::string_view rest(static_cast<const char*>(map_) + start, map_size_ - start);
  offset_ += rest.size();
  pushback_.clear();
  return rest;
}

void InputFile::unmap_range(std::string_view bytes) { advise_mapped(bytes, MADV_DONTNEED, true); }

void InputFile::populate(std::string_view bytes) {
#if defined(MADV_POPULATE_READ)
  // A hint: a kernel before 5.14 says EINVAL, and the pages fault in as read.
  advise_mapped(bytes, MADV_POPULATE_READ, false);
#else
  (void)bytes;
#endif
}

void InputFile::advise_mapped(std::string_view bytes, int advice, bool inner) {
  const auto* base = static_cast<const char*>(map_);
  if (!map_ || bytes.empty() || bytes.data() < base || bytes.data() + bytes.size() > base + map_size_) return;
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto lo = reinterpret_cast<std::uintptr_t>(bytes.data()), hi = lo + bytes.size();
  const auto begin = inner ? (lo + page - 1) & ~(page - 1) : lo & ~(page - 1);
  const auto end = inner ? hi & ~(page - 1) : hi;
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, advice);
}

std::size_t InputFile::read(void* dst, std::size_t n) {
  if (n == 0) return 0;
  if (!pushback_.empty()) {
    const std::size_t k = std::min(n, pushback_.size());
    std::memcpy(dst, pushback_.data(), k);
    pushback_.erase(0, k);
    offset_ += k;
    return k;
  }
  if (map_) return 0;  // map_rest() took the rest
  for (;;) {
    const ssize_t r = ::read(fd_, dst, n);
    if (r >= 0) {
      offset_ += static_cast<std::uint64_t>(r);
      return static_cast<std::size_t>(r);
    }
    if (errno != EINTR) throw_errno(at_offset(name_, offset_), "read");
  }
}

std::size_t InputFile::read_full(void* dst, std::size_t n) {
  auto* p = static_cast<char*>(dst);
  std::size_t got = 0;
  while (got < n) {
    const std::size_t r = read(p + got, n - got);
    if (r == 0) break;
    got += r;
  }
  return got;
}

std::string_view InputFile::peek(std::size_t n) {
  while (!map_ && pushback_.size() < n) {
    char tmp[256];
    const std::size_t want = std::min(sizeof tmp, n - pushback_.size());
    ssize_t r;
    do {
      r = ::read(fd_, tmp, want);
    } while (r < 0 && errno == EINTR);
    if (r < 0) throw_errno(at_offset(name_, offset_), "read");
    if (r == 0) break;
    pushback_.append(tmp, static_cast<std::size_t>(r));
  }
  return std::string_view(pushback_).substr(0, n);
}

namespace {
constexpr std::size_t kOutBuf = 1 << 18;
}

OutputFile::OutputFile(const std::string& path) : buf_(kOutBuf), spare_(kOutBuf) {
  if (is_stdio(path)) {
    fd_ = STDOUT_FILENO;
    name_ = "<stdout>";
  } else {
    name_ = path;
    target_ = path;
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
      if (S_ISDIR(st.st_mode)) throw Error(Errc::io, name_, "Is a directory");
      fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) throw_errno(name_);
      owns_fd_ = true;
      writer_ = detail::start_thread([this] { run_writer(); });
      return;
    }
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      if (char* real = ::realpath(path.c_str(), nullptr)) {
        target_ = real;
        std::free(real);
      }
    }
    try {
      tmp_ = std::make_unique<TempFile>(target_);
    } catch (const Error& e) {
      throw Error(e.code(), name_, e.message());
    }
    fd_ = tmp_->fd();
  }
  writer_ = detail::start_thread([this] { run_writer(); });
}

OutputFile::~OutputFile() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  writer_.join();
  tmp_.reset();  // discards the bytes unless committed
  if (owns_fd_) ::close(fd_);
}

void OutputFile::run_writer() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return busy_ || stop_; });
    if (!busy_) return;
    lock.unlock();
    try {
      write_fd(spare_.data(), spare_used_);
    } catch (...) {
      lock.lock();
      error_ = std::current_exception();
      busy_ = false;
      cv_.notify_all();
      continue;
    }
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

void OutputFile::wait_idle() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return !busy_; });
  if (error_) std::rethrow_exception(error_);
}

void OutputFile::hand_over() {
  if (used_ == 0) return;
  wait_idle();
  {
    std::lock_guard lock(mu_);
    std::swap(buf_, spare_);
    spare_used_ = used_;
    used_ = 0;
    busy_ = true;
  }
  cv_.notify_all();
}

void write_all(int fd, const void* data, std::size_t size, const std::string& where, std::string_view action) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t r = ::write(fd, p, size);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw_errno(where, action);
    }
    p += r;
    size -= static_cast<std::size_t>(r);
  }
}

void OutputFile::write_fd(const void* data, std::size_t size) { write_all(fd_, data, size, name_); }

void OutputFile::write(const void* data, std::size_t size) {
  written_ += size;
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const std::size_t k = std::min(size, buf_.size() - used_);
    std::memcpy(buf_.data() + used_, p, k);
    used_ += k;
    p += k;
    size -= k;
    if (used_ == buf_.size()) hand_over();
  }
}

void OutputFile::flush() {
  hand_over();
  wait_idle();
}

void OutputFile::commit() {
  flush();
  if (!tmp_ || done_) return;
  done_ = true;
  tmp_->commit(target_);
}

std::string OutputFile::temp_path() const { return tmp_ && !done_ ? tmp_->path() : std::string(); }

std::string OutputFile::keep_partial() {
  try {
    flush();
  } catch (const std::exception&) {
    // The partial output is best effort; the original error is what matters.
  }
  if (!tmp_ || done_) return {};
  done_ = true;
  const std::string partial = target_ + ".partial";
  if (written_ == 0) return {};
  try {
    tmp_->commit(partial);
  } catch (const Error&) {
    return {};
  }
  return partial;
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }
bool stdin_is_terminal() { return ::isatty(STDIN_FILENO) == 1; }
bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace libtrace
