// SPDX-License-Identifier: MIT
// Settling outcomes: counts, issue lists, the resume database.
#include "replay/foz/ledger.hpp"

namespace libtrace::foz::detail {

namespace {
// Per list; beyond it issues are counted, not kept (an archive whose every
// pipeline fails must not make a report of a million lines).
constexpr std::size_t kMaxIssues = 100000;
}  // namespace

Ledger::Ledger(const Plan& plan, SharedState& shared, DoneLog* done, bool ok_waits_for_cache)
    : plan_(plan), shared_(shared), done_(done), ok_waits_(ok_waits_for_cache), settled_(plan.items.size(), 0) {
  counts_ = plan.counts;
  for (std::size_t t = 0; t < kPipelineTypes; ++t) {
    counts_[t].skipped += counts_[t].already_done;
    progress_.total[t] = counts_[t].total - counts_[t].already_done;
  }
}

void Ledger::note_issue(std::uint64_t item, Outcome o, std::string reason, int signal) {
  if (item >= plan_.items.size()) return;
  notes_[item] = Note{o, signal, std::move(reason)};
}

void Ledger::commit_worker(std::uint32_t id) {
  if (committed_.size() <= id) committed_.resize(id + 1, 0);
  committed_[id] = 1;
}

std::vector<std::uint64_t> Ledger::reclaim_uncommitted(std::uint32_t id, std::uint64_t upto) {
  std::vector<std::uint64_t> out;
  if (!ok_waits_ || committed(id)) return out;
  upto = std::min<std::uint64_t>(upto, plan_.items.size());
  for (std::uint64_t i = low_; i < upto; ++i) {
    if (settled_[i] || !created(shared_.outcome_of(i))) continue;
    if (shared_.owner(i).load(std::memory_order_relaxed) != id) continue;
    shared_.outcome(i).store(static_cast<std::uint8_t>(Outcome::pending), std::memory_order_release);
    out.push_back(i);
  }
  return out;
}

void Ledger::settle_one(std::uint64_t i, Outcome o, bool to_done_log) {
  settled_[i] = 1;
  ++settled_count_;
  const WorkItem& item = plan_.items[i];
  TypeCounts& c = counts_[static_cast<std::size_t>(item.type)];
  switch (o) {
    case Outcome::ok: ++c.ok; break;
    case Outcome::ok_cache_miss: ++c.ok, ++c.cache_misses; break;
    case Outcome::cache_miss:
      ++c.cache_misses, ++c.skipped, ++miss_skipped_[static_cast<std::size_t>(item.type)];
      break;
    case Outcome::failed: ++c.failed; break;
    case Outcome::unsupported: ++c.unsupported, ++c.skipped; break;
    case Outcome::crashed: ++c.crashed, ++c.failed; break;
    case Outcome::timed_out: ++c.timed_out, ++c.failed; break;
    case Outcome::pending: ++c.not_run, ++c.skipped; break;
  }
  // Crashes are not recorded as done: a resumed run tries them again (and
  // reports them again), which is what a driver update needs.
  if (done_ && to_done_log && (created(o) || o == Outcome::failed)) done_->add(pipeline_type_tag(item.type), item.hash);
  // A cache miss is counted, not listed: a cold cache misses every pipeline.
  if (created(o) || o == Outcome::pending || o == Outcome::cache_miss) return;
  auto it = notes_.find(i);
  PipelineIssue issue{item.type, item.hash, item.index, o, 0, "no reason reported"};
  if (it != notes_.end()) {
    issue.signal = it->second.signal;
    issue.reason = std::move(it->second.reason);
    notes_.erase(it);
  }
  auto& list = (o == Outcome::crashed || o == Outcome::timed_out) ? faulty_
               : o == Outcome::unsupported                        ? unsupported_
                                                                  : failed_;
  if (list.size() < kMaxIssues)
    list.push_back(std::move(issue));
  else
    ++dropped_;
}

void Ledger::settle(std::uint64_t upto) {
  upto = std::min<std::uint64_t>(upto, plan_.items.size());
  std::array<std::uint64_t, kPipelineTypes> in_flight_done{};
  for (std::uint64_t i = low_; i < upto; ++i) {
    if (settled_[i]) continue;
    const Outcome o = shared_.outcome_of(i);
    if (o == Outcome::pending) continue;
    const auto t = static_cast<std::size_t>(plan_.items[i].type);
    const bool waits_for_cache = created(o) && ok_waits_ && !committed(shared_.owner(i).load());
    // A failure's reason is sent before its outcome is stored, but may not
    // have been read yet.
    const bool waits_for_reason = (o == Outcome::failed || o == Outcome::unsupported) && !notes_.count(i);
    if (waits_for_cache || waits_for_reason) {
      ++in_flight_done[t];
      continue;
    }
    settle_one(i, o, true);
  }
  while (low_ < plan_.items.size() && settled_[low_]) ++low_;
  for (std::size_t t = 0; t < kPipelineTypes; ++t) {
    const TypeCounts& c = counts_[t];
    progress_.done[t] = c.ok + c.failed + c.unsupported + miss_skipped_[t] + in_flight_done[t];
  }
  std::uint64_t failed = 0, crashed = 0, skipped = 0;
  for (const TypeCounts& c : counts_) failed += c.failed, crashed += c.crashed + c.timed_out, skipped += c.unsupported;
  progress_.failed = failed;
  progress_.crashed = crashed;
  progress_.skipped = skipped;
}

void Ledger::finish(ReplayResult& r) {
  for (std::uint64_t i = low_; i < plan_.items.size(); ++i) {
    if (settled_[i]) continue;
    const Outcome o = shared_.outcome_of(i);
    // An ok whose cache was never saved was still created (the driver's own
    // disk cache has it), but it does not go into the resume database.
    settle_one(i, o, !(created(o) && ok_waits_ && !committed(shared_.owner(i).load())));
  }
  low_ = plan_.items.size();
  if (done_) done_->flush();
  r.counts = counts_;
  r.faulty = std::move(faulty_);
  r.failed = std::move(failed_);
  r.unsupported = std::move(unsupported_);
  r.issues_dropped = dropped_;
  for (std::size_t t = 0; t < kPipelineTypes; ++t) {
    const TypeCounts& c = counts_[t];
    progress_.done[t] = c.ok + c.failed + c.unsupported;
  }
  progress_.final = true;
}

}  // namespace libtrace::foz::detail
