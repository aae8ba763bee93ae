// SPDX-License-Identifier: MIT
// Running an application with a trak layer: the loader's environment enables
// the layer for that command alone, and the layer reports back through a
// temporary file.
#pragma once

#include <string>
#include <vector>

namespace libtrace::layer {

// How the command's environment differs from ours.
struct EnvEdit {
  enum How { set, prepend, append };  // prepend/append join with ':' to a value already there
  std::string name, value;
  How how = set;
};

struct CommandResult {
  int exec_errno = 0;  // why the command could not be started (0: it ran)
  int status = 0;      // its exit status, or 128 + the signal that ended it
  int signal = 0;      // that signal, 0 when it exited
};

// Runs `argv` (the program looked up in PATH) and waits for it. While it
// runs, SIGINT and SIGQUIT are the command's to handle (as for system(3)).
// Throws Error(io) only when no process can be started (fork, pipe).
CommandResult run_command(const std::vector<std::string>& argv, const std::vector<EnvEdit>& env);

// A temporary file the layer writes to (named in the command's environment),
// removed with this object.
class ReportFile {
 public:
  ReportFile();  // Error(io) when none can be made
  ~ReportFile();
  ReportFile(const ReportFile&) = delete;
  ReportFile& operator=(const ReportFile&) = delete;
  const std::string& path() const { return path_; }
  std::vector<std::string> lines() const;  // non-empty ones

 private:
  std::string path_;
};

}  // namespace libtrace::layer
