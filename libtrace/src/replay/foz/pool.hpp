// SPDX-License-Identifier: MIT
// Running the workers: processes that each own a device (crash isolation,
// timeouts, replacement; replay/foz/child.hpp), or threads in this process
// (--in-process). The parent watches, settles outcomes and reports progress.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "replay/foz/child.hpp"
#include "replay/foz/ledger.hpp"
#include "replay/foz/worker.hpp"

namespace libtrace::foz::detail {

struct PoolConfig {
  unsigned jobs = 1;
  unsigned threads_per_worker = 1;  // processes: jobs are split evenly over ceil(jobs / this)
  double timeout_seconds = 0;       // per pipeline; 0 = none
  LoopLimits limits;                // when a worker process hands over to a fresh one
  // Non-empty: each worker saves its pipeline cache blob in this directory
  // before it exits (processes), or hands it back (threads).
  std::string blob_dir;
  bool want_blobs = false;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const ReplayProgress&)> progress;
  WarningSink warnings;
  DoneLog* done = nullptr;  // flushed as outcomes settle
  // Processes only: the program they run, what every worker is told (id,
  // slot, parent and blob_dir are filled in per worker), and the modules
  // spirv-val rejected.
  std::string exe;
  WorkerSetup setup;
  const InvalidModules* invalid_modules = nullptr;
};

struct PoolResult {
  std::optional<DeviceReport> device;  // from the first worker that started
  std::vector<std::string> blob_files;
  std::vector<std::vector<std::uint8_t>> blob_data;
  std::uint64_t workers_started = 0;
  std::uint64_t peak_rss_worker = 0;
  std::uint64_t lost_from_cache = 0;
  bool stopped = false;
};

// Worker processes. Every worker is reaped before run() returns or the pool
// is destroyed (which kills those still there: only on an error path).
class ProcessPool {
 public:
  // Error(usage) without cfg.exe. `cfg` must outlive the pool.
  explicit ProcessPool(const PoolConfig& cfg);
  ~ProcessPool();
  ProcessPool(const ProcessPool&) = delete;
  ProcessPool& operator=(const ProcessPool&) = delete;

  // Starts the first worker before there is a plan: it sets up its device
  // while the caller reads the archives and plans.
  void prestart();
  // Runs the plan to its end. The shared state must be between processes,
  // with the plan's items set.
  PoolResult run(const Plan& plan, SharedState& shared, Ledger& ledger);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
PoolResult run_threads(const Plan& plan, SharedState& shared, Ledger& ledger, const SessionFactory& factory,
                       const PoolConfig& cfg);

// "SIGSEGV" and friends.
std::string signal_name(int sig);

}  // namespace libtrace::foz::detail
