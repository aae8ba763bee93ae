// SPDX-License-Identifier: MIT
// The loop every worker runs, and its memory readings.
#include "replay/foz/worker.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace libtrace::foz::detail {

namespace {

std::uint64_t read_statm_field(int index) {
  // /proc/self/statm: size resident shared text lib data dt, in pages.
  static const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[128];
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return 0;
  buf[n] = '\0';
  const char* p = buf;
  for (int i = 0; i < index; ++i) {
    p = std::strchr(p, ' ');
    if (!p) return 0;
    ++p;
  }
  return std::strtoull(p, nullptr, 10) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::optional<std::uint64_t> env_hash(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return parse_hash(v);
}

}  // namespace

std::uint64_t current_rss() { return read_statm_field(1); }

std::uint64_t peak_rss() {
  const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[4096];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  const char* p = std::strstr(buf, "VmHWM:");
  return p ? std::strtoull(p + 6, nullptr, 10) * 1024 : 0;
}

Injection Injection::from_env() {
  Injection in;
  if (const auto h = env_hash("TRAK_REPLAY_TEST_CRASH")) in.crash = true, in.crash_hash = *h;
  if (const auto h = env_hash("TRAK_REPLAY_TEST_KILL")) in.kill = true, in.kill_hash = *h;
  if (const auto h = env_hash("TRAK_REPLAY_TEST_HANG")) in.hang = true, in.hang_hash = *h;
  return in;
}

LoopEnd run_items(std::span<const WorkItem> items, SharedState& shared, unsigned slot_index, std::uint32_t worker_id,
                  Session& session, Handover& first, const LoopLimits& limits, const Injection* inject,
                  const IssueFn& issue, bool take_queue) {
  Slot& slot = shared.slot(slot_index);
  Control& ctl = shared.control();
  const std::int64_t start = monotonic_ns();
  const auto limit_ns = static_cast<std::int64_t>(limits.seconds * 1e9);
  std::string reason;
  for (std::uint64_t done = 0;; ++done) {
    if (ctl.stop.load(std::memory_order_relaxed)) return LoopEnd::stopped;
    // Limits are checked between pipelines, never inside one: the queue
    // index is taken only by a worker that will finish it.
    if (done > 0) {
      if (limit_ns > 0 && monotonic_ns() - start > limit_ns) return LoopEnd::limit;
      if (limits.rss_bytes && done % 16 == 0 && current_rss() > limits.rss_bytes) return LoopEnd::limit;
    }
    std::uint64_t i;
    if (const auto handed = first.take()) {
      i = *handed;
    } else {
      if (!take_queue) return LoopEnd::queue_empty;
      i = ctl.next.fetch_add(1, std::memory_order_relaxed);
      if (i >= items.size()) return LoopEnd::queue_empty;
    }
    const WorkItem& item = items[i];
    slot.item.store(static_cast<std::int64_t>(i), std::memory_order_relaxed);
    slot.phase.store(static_cast<std::uint32_t>(Phase::pipeline), std::memory_order_relaxed);
    slot.started_ns.store(monotonic_ns(), std::memory_order_release);
    if (inject) {
      if (inject->crash && item.hash == inject->crash_hash) std::abort();
      if (inject->kill && item.hash == inject->kill_hash) ::kill(::getpid(), SIGKILL);
      if (inject->hang && item.hash == inject->hang_hash)
        for (;;) ::pause();
    }
    reason.clear();
    Outcome o;
    try {
      o = session.run(item, reason);
    } catch (const std::exception& e) {
      o = Outcome::failed;
      reason = e.what();
    }
    if (!created(o) && o != Outcome::cache_miss) issue(i, o, reason);
    shared.finish(i, o, worker_id);
    slot.started_ns.store(0, std::memory_order_relaxed);
    slot.phase.store(static_cast<std::uint32_t>(Phase::idle), std::memory_order_relaxed);
    slot.item.store(-1, std::memory_order_release);
  }
}

}  // namespace libtrace::foz::detail
