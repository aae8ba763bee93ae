// SPDX-License-Identifier: MIT
// Where VK_LAYER_TRAK_gpa's profiling mode writes: the folder named by
// TRAK_GPA_PROFILE, which trak-gpa made for this run, gets one file per device
// of every process, "<pid>.<n>.csv" (n counts this process's devices from 0).
// A file of its own per device means that no other device or process can
// truncate or interleave its rows, each keeps its own header (an application
// that samples counters itself gets a profile of GPU times only), and a
// process that dies can tear only its own last line.
//
// The file is made when the device is, whether or not it can be profiled: its
// first line, "# device pid=P n=N start_ns=T" (T on CLOCK_MONOTONIC, to order
// the devices of several processes), tells the launcher that the application
// made a device even when it died before any sample.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

namespace libtrace::gpa {

class RowsFile {
 public:
  RowsFile() = default;
  // Creates the file in `dir`; when it cannot, says so once on stderr and
  // stays closed (writes do nothing).
  explicit RowsFile(const std::string& dir);
  ~RowsFile();
  RowsFile(RowsFile&& o) noexcept;
  RowsFile& operator=(RowsFile&& o) noexcept;
  RowsFile(const RowsFile&) = delete;
  RowsFile& operator=(const RowsFile&) = delete;

  bool open() const { return fd_ >= 0; }
  // Whether this process made it: a child forked from the process that did
  // holds a copy of its state, whose rows are the parent's to write.
  bool owned_here() const;
  // Whole lines, in one write(2) where the kernel takes them at once, straight
  // to the file: nothing is buffered in the process, so nothing is lost when
  // it is killed and nothing is written twice when a forked child leaves with
  // exit(). Does nothing in a forked child. A failed write is logged once.
  void write(std::string_view lines);

 private:
  int fd_ = -1;
  pid_t owner_ = 0;
  std::string path_;
};

}  // namespace libtrace::gpa
