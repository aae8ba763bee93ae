// SPDX-License-Identifier: MIT
#include "capture/crash_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <iterator>
#include <mutex>
#include <string>

#include "capture/names.hpp"
#include "capture/trace/stream.hpp"
#include "layer/layer.hpp"

namespace libtrace::capture {

namespace {

// Faults, abort(), and what ends a process that has no handler of its own
// for them (timeout(1), a CI runner, ^C): each ends the process as before,
// once what was recorded is in the files.
constexpr int kFatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
constexpr int kFaults = 5;  // the first ones: always taken over

thread_local CrashGuard* t_guard = nullptr;
struct sigaction g_previous[NSIG];

// What would have happened without this layer.
void pass_on(int sig, siginfo_t* info, void* context) {
  const struct sigaction& prev = g_previous[sig];
  if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction) {
    prev.sa_sigaction(sig, info, context);
    return;
  }
  if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
    prev.sa_handler(sig);
    return;
  }
  // An ignored signal sent by someone stays ignored; a fault cannot be.
  if (prev.sa_handler == SIG_IGN && info && info->si_code <= 0) return;
  // Blocked while this handler runs, the raised signal kills the process as
  // soon as it returns, with the status a plain crash would have.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void on_fatal(int sig, siginfo_t* info, void* context) {
  // The calls up to this one are in the trace (the helper thread writes
  // them; this thread only waits), however the process is about to end.
  if (trace::Stream* s = trace::Stream::peek()) s->flush_before_dying(std::chrono::seconds(2));
  if (CrashGuard* g = t_guard) {
    t_guard = nullptr;  // a fault in what follows goes straight on
    // Writing allocates and compresses, which a driver that died holding the
    // allocator's lock would block forever: past 10 s the process goes, as
    // it was going to anyway, rather than hang.
    ::signal(SIGALRM, SIG_DFL);
    ::alarm(10);
    layer::log(kLayerName, "signal " + std::to_string(sig) +
                               " during pipeline creation: writing the pipeline being created to the archive");
    g->recorder->write_before_dying(g->pipelines->pending(), std::chrono::seconds(3));
    ::alarm(0);
  }
  pass_on(sig, info, context);
}

}  // namespace

void install_crash_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < static_cast<int>(std::size(kFatal)); ++i) {
      const int sig = kFatal[i];
      struct sigaction now {};
      // An application's own handler for a termination signal stays its own.
      if (i >= kFaults &&
          (::sigaction(sig, nullptr, &now) != 0 || now.sa_handler != SIG_DFL || (now.sa_flags & SA_SIGINFO)))
        continue;
      struct sigaction sa {};
      sa.sa_sigaction = on_fatal;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
      sigemptyset(&sa.sa_mask);
      if (::sigaction(sig, &sa, &g_previous[sig]) != 0)
        layer::log_once(kLayerName, "cannot install the crash handler", std::to_string(sig));
    }
  });
}

CrashGuard::CrashGuard(FozRecorder& r, const PreparedPipelines& p) : recorder(&r), pipelines(&p), outer(t_guard) {
  t_guard = this;
}

CrashGuard::~CrashGuard() { t_guard = outer; }

}  // namespace libtrace::capture
