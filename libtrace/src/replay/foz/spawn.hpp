// SPDX-License-Identifier: MIT
// Starting a worker process and talking to it. A worker is a fresh process
// image (posix_spawn), not a fork: a driver initialized in the parent (the
// caller may have used Vulkan) leaves nothing behind in it, which NVIDIA's
// driver needs. It inherits exactly four descriptors: /dev/null as stdin,
// stderr as stdout and stderr, and its end of a socket pair as
// kWorkerChannelFd; everything else is closed, whatever its close-on-exec
// flag.
#pragma once

#include <sys/types.h>

#include <string>

#include "replay/foz/proto.hpp"

namespace libtrace::foz::detail {

inline constexpr int kWorkerChannelFd = 3;

struct SpawnedWorker {
  pid_t pid = -1;
  int fd = -1;  // the parent's end: close-on-exec, non-blocking
};

// Starts `exe kWorkerFlag 3`. Error when the socket pair cannot be made or
// the program cannot be run.
SpawnedWorker spawn_worker(const std::string& exe);

// Writes a whole frame (waiting while the socket is full), with `pass_fd`
// attached to its first byte when >= 0. False when the other end is gone.
// Never raises SIGPIPE.
bool send_frame(int fd, const std::string& frame, int pass_fd = -1);

// Blocking: the next whole frame from `fd`, with `buf` holding what was read
// beyond it. A descriptor attached to it goes to *passed (-1 when none;
// passed may be null, and then one is closed). False at end of file or on an
// error.
bool read_frame(int fd, std::string& buf, MsgKind& kind, std::string& body, int* passed);

}  // namespace libtrace::foz::detail
