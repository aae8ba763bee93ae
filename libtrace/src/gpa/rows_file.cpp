// SPDX-License-Identifier: MIT
#include "gpa/rows_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>

#include "layer/layer.hpp"
#include "libtrace/gpa/layer.hpp"

namespace libtrace::gpa {

namespace {

// This process's devices, counted to name their files. A forked child starts
// from the parent's count, and its pid differs anyway.
std::atomic<unsigned> g_devices{0};

}  // namespace

RowsFile::RowsFile(const std::string& dir) : owner_(::getpid()) {
  // O_EXCL: a file that is there already (a pid used again by a later
  // process of the same run) is someone else's: the next number is taken.
  for (int tries = 0; tries < 1000 && fd_ < 0; ++tries) {
    const unsigned n = g_devices++;
    path_ = dir + "/" + std::to_string(owner_) + "." + std::to_string(n) + ".csv";
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
    if (fd_ < 0 && errno != EEXIST) break;
    if (fd_ >= 0) {
      timespec now{};
      ::clock_gettime(CLOCK_MONOTONIC, &now);
      const long long ns = static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
      write("# device pid=" + std::to_string(owner_) + " n=" + std::to_string(n) + " start_ns=" + std::to_string(ns) +
            "\n");
    }
  }
  if (fd_ < 0) layer::log_once(kLayerName, "cannot write the profile " + path_, std::strerror(errno));
}

RowsFile::~RowsFile() {
  if (fd_ >= 0) ::close(fd_);
}

RowsFile::RowsFile(RowsFile&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), owner_(o.owner_), path_(std::move(o.path_)) {}

RowsFile& RowsFile::operator=(RowsFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    owner_ = o.owner_;
    path_ = std::move(o.path_);
  }
  return *this;
}

bool RowsFile::owned_here() const { return owner_ == ::getpid(); }

void RowsFile::write(std::string_view lines) {
  if (fd_ < 0 || !owned_here()) return;
  while (!lines.empty()) {
    const ssize_t n = ::write(fd_, lines.data(), lines.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      layer::log_once(kLayerName, "cannot write the profile " + path_,
                      n < 0 ? std::strerror(errno) : "nothing written");
      return;
    }
    lines.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace libtrace::gpa
