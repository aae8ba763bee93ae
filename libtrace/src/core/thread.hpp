// SPDX-License-Identifier: MIT
// Threads that start on another core than their creator's (internal to
// libtrace).
//
// Linux places a new thread on its creator's core more often than not on a
// virtual machine whose other vCPU is idle (halted): measured on this
// project's 2-core development VM, a new thread started 1 to 3.7 ms late,
// when the creator's time slice ended, while the other core stayed idle; and
// as a woken thread goes back to the core it last ran on, the two then kept
// taking turns on one core (trak-stat's two threads: 1.0 CPUs busy of 2 in
// such runs). Moved to another core of its allowed set until it runs, a new
// thread starts within ~0.15 ms there; it then takes back its full set, so
// the scheduler stays free to move it.
#pragma once

#include <functional>
#include <thread>

namespace libtrace::detail {

// std::thread(f), started on another core than the caller's where the
// caller may use another (Linux); elsewhere, or if the affinity calls fail,
// a plain std::thread.
std::thread start_thread(std::function<void()> f);

}  // namespace libtrace::detail
