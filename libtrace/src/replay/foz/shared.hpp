// SPDX-License-Identifier: MIT
// State the parent and its workers share: the work queue and its items, what
// each worker is doing right now, and every pipeline's outcome. One memfd the
// parent makes and hands to each worker process (over its socket), which maps
// it too, so a worker's last writes survive its crash and the parent reads
// them without any message.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/plan.hpp"

namespace libtrace::foz::detail {

// What a worker is busy with, for the parent's timeout and crash reports.
enum class Phase : std::uint32_t {
  idle = 0,
  starting,    // creating its instance, device and pipeline cache
  pipeline,    // creating the pipeline `item`
  dependency,  // creating an object `item` needs (dep_tag, dep_hash)
  finishing,   // saving its pipeline cache, destroying its device
};

struct alignas(64) Slot {
  std::atomic<std::int64_t> item{-1};       // index into Plan::items, -1 when none
  std::atomic<std::int64_t> started_ns{0};  // CLOCK_MONOTONIC start of `phase`, 0 = untimed
  std::atomic<std::uint32_t> phase{0};
  std::atomic<std::uint32_t> dep_tag{0};
  std::atomic<std::uint64_t> dep_hash{0};
  // Set by the crash handler of the worker thread that faulted: with several
  // threads in a process, which in-flight pipeline killed it.
  std::atomic<std::uint32_t> crashed{0};
};

inline constexpr std::size_t kMaxBanned = 4096;

struct Control {
  std::atomic<std::uint64_t> next{0};  // the shared queue: next index into Plan::items
  std::atomic<std::uint32_t> stop{0};  // no new pipelines
  std::atomic<std::uint32_t> banned_count{0};
  // Shader modules that crashed the driver: pipelines using them fail at once.
  std::atomic<std::uint64_t> banned[kMaxBanned];
};

static_assert(std::atomic<std::uint64_t>::is_always_lock_free && std::atomic<std::uint8_t>::is_always_lock_free,
              "cross-process atomics must be lock-free");

static_assert(sizeof(WorkItem) == 16 && std::is_trivially_copyable_v<WorkItem>, "WorkItem is shared as bytes");

// One mapping: a header (sizes, for the worker that attaches), Control, the
// slots, the work items, then an outcome byte and an owner (worker id) per
// item.
class SharedState {
 public:
  // `between_processes`: a memfd mapped MAP_SHARED (fd() passes it on), else
  // private memory (threads). The items are zero until set_items().
  SharedState(std::size_t items, unsigned slots, bool between_processes);
  // In a worker process: maps the parent's memfd (the descriptor is closed
  // here). Error when it is not one, or of another layout.
  explicit SharedState(int memfd);
  ~SharedState();
  SharedState(const SharedState&) = delete;
  SharedState& operator=(const SharedState&) = delete;

  int fd() const { return fd_; }  // -1 unless shared between processes
  void set_items(std::span<const WorkItem> items);
  std::span<const WorkItem> items_view() const { return {items_, n_items_}; }

  Control& control() { return *control_; }
  Slot& slot(unsigned i) { return slots_[i]; }
  unsigned slots() const { return n_slots_; }
  std::size_t items() const { return n_items_; }
  std::atomic<std::uint8_t>& outcome(std::size_t i) { return outcome_[i]; }
  std::atomic<std::uint32_t>& owner(std::size_t i) { return owner_[i]; }

  Outcome outcome_of(std::size_t i) const { return static_cast<Outcome>(outcome_[i].load(std::memory_order_acquire)); }
  // The worker's record of a finished item: owner first, so that whoever sees
  // the outcome also sees who made it.
  void finish(std::size_t i, Outcome o, std::uint32_t worker) {
    owner_[i].store(worker, std::memory_order_relaxed);
    outcome_[i].store(static_cast<std::uint8_t>(o), std::memory_order_release);
  }
  bool is_banned(std::uint64_t module_hash) const;
  void ban(std::uint64_t module_hash);

 private:
  void lay_out();

  void* base_ = nullptr;
  std::size_t bytes_ = 0;
  int fd_ = -1;
  Control* control_ = nullptr;
  Slot* slots_ = nullptr;
  WorkItem* items_ = nullptr;
  std::atomic<std::uint8_t>* outcome_ = nullptr;
  std::atomic<std::uint32_t>* owner_ = nullptr;
  unsigned n_slots_ = 0;
  std::size_t n_items_ = 0;
};

// CLOCK_MONOTONIC in nanoseconds (never 0).
std::int64_t monotonic_ns();

}  // namespace libtrace::foz::detail
