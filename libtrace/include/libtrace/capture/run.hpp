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
  std::string foz_base;              // BASE of BASE.<hash>.<N>.foz; empty: no archive
  std::string trace;                 // the call stream's file; empty: none
  std::string snapshots;             // frames to snapshot with the trace ("1,150,300")
  std::string layer_dir;             // the folder of VkLayer_trak_capture.json
  std::string codec;                 // the trace's container: "" (snappy) or "zstd"
  int level = -1;                    // zstd's level, 1-19; -1: the layer's default (3)
  std::string frames;                // a trimmed trace's frame ranges ("200-300,900-910"); empty: all
  std::string trigger;               // "signal": SIGUSR1 starts and ends a trimmed trace's ranges
};

struct RunResult {
  int exec_errno = 0;                 // why the command could not be started (0: it ran)
  int status = 0;                     // its exit status, or 128 + the signal that ended it
  int signal = 0;                     // that signal, 0 when it exited
  bool instance_seen = false;         // an instance of the command reached the layer
  bool device_seen = false;           // and a device
  std::vector<std::string> archives;  // the archives the layer created, in order
  std::vector<std::string> traces;    // the traces, in order (one per process that traced)
  std::vector<std::string> problems;  // what the layer could not record, and why
  std::string unseen_because;         // with no instance seen: what may have kept the layer out
};

// Runs the command with the layer (layer::layer_environment) and waits for
// it; signals sent to this process go on to the command
// (layer::run_command). An existing trace of that name is emptied first.
// Throws Error(io) when the environment cannot be set up (no temporary file,
// no fork, a trace another capture is writing).
RunResult run(const RunOptions& opt);

// The layer's manifest, for layer::find_layer_dir().
inline constexpr const char* kLayerFolder = "capture";
inline constexpr const char* kManifest = "VkLayer_trak_capture.json";

}  // namespace libtrace::capture
