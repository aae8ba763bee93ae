// SPDX-License-Identifier: MIT
#include "core/thread.hpp"

#include <memory>
#include <mutex>
#include <utility>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace libtrace::detail {

#if defined(__linux__)

std::thread start_thread(std::function<void()> f) {
  // The creator moves the new thread only while it has not run yet, and the
  // thread gives its set back only if it was moved: the mutex orders the two,
  // so that a thread never stays kept off a core.
  struct Start {
    std::mutex mu;
    bool running = false, moved = false;
    cpu_set_t allowed{};
  };
  auto start = std::make_shared<Start>();
  if (::sched_getaffinity(0, sizeof start->allowed, &start->allowed) != 0) return std::thread(std::move(f));
  std::thread t([start, f = std::move(f)] {
    {
      const std::lock_guard lock(start->mu);
      start->running = true;
      if (start->moved) ::pthread_setaffinity_np(::pthread_self(), sizeof start->allowed, &start->allowed);
    }
    f();
  });
  const std::lock_guard lock(start->mu);
  const int here = ::sched_getcpu();
  if (!start->running && here >= 0 && here < CPU_SETSIZE && CPU_ISSET(here, &start->allowed)) {
    cpu_set_t elsewhere = start->allowed;
    CPU_CLR(here, &elsewhere);
    if (CPU_COUNT(&elsewhere) > 0)
      start->moved = ::pthread_setaffinity_np(t.native_handle(), sizeof elsewhere, &elsewhere) == 0;
  }
  return t;
}

#else

std::thread start_thread(std::function<void()> f) { return std::thread(std::move(f)); }

#endif

}  // namespace libtrace::detail
