// SPDX-License-Identifier: MIT
// posix_spawn of worker processes, and frames with descriptors attached.
#include "replay/foz/spawn.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "libtrace/core/error.hpp"
#include "libtrace/replay/foz/replay.hpp"

extern char** environ;

namespace libtrace::foz::detail {

namespace {

// posix_spawn's attributes and file actions, released on every path.
struct SpawnPlan {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnPlan() {
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawnattr_init(&attr);
  }
  ~SpawnPlan() {
    ::posix_spawn_file_actions_destroy(&actions);
    ::posix_spawnattr_destroy(&attr);
  }
  SpawnPlan(const SpawnPlan&) = delete;
  SpawnPlan& operator=(const SpawnPlan&) = delete;
};

}  // namespace

SpawnedWorker spawn_worker(const std::string& exe) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) throw_errno("", "socketpair");
  SpawnPlan p;
  // The order matters: the child's end may itself be 0, 1 or 2. dup2 onto
  // the same number clears close-on-exec too (glibc >= 2.29).
  ::posix_spawn_file_actions_adddup2(&p.actions, sv[1], kWorkerChannelFd);
  ::posix_spawn_file_actions_addopen(&p.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // stdout carries the parent's data only; what a driver prints goes to stderr.
  ::posix_spawn_file_actions_adddup2(&p.actions, STDERR_FILENO, STDOUT_FILENO);
  // Whatever the caller left open without close-on-exec (a test framework's
  // files, a resume database) stays out of the worker.
  ::posix_spawn_file_actions_addclosefrom_np(&p.actions, kWorkerChannelFd + 1);
  // A signal mask is inherited through exec; the worker starts with none.
  sigset_t none;
  sigemptyset(&none);
  ::posix_spawnattr_setsigmask(&p.attr, &none);
  ::posix_spawnattr_setflags(&p.attr, POSIX_SPAWN_SETSIGMASK);

  // argv[0] is what ps shows: the program's own path rather than
  // "/proc/self/exe".
  std::string name = exe;
  char target[4096];
  if (const ssize_t n = ::readlink(exe.c_str(), target, sizeof target);
      n > 0 && n < static_cast<ssize_t>(sizeof target))
    name.assign(target, static_cast<std::size_t>(n));
  const std::string fd_arg = std::to_string(kWorkerChannelFd);
  std::string flag(kWorkerFlag);
  char* argv[] = {name.data(), flag.data(), const_cast<char*>(fd_arg.c_str()), nullptr};
  pid_t pid = -1;
  const int err = ::posix_spawn(&pid, exe.c_str(), &p.actions, &p.attr, argv, environ);
  ::close(sv[1]);
  if (err != 0) {
    ::close(sv[0]);
    throw Error(Errc::io, exe, std::string("cannot start a replay worker: ") + std::strerror(err));
  }
  ::fcntl(sv[0], F_SETFL, O_NONBLOCK);
  return SpawnedWorker{pid, sv[0]};
}

bool send_frame(int fd, const std::string& frame, int pass_fd) {
  const char* p = frame.data();
  std::size_t n = frame.size();
  bool attach = pass_fd >= 0;
  while (n > 0) {
    iovec iov{const_cast<char*>(p), n};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (attach) {
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int));
      std::memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
    }
    const ssize_t r = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (r < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        pollfd w{fd, POLLOUT, 0};
        ::poll(&w, 1, 1000);
        continue;
      }
      return false;
    }
    attach = false;  // it went with the first bytes
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

bool read_frame(int fd, std::string& buf, MsgKind& kind, std::string& body, int* passed) {
  if (passed) *passed = -1;
  for (;;) {
    if (next_frame(buf, kind, body)) return true;
    char data[1 << 16];
    iovec iov{data, sizeof data};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t r = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      int got = -1;
      std::memcpy(&got, CMSG_DATA(c), sizeof(int));
      if (passed && *passed < 0)
        *passed = got;
      else
        ::close(got);
    }
    buf.append(data, static_cast<std::size_t>(r));
  }
}

}  // namespace libtrace::foz::detail
