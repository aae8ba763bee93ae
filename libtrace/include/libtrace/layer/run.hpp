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
  enum How { set, prepend, append };  // prepend/append join with `sep` to a value already there
  std::string name, value;
  How how = set;
  char sep = ':';
};

// The edits that make the Vulkan loader (1.3.234 and later) load the
// explicit layer `name`, whose manifest is in `dir`, into every instance the
// command and its children make, with the user's own layers kept:
// - the folder goes first in VK_LAYER_PATH, which the loader reads instead
//   of VK_ADD_LAYER_PATH whenever it is set (the Vulkan SDK's set-up exports
//   it). Where the user has none it is set to the folder and every folder
//   the loader would search by default, so that a script which extends
//   VK_LAYER_PATH for its own layer (PATH=mine:${VK_LAYER_PATH:-default})
//   keeps trak's. VK_ADD_LAYER_PATH gets it too, for a script that unsets
//   VK_LAYER_PATH. The loader (1.3.239) stacks explicit layers in the order
//   it finds their folders, whatever order VK_INSTANCE_LAYERS names them
//   in: trak's first puts it nearest the application, recording what the
//   application calls. A user who lists the folder in VK_LAYER_PATH already
//   keeps the place they gave it.
// - the name goes into VK_INSTANCE_LAYERS and VK_LOADER_LAYERS_ENABLE,
//   which a script that replaces VK_INSTANCE_LAYERS rarely touches and which
//   wins over VK_LOADER_LAYERS_DISABLE.
std::vector<EnvEdit> layer_environment(const std::string& name, const std::string& dir);

// For a tool that loads a layer into its own instances (trak-gpa info): the
// folder goes where this process's loader will look, VK_LAYER_PATH where
// that is set, else VK_ADD_LAYER_PATH.
void add_layer_folder(const std::string& dir);

// Why no instance (or device: `object`) of the command may have reached
// layer `name` enabled with layer_environment(), as a clause for "nothing
// captured: ...".
std::string why_layer_unseen(const std::string& name, const std::string& command, const char* object = "instance");

struct CommandResult {
  int exec_errno = 0;  // why the command could not be started (0: it ran)
  int status = 0;      // its exit status, or 128 + the signal that ended it
  int signal = 0;      // that signal, 0 when it exited
};

// Runs `argv` (the program looked up in PATH) and waits for it. While it
// runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to this process are passed
// on to the command (timeout(1), CI runners and service managers signal the
// launcher alone), so that this process lives to report what was recorded;
// a terminal's ^C reaches the command directly and is not sent twice.
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
