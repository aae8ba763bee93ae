// SPDX-License-Identifier: MIT
// The resume database: read once, appended in whole entries.
#include "replay/foz/done.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "libtrace/core/io.hpp"

namespace libtrace::foz::detail {

DoneLog::DoneLog(const std::string& path, const WarningSink& warnings) : path_(path) {
  if (is_stdio(path)) throw Error(Errc::usage, "--skip-done", "the resume database must be a file");
  {
    // The archive writer's append mode creates the file when it is missing
    // and truncates a torn tail; nothing is written here.
    ArchiveWriter w(path, WriteMode::append, ReadOptions{warnings});
    w.commit();
  }
  index_ = std::make_unique<ArchiveReader>(path, ReadOptions{warnings});
  existing_ = index_->size();
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) throw_errno(path);
}

DoneLog::~DoneLog() {
  try {
    flush();
  } catch (...) {
    // Losing the last entries only means they are replayed again next time.
  }
  if (fd_ >= 0) ::close(fd_);
}

bool DoneLog::contains(Tag tag, std::uint64_t hash) const { return index_->contains(tag, hash); }

void DoneLog::add(Tag tag, std::uint64_t hash) {
  const std::string name = entry_name(tag, hash);
  pending_.insert(pending_.end(), name.begin(), name.end());
  // PayloadHeader {stored_size 0, format 1 (none), crc 0, uncompressed 0}, little-endian.
  const std::uint8_t header[kPayloadHeaderSize] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  pending_.insert(pending_.end(), header, header + sizeof header);
  ++added_;
}

void DoneLog::flush() {
  write_all(fd_, pending_.data(), pending_.size(), path_);
  pending_.clear();
}

}  // namespace libtrace::foz::detail
