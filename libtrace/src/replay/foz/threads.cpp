// SPDX-License-Identifier: MIT
// --in-process: the workers are threads sharing this process's device. No
// crash isolation and no timeouts (a thread cannot be killed), but a
// debugger sees everything in one process.
#include <chrono>
#include <mutex>
#include <thread>

#include "replay/foz/pool.hpp"

namespace libtrace::foz::detail {

PoolResult run_threads(const Plan& plan, SharedState& shared, Ledger& ledger, const SessionFactory& factory,
                       const PoolConfig& cfg) {
  PoolResult result;
  const unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(cfg.jobs, plan.items.size()));
  std::mutex mu;  // guards the ledger, result and the first error
  std::optional<Error> fatal;
  std::exception_ptr other;
  std::atomic<unsigned> running{n};
  std::vector<std::thread> threads;
  LoopLimits no_limits;  // a thread cannot shed its driver's memory by restarting
  for (unsigned s = 0; s < n; ++s) {
    threads.emplace_back([&, s] {
      try {
        auto session = factory(shared, s);
        {
          std::lock_guard<std::mutex> lock(mu);
          if (!result.device) result.device = session->report();
          ++result.workers_started;
        }
        Handover none;
        run_items(plan.items, shared, s, s + 1, *session, none, no_limits, nullptr,
                  [&](std::uint64_t item, Outcome o, const std::string& reason) {
                    std::lock_guard<std::mutex> lock(mu);
                    ledger.note_issue(item, o, reason);
                  });
        std::vector<std::uint8_t> blob;
        if (cfg.want_blobs) blob = session->cache_data();
        session.reset();
        std::lock_guard<std::mutex> lock(mu);
        ledger.commit_worker(s + 1);
        if (cfg.want_blobs) result.blob_data.push_back(std::move(blob));
      } catch (const Error& e) {
        std::lock_guard<std::mutex> lock(mu);
        if (!fatal) fatal.emplace(e);
        shared.control().stop.store(1);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!other) other = std::current_exception();
        shared.control().stop.store(1);
      }
      running.fetch_sub(1);
    });
  }
  std::int64_t last = 0;
  while (running.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (cfg.stop && cfg.stop->load() && !shared.control().stop.load()) {
      shared.control().stop.store(1);
      result.stopped = true;
    }
    std::lock_guard<std::mutex> lock(mu);
    ledger.settle(shared.control().next.load());
    if (cfg.done) cfg.done->flush();
    const std::int64_t now = monotonic_ns();
    if (cfg.progress && now - last > 200'000'000) {
      last = now;
      cfg.progress(ledger.progress());
    }
  }
  for (auto& t : threads) t.join();
  if (fatal) throw *fatal;
  if (other) std::rethrow_exception(other);
  result.peak_rss_worker = peak_rss();
  return result;
}

}  // namespace libtrace::foz::detail
