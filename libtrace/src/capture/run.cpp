// SPDX-License-Identifier: MIT
#include "libtrace/capture/run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "capture/names.hpp"
#include "libtrace/core/error.hpp"

extern char** environ;

namespace libtrace::capture {

namespace {

// The environment of the command: ours, with the layer added to the
// loader's search path and to the enabled layers (after any the user set).
std::vector<std::string> command_environment(const RunOptions& opt, const std::string& report) {
  std::vector<std::string> env;
  std::string add_path = opt.layer_dir, layers = kLayerName;
  for (char** e = environ; *e; ++e) {
    const std::string_view kv(*e);
    const auto value = [&] { return std::string(kv.substr(kv.find('=') + 1)); };
    if (kv.starts_with("VK_ADD_LAYER_PATH=")) {
      if (!value().empty()) add_path += ":" + value();
    } else if (kv.starts_with("VK_INSTANCE_LAYERS=")) {
      if (!value().empty()) layers = value() + ":" + layers;
    } else if (kv.starts_with(std::string(kEnvFoz) + "=") || kv.starts_with(std::string(kEnvReport) + "=")) {
      // ours to set
    } else {
      env.emplace_back(kv);
    }
  }
  env.push_back("VK_ADD_LAYER_PATH=" + add_path);
  env.push_back("VK_INSTANCE_LAYERS=" + layers);
  env.push_back(std::string(kEnvFoz) + "=" + opt.foz_base);
  env.push_back(std::string(kEnvReport) + "=" + report);
  return env;
}

std::string make_report_file() {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/capture-report.XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) throw_errno(path, "create");
  ::close(fd);
  return path;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

}  // namespace

RunResult run(const RunOptions& opt) {
  RunResult result;
  if (opt.command.empty()) throw Error(Errc::usage, "capture", "no command to run");
  const std::string report = make_report_file();
  struct Unlink {
    const std::string& p;
    ~Unlink() { ::unlink(p.c_str()); }
  } unlink_report{report};

  const std::vector<std::string> env = command_environment(opt, report);
  std::vector<char*> envp, argv;
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  for (const std::string& a : opt.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  // The child reports a failed exec through a pipe that a successful one
  // closes (O_CLOEXEC): the parent reads errno, or end of file.
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("capture", "pipe");
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
    throw_errno("capture", "fork");
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
    return result;
  }
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.status = 128 + result.signal;
  } else {
    result.status = WEXITSTATUS(status);
  }
  result.archives = read_lines(report);
  return result;
}

}  // namespace libtrace::capture
