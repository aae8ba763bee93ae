// SPDX-License-Identifier: MIT
#include "libtrace/layer/run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string_view>

#include "libtrace/core/error.hpp"

extern char** environ;

namespace libtrace::layer {

namespace {

std::vector<std::string> command_environment(const std::vector<EnvEdit>& edits) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string_view kv(*e);
    const std::string_view name = kv.substr(0, kv.find('='));
    bool edited = false;
    for (const EnvEdit& x : edits) edited = edited || x.name == name;
    if (!edited) env.emplace_back(kv);
  }
  for (const EnvEdit& x : edits) {
    const char* old = std::getenv(x.name.c_str());
    std::string value = x.value;
    if (old && *old && x.how == EnvEdit::prepend) value = x.value + ":" + old;
    if (old && *old && x.how == EnvEdit::append) value = std::string(old) + ":" + x.value;
    env.push_back(x.name + "=" + value);
  }
  return env;
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv_in, const std::vector<EnvEdit>& edits) {
  CommandResult result;
  if (argv_in.empty()) throw Error(Errc::usage, "command", "no command to run");
  const std::vector<std::string> env = command_environment(edits);
  std::vector<char*> envp, argv;
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  for (const std::string& a : argv_in) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  // The child reports a failed exec through a pipe that a successful one
  // closes (O_CLOEXEC): the parent reads errno, or end of file.
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("command", "pipe");
  struct sigaction ignore {}, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    ::close(fds[0]);
    ::close(fds[1]);
    errno = err;
    throw_errno("command", "fork");
  }
  if (pid == 0) {
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    ::close(fds[0]);
    ::execvpe(argv[0], argv.data(), envp.data());
    const int err = errno;
    [[maybe_unused]] const ssize_t n = ::write(fds[1], &err, sizeof err);
    ::_exit(127);
  }
  ::close(fds[1]);
  int err = 0;
  ssize_t got;
  do got = ::read(fds[0], &err, sizeof err);
  while (got < 0 && errno == EINTR);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (got == static_cast<ssize_t>(sizeof err)) {
    result.exec_errno = err;
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.status = 128 + result.signal;
  } else {
    result.status = WEXITSTATUS(status);
  }
  return result;
}

ReportFile::ReportFile() {
  const char* tmp = std::getenv("TMPDIR");
  path_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/layer-report.XXXXXX";
  const int fd = ::mkstemp(path_.data());
  if (fd < 0) throw_errno(path_, "create");
  ::close(fd);
}

ReportFile::~ReportFile() { ::unlink(path_.c_str()); }

std::vector<std::string> ReportFile::lines() const {
  std::vector<std::string> out;
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

}  // namespace libtrace::layer
