// SPDX-License-Identifier: MIT
// Running an application with VK_LAYER_TRAK_capture: the loader's environment
// enables the layer for that command alone, and the layer reports back which
// archives it wrote.
#pragma once

#include <string>
#include <vector>

namespace libtrace::capture {

struct RunOptions {
  std::vector<std::string> command;  // argv; the program is looked up in PATH
  std::string foz_base;              // BASE of BASE.<hash>.<N>.foz
  std::string layer_dir;             // the folder of VkLayer_trak_capture.json
};

struct RunResult {
  int exec_errno = 0;                 // why the command could not be started (0: it ran)
  int status = 0;                     // its exit status, or 128 + the signal that ended it
  int signal = 0;                     // that signal, 0 when it exited
  std::vector<std::string> archives;  // the archives the layer created, in order
};

// Runs the command and waits for it. While it runs, SIGINT and SIGQUIT are
// the command's to handle (as for system(3)). Throws Error(io) only when the
// environment cannot be set up (no temporary file, no fork).
RunResult run(const RunOptions& opt);

// The layer's manifest, for layer::find_layer_dir().
inline constexpr const char* kLayerFolder = "capture";
inline constexpr const char* kManifest = "VkLayer_trak_capture.json";

}  // namespace libtrace::capture
