// SPDX-License-Identifier: MIT
// spirv-val (from SPIRV-Tools) run on one shader module's bytes, for the
// replays' --validate: as a separate process, so that a validator crash or a
// module that makes it loop cannot take the replay with it.
#include "vk/spirv_val.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "libtrace/core/error.hpp"

extern char** environ;

namespace libtrace::vk {

namespace {

// The first non-empty line of what the validator said.
std::string first_line(const std::string& s) {
  std::size_t at = 0;
  while (at < s.size()) {
    const std::size_t nl = std::min(s.find('\n', at), s.size());
    if (nl > at) return s.substr(at, nl - at);
    at = nl + 1;
  }
  return "rejected without a message";
}

}  // namespace

std::string run_validator(const std::string& tool, const std::uint8_t* data, std::size_t bytes) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw_errno("--validate", "pipe");
  if (::pipe2(out, O_CLOEXEC) != 0) throw_errno("--validate", "pipe");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, out[1], STDERR_FILENO);
  // vulkan1.3 accepts every SPIR-V version a Vulkan driver may take.
  char* argv[] = {const_cast<char*>(tool.c_str()), const_cast<char*>("--target-env"), const_cast<char*>("vulkan1.3"),
                  const_cast<char*>("-"), nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, tool.c_str(), &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(in[0]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    throw Error(Errc::usage, "--validate",
                "cannot run '" + tool + "' (" + std::strerror(rc) + "): install spirv-tools or drop --validate");
  }
  // The validator reads all of its input before it prints, so writing first
  // and reading after cannot deadlock. A validator that quits early must not
  // take this process with it: SIGPIPE is held back in this thread.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  bool broken = false;
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t w = ::write(in[1], data + done, bytes - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      broken = true;
      break;
    }
    done += static_cast<std::size_t>(w);
  }
  ::close(in[1]);
  if (broken) {
    const timespec zero{};
    ::sigtimedwait(&pipe_set, nullptr, &zero);
  }
  ::pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  std::string said;
  char buf[4096];
  for (;;) {
    const ssize_t r = ::read(out[0], buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    said.append(buf, static_cast<std::size_t>(r));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw Error(Errc::usage, "--validate", "cannot run '" + tool + "': install spirv-tools or drop --validate");
  return first_line(said);
}

}  // namespace libtrace::vk
