// SPDX-License-Identifier: MIT
// The pipeline being created when the driver crashes is the one a bug report
// needs: while a CrashGuard lives on a thread, a fatal signal on that thread
// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) first writes the queued entries
// and the guarded pipelines to the archive, then goes on to whatever handler
// was there before (the application's, or the default: death by that signal).
#pragma once

#include "capture/foz/capture.hpp"
#include "capture/foz/recorder.hpp"

namespace libtrace::capture {

// Installs the handlers once per process (later calls do nothing).
void install_crash_handlers();

class CrashGuard {
 public:
  CrashGuard(FozRecorder& recorder, const PreparedPipelines& pipelines);
  ~CrashGuard();
  CrashGuard(const CrashGuard&) = delete;
  CrashGuard& operator=(const CrashGuard&) = delete;

  FozRecorder* recorder;
  const PreparedPipelines* pipelines;
  CrashGuard* outer;  // a guard further up this thread's stack (a layer above re-entering)
};

}  // namespace libtrace::capture
