// SPDX-License-Identifier: MIT
#include "libtrace/layer/run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
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
    if (old && *old && x.how == EnvEdit::prepend) value = x.value + x.sep + old;
    if (old && *old && x.how == EnvEdit::append) value = std::string(old) + x.sep + x.value;
    env.push_back(x.name + "=" + value);
  }
  return env;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// The folders the loader searches for explicit layers when VK_LAYER_PATH is
// unset (loader.c, read_data_files_in_search_paths: VK_ADD_LAYER_PATH, then
// the XDG config folders, the system's, the XDG data folders), once each.
std::string default_layer_path() {
  const std::string home = env_or("HOME", "");
  std::vector<std::string> roots;
  auto add_list = [&](const std::string& list) {
    std::size_t at = 0;
    while (at <= list.size()) {
      const std::size_t colon = std::min(list.find(':', at), list.size());
      if (colon > at) roots.push_back(list.substr(at, colon - at));
      at = colon + 1;
    }
  };
  add_list(env_or("XDG_CONFIG_HOME", home.empty() ? "" : home + "/.config"));
  add_list(env_or("XDG_CONFIG_DIRS", "/etc/xdg"));
  add_list("/usr/local/etc:/etc");
  add_list(env_or("XDG_DATA_HOME", home.empty() ? "" : home + "/.local/share"));
  add_list(env_or("XDG_DATA_DIRS", "/usr/local/share:/usr/share"));
  std::string path = env_or("VK_ADD_LAYER_PATH", "");
  std::vector<std::string> seen;
  for (const std::string& r : roots) {
    const std::string dir = r + "/vulkan/explicit_layer.d";
    if (std::find(seen.begin(), seen.end(), dir) != seen.end()) continue;
    seen.push_back(dir);
    path += (path.empty() ? "" : ":") + dir;
  }
  return path;
}

// A folder as the file system knows it ("a/../b" and "b" are one).
std::string canonical(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// Whether the list in `var` holds `item` (folders compared as the file
// system knows them, for the path variables).
bool lists(const char* var, const std::string& item, char sep) {
  const std::string v = env_or(var, "");
  const bool folders = sep == ':';
  const std::string want = folders ? canonical(item) : item;
  std::size_t at = 0;
  while (at <= v.size()) {
    const std::size_t end = std::min(v.find(sep, at), v.size());
    const std::string got = v.substr(at, end - at);
    if ((folders ? canonical(got) : got) == want) return true;
    at = end + 1;
  }
  return false;
}

// The command being waited for, for the signal handler.
volatile sig_atomic_t g_child = 0;

// A signal sent to this process alone (kill(1), timeout(1), a CI runner)
// goes on to the command. One the kernel sent (a terminal's ^C, to the
// whole foreground group) reached the command already.
void pass_on(int sig, siginfo_t* info, void*) {
  if (g_child > 0 && (!info || info->si_code != SI_KERNEL)) ::kill(static_cast<pid_t>(g_child), sig);
}

// SIGUSR1 and SIGUSR2 too: a layer may take them as triggers.
constexpr int kPassed[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

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
  // Blocked from before fork() until the child's pid is known, so that a
  // signal in between is passed on rather than lost.
  sigset_t passed, old_mask;
  sigemptyset(&passed);
  for (int sig : kPassed) sigaddset(&passed, sig);
  ::pthread_sigmask(SIG_BLOCK, &passed, &old_mask);
  struct sigaction forward {};
  forward.sa_sigaction = pass_on;
  forward.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forward.sa_mask);
  struct sigaction old[std::size(kPassed)];
  for (std::size_t i = 0; i < std::size(kPassed); ++i) ::sigaction(kPassed[i], &forward, &old[i]);
  auto restore = [&] {
    g_child = 0;
    for (std::size_t i = 0; i < std::size(kPassed); ++i) ::sigaction(kPassed[i], &old[i], nullptr);
    ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  };
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    restore();
    ::close(fds[0]);
    ::close(fds[1]);
    errno = err;
    throw_errno("command", "fork");
  }
  if (pid == 0) {
    for (std::size_t i = 0; i < std::size(kPassed); ++i) ::sigaction(kPassed[i], &old[i], nullptr);
    ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    ::close(fds[0]);
    ::execvpe(argv[0], argv.data(), envp.data());
    const int err = errno;
    [[maybe_unused]] const ssize_t n = ::write(fds[1], &err, sizeof err);
    ::_exit(127);
  }
  g_child = pid;
  ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  ::close(fds[1]);
  int err = 0;
  ssize_t got;
  do got = ::read(fds[0], &err, sizeof err);
  while (got < 0 && errno == EINTR);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  restore();
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

std::vector<EnvEdit> layer_environment(const std::string& name, const std::string& dir) {
  const char* user_path = std::getenv("VK_LAYER_PATH");
  std::vector<EnvEdit> edits = {
      {"VK_ADD_LAYER_PATH", dir, EnvEdit::prepend},
      {"VK_INSTANCE_LAYERS", name, EnvEdit::append},
      {"VK_LOADER_LAYERS_ENABLE", name, EnvEdit::append, ','},
  };
  if (user_path && *user_path)
    edits.push_back({"VK_LAYER_PATH", dir, EnvEdit::prepend});
  else
    edits.push_back({"VK_LAYER_PATH", dir + ":" + default_layer_path()});
  // Each is a list the user may have set already: ours is added only once.
  std::erase_if(edits,
                [&](const EnvEdit& e) { return e.how != EnvEdit::set && lists(e.name.c_str(), e.value, e.sep); });
  return edits;
}

void add_layer_folder(const std::string& dir) {
  const char* var =
      std::getenv("VK_LAYER_PATH") && *std::getenv("VK_LAYER_PATH") ? "VK_LAYER_PATH" : "VK_ADD_LAYER_PATH";
  const std::string old = env_or(var, "");
  ::setenv(var, (old.empty() ? dir : dir + ":" + old).c_str(), 1);
}

std::string why_layer_unseen(const std::string& name, const std::string& command, const char* object) {
  // VK_LOADER_LAYERS_ENABLE wins over VK_LOADER_LAYERS_DISABLE and outlives
  // a VK_INSTANCE_LAYERS the command replaces: what is left is below.
  return std::string("no Vulkan ") + object + " reached " + name + " (" + command +
         " made none, or it replaced VK_LAYER_PATH or VK_LOADER_LAYERS_ENABLE without keeping their values)";
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
