// SPDX-License-Identifier: MIT
#include "core/thread.hpp"

#include <doctest/doctest.h>

#if defined(__linux__)
#include <sched.h>

#include <atomic>

using libtrace::detail::start_thread;

namespace {

// The CPU set the thread started by start_thread() has once its function
// runs.
cpu_set_t set_inside_new_thread() {
  cpu_set_t inside;
  CPU_ZERO(&inside);
  std::atomic<bool> ran{false};
  std::thread t = start_thread([&] {
    ::sched_getaffinity(0, sizeof inside, &inside);
    ran = true;
  });
  t.join();
  REQUIRE(ran);
  return inside;
}

}  // namespace

TEST_CASE("start_thread: the function runs with its creator's CPU set, wherever it started") {
  cpu_set_t mine;
  REQUIRE(::sched_getaffinity(0, sizeof mine, &mine) == 0);
  // Many times: the thread may run before or after its creator moves it.
  for (int i = 0; i < 200; ++i) {
    const cpu_set_t inside = set_inside_new_thread();
    REQUIRE(CPU_EQUAL(&inside, &mine));
  }
}

TEST_CASE("start_thread: a creator kept to one CPU starts a thread kept to it too") {
  cpu_set_t mine;
  REQUIRE(::sched_getaffinity(0, sizeof mine, &mine) == 0);
  const int here = ::sched_getcpu();
  REQUIRE(here >= 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(here, &one);
  REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
  // The tests after this one run on every CPU again, even if it fails.
  struct Restore {
    cpu_set_t set;
    ~Restore() { ::sched_setaffinity(0, sizeof set, &set); }
  } restore{mine};
  const cpu_set_t inside = set_inside_new_thread();
  CHECK(CPU_EQUAL(&inside, &one));
}

#else

TEST_CASE("start_thread: runs the function") {
  bool ran = false;
  libtrace::detail::start_thread([&] { ran = true; }).join();
  CHECK(ran);
}

#endif
