// SPDX-License-Identifier: MIT
// --skip-done: the resume database, a .foz archive of 0-byte entries naming the
// pipelines a run has finished (Fossilize's --replayer-cache convention),
// appended while the run goes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "replay/foz/plan.hpp"

namespace libtrace::foz::detail {

class DoneLog final : public DoneSet {
 public:
  // Opens (or creates) the archive, cuts a torn tail left by a killed run,
  // and indexes what is there.
  explicit DoneLog(const std::string& path, const WarningSink& warnings);
  ~DoneLog() override;
  DoneLog(const DoneLog&) = delete;
  DoneLog& operator=(const DoneLog&) = delete;

  bool contains(Tag tag, std::uint64_t hash) const override;
  std::uint64_t existing() const { return existing_; }
  std::uint64_t added() const { return added_; }

  // Queues one entry; flush() writes the queue with one write(2) on an
  // O_APPEND descriptor, so a killed run leaves whole entries (at worst one
  // torn one, cut off by the next open).
  void add(Tag tag, std::uint64_t hash);
  void flush();
  const std::string& path() const { return path_; }
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<ArchiveReader> index_;
  std::vector<std::uint8_t> pending_;
  std::uint64_t existing_ = 0, added_ = 0;
};

}  // namespace libtrace::foz::detail
