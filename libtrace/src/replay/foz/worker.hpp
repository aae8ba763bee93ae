// SPDX-License-Identifier: MIT
// One worker's side of a replay: a Session (its device, pipeline cache and
// created objects) and the loop that takes pipelines from the shared queue.
// The same loop runs in worker processes and, with --in-process, in threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "replay/foz/plan.hpp"
#include "replay/foz/shared.hpp"

namespace libtrace::foz::detail {

// What a worker tells its parent once its device is up.
struct DeviceReport {
  std::string name, driver;
  std::uint32_t vendor_id = 0, device_id = 0, api_version = 0;
  std::uint32_t driver_id = 0;  // VkDriverId (0: unknown, or the null device)
  std::uint8_t uuid[16] = {};
  std::vector<std::string> missing_features;
  std::vector<std::pair<std::string, std::string>> warnings;  // where, message
  std::uint32_t caches_loaded = 0;
  bool null_device = false;
};

class Session {
 public:
  virtual ~Session() = default;
  virtual const DeviceReport& report() const = 0;
  // Creates one pipeline (and what it needs); `reason` says why when the
  // outcome is not ok. Never throws for a problem of this pipeline.
  virtual Outcome run(const WorkItem& item, std::string& reason) = 0;
  // The worker's pipeline cache as a blob (empty when there is none).
  virtual std::vector<std::uint8_t> cache_data() = 0;
};

// Makes the session of the worker thread in `slot` (--in-process). Throws
// Error when the device cannot be set up.
using SessionFactory = std::function<std::unique_ptr<Session>(SharedState& shared, unsigned slot)>;

// When a worker process should hand over to a fresh one: bounded driver
// memory, and bounded loss when it crashes.
struct LoopLimits {
  double seconds = 0;           // 0 = no limit
  std::uint64_t rss_bytes = 0;  // 0 = no limit
};

// Test hooks from the environment, honoured in worker processes only:
// TRAK_REPLAY_TEST_CRASH=<hash> aborts the worker just before creating that
// pipeline, TRAK_REPLAY_TEST_KILL=<hash> kills it there with SIGKILL (which
// no handler sees, as the kernel's OOM killer would), and
// TRAK_REPLAY_TEST_HANG=<hash> makes it sleep there forever. They prove the
// crash isolation on a real device, where no pipeline crashes.
struct Injection {
  bool crash = false, kill = false, hang = false;
  std::uint64_t crash_hash = 0, kill_hash = 0, hang_hash = 0;
  static Injection from_env();
};

enum class LoopEnd { queue_empty, stopped, limit };

// Items handed over from a worker process that ended before making them,
// taken before the shared queue; the threads of one process share them.
class Handover {
 public:
  Handover() = default;
  explicit Handover(std::vector<std::uint64_t> items) : items_(std::move(items)) {}
  std::optional<std::uint64_t> take() {
    const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
    return i < items_.size() ? std::optional<std::uint64_t>(items_[i]) : std::nullopt;
  }

 private:
  std::vector<std::uint64_t> items_;
  std::atomic<std::size_t> next_{0};
};

using IssueFn = std::function<void(std::uint64_t item, Outcome o, const std::string& reason)>;

// Runs pipelines: the items of `first`, then, with `take_queue`, the shared
// queue, until it is empty, stop is set
// or a limit is hit. Each outcome is stored in shared memory; `issue` hears
// about every one that is not ok, before the outcome is stored.
LoopEnd run_items(std::span<const WorkItem> items, SharedState& shared, unsigned slot, std::uint32_t worker_id,
                  Session& session, Handover& first, const LoopLimits& limits, const Injection* inject,
                  const IssueFn& issue, bool take_queue = true);

// Resident set size now, and the peak (VmHWM), in bytes; 0 when unknown.
std::uint64_t current_rss();
std::uint64_t peak_rss();

}  // namespace libtrace::foz::detail
