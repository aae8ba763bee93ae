// SPDX-License-Identifier: MIT
// The parent's books: which pipelines are settled (counted, reported, and
// appended to the resume database), from the outcomes workers leave in shared
// memory and the reasons they send.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "replay/foz/done.hpp"
#include "replay/foz/plan.hpp"
#include "replay/foz/shared.hpp"

namespace libtrace::foz::detail {

class Ledger {
 public:
  // `ok_waits_for_cache`: a created pipeline counts as done for the resume
  // database only once the cache blob of the worker that made it is saved
  // (with --pipeline-cache); otherwise as soon as it is created.
  Ledger(const Plan& plan, SharedState& shared, DoneLog* done, bool ok_waits_for_cache);

  // A worker's (or the parent's) word on an item that is not ok.
  void note_issue(std::uint64_t item, Outcome o, std::string reason, int signal = 0);
  // Worker `id` saved its cache blob: what it created is in it.
  void commit_worker(std::uint32_t id);
  // After worker `id` crashed: the pipelines it created whose cache was never
  // saved go back to pending, to be created again; returns them.
  std::vector<std::uint64_t> reclaim_uncommitted(std::uint32_t id, std::uint64_t upto);
  // Settles what can be settled below queue position `upto`.
  void settle(std::uint64_t upto);
  // Counts the rest (pending: not run) and fills the result.
  void finish(ReplayResult& r);

  ReplayProgress progress() const { return progress_; }
  std::uint64_t settled() const { return settled_count_; }

 private:
  struct Note {
    Outcome outcome;
    int signal;
    std::string reason;
  };
  void settle_one(std::uint64_t i, Outcome o, bool to_done_log);
  bool committed(std::uint32_t id) const { return id < committed_.size() && committed_[id]; }

  const Plan& plan_;
  SharedState& shared_;
  DoneLog* done_;
  bool ok_waits_;
  std::vector<std::uint8_t> settled_;
  std::vector<std::uint8_t> committed_;  // by worker id
  std::unordered_map<std::uint64_t, Note> notes_;
  std::uint64_t low_ = 0, settled_count_ = 0;
  std::array<TypeCounts, kPipelineTypes> counts_{};
  std::array<std::uint64_t, kPipelineTypes> miss_skipped_{};  // cache misses left out (CompileRequired::skip)
  std::vector<PipelineIssue> faulty_, failed_, unsupported_;
  std::uint64_t dropped_ = 0;
  ReplayProgress progress_;
};

}  // namespace libtrace::foz::detail
