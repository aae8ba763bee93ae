// SPDX-License-Identifier: MIT
// TempFile (core/temp_file.hpp).
#include "libtrace/core/temp_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <random>

#include "libtrace/core/error.hpp"

namespace libtrace {

namespace {

// Named temporaries, for the signal handlers: fixed slots, since a handler
// may neither allocate nor lock.
constexpr std::size_t kSlots = 32, kPathMax = 4096;
// 0 free, 1 being filled, 2 a path the handler may remove.
std::array<std::atomic<int>, kSlots> g_state{};
std::array<std::array<char, kPathMax>, kSlots> g_paths{};

int remember(const std::string& path) {
  if (path.size() >= kPathMax) return -1;
  for (std::size_t i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_state[i].compare_exchange_strong(expected, 1)) {
      std::memcpy(g_paths[i].data(), path.c_str(), path.size() + 1);
      g_state[i].store(2);
      return static_cast<int>(i);
    }
  }
  return -1;  // more at once than slots: left to the destructor alone
}

void forget(int slot) {
  if (slot >= 0) g_state[static_cast<std::size_t>(slot)].store(0);
}

extern "C" void on_signal(int sig) {
  for (std::size_t i = 0; i < kSlots; ++i)
    if (g_state[i].load() == 2) ::unlink(g_paths[i].data());
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A name beside `dest` that nothing has: DEST.trak-XXXXXX.
std::string fresh_name(const std::string& dest) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937 rng{std::random_device{}()};
  std::string name = dest + ".trak-XXXXXX";
  for (std::size_t i = name.size() - 6; i < name.size(); ++i) name[i] = kChars[rng() % (sizeof kChars - 1)];
  return name;
}

}  // namespace

TempFile::TempFile(const std::string& dest) : dest_(dest) {
  struct stat st {};
  const bool exists = ::stat(dest.c_str(), &st) == 0;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const mode_t mode = exists ? (st.st_mode & 0777) : (0666 & ~mask);
  fd_ = ::open(directory_of(dest).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  if (fd_ >= 0) {
    ::fchmod(fd_, mode);  // as the destination's, whatever the umask
    return;
  }
  // No O_TMPFILE here (some file systems): a named temporary.
  for (int tries = 0; fd_ < 0; ++tries) {
    named_ = fresh_name(dest);
    fd_ = ::open(named_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ < 0 && (errno != EEXIST || tries > 100)) {
      named_.clear();
      throw_errno(dest, "cannot create temporary file");
    }
  }
  ::fchmod(fd_, mode);
  slot_ = remember(named_);
}

TempFile::~TempFile() { discard(); }

std::string TempFile::path() const { return named_.empty() ? "/proc/self/fd/" + std::to_string(fd_) : named_; }

void TempFile::discard() {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  if (!named_.empty()) ::unlink(named_.c_str());
  forget(slot_);
  slot_ = -1;
}

void TempFile::commit(const std::string& name) {
  if (fd_ < 0) throw Error(Errc::usage, dest_, "committed twice");
  if (named_.empty()) {
    // An unnamed file gets a name by a link, then the rename replaces the
    // destination atomically.
    const std::string proc = path();
    for (int tries = 0;; ++tries) {
      named_ = fresh_name(dest_);
      slot_ = remember(named_);
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, named_.c_str(), AT_SYMLINK_FOLLOW) == 0 ||
          ::linkat(fd_, "", AT_FDCWD, named_.c_str(), AT_EMPTY_PATH) == 0)
        break;
      const int err = errno;
      forget(slot_);
      slot_ = -1;
      if (err != EEXIST || tries > 100) {
        named_.clear();
        errno = err;
        discard();
        throw_errno(dest_, "cannot name the output");
      }
    }
  }
  if (::close(fd_) != 0) {
    const int err = errno;
    fd_ = -1;
    ::unlink(named_.c_str());
    forget(slot_);
    errno = err;
    throw_errno(dest_, "close");
  }
  fd_ = -1;
  const bool renamed = ::rename(named_.c_str(), name.c_str()) == 0;
  const int err = errno;
  if (!renamed) ::unlink(named_.c_str());
  forget(slot_);
  slot_ = -1;
  named_.clear();
  if (!renamed) {
    errno = err;
    throw_errno(name, "rename");
  }
}

void remove_temporaries_on_signals() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace libtrace
