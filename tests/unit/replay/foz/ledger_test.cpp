// SPDX-License-Identifier: MIT
// The parent's books: outcomes settle once their reasons (and, with a cache
// file, their worker's saved cache) are in; the resume database gets created
// and failed pipelines, never crashed ones; a crashed worker's unsaved work is
// handed back.
#include <doctest/doctest.h>

#include "replay/foz/ledger.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Outcome;
using foz::PipelineType;
using foz::Tag;

namespace {

foz::detail::Plan plan_of(std::size_t n) {
  foz::detail::Plan p;
  for (std::uint32_t i = 0; i < n; ++i) p.items.push_back({0x100u + i, i, PipelineType::compute});
  p.counts[1].total = n + 1;
  p.counts[1].already_done = 1;  // one was in the resume database already
  return p;
}

// The parent's books over a plan of `n` compute pipelines, two workers, and
// a resume database in a scratch directory.
struct Books {
  test::ScratchDir dir;
  const foz::detail::Plan plan;
  foz::detail::SharedState shared;
  foz::detail::DoneLog done;
  foz::detail::Ledger ledger;
  Books(std::size_t n, bool with_cache_file)
      : plan(plan_of(n)),
        shared(plan.items.size(), 2, false),
        done(dir / "done.foz", {}),
        ledger(plan, shared, &done, with_cache_file) {}
};

}  // namespace

TEST_CASE("foz_replay_ledger: outcomes are counted once their reasons are in") {
  Books books(6, false);
  auto& [dir, plan, shared, done, ledger] = books;
  shared.finish(0, Outcome::ok, 1);
  shared.finish(1, Outcome::failed, 1);  // its reason has not been read yet
  shared.finish(2, Outcome::unsupported, 2);
  ledger.note_issue(2, Outcome::unsupported, "the device lacks geometryShader");
  ledger.note_issue(3, Outcome::crashed, "the worker died of SIGSEGV", 11);
  shared.finish(3, Outcome::crashed, 2);
  ledger.settle(4);
  auto p = ledger.progress();
  CHECK(p.total[1] == 6);
  CHECK(p.done[1] == 4);  // the failure without its reason is done, not settled
  CHECK(ledger.settled() == 3);
  ledger.note_issue(1, Outcome::failed, "vkCreateComputePipelines failed: VK_ERROR_OUT_OF_HOST_MEMORY");
  ledger.settle(4);
  CHECK(ledger.settled() == 4);

  foz::ReplayResult r;
  ledger.finish(r);  // items 4 and 5 were never run
  const auto& c = r.counts[1];
  CHECK(c.total == 7);
  CHECK(c.ok == 1);
  CHECK(c.failed == 2);
  CHECK(c.crashed == 1);
  CHECK(c.unsupported == 1);
  CHECK(c.already_done == 1);
  CHECK(c.not_run == 2);
  CHECK(c.skipped == 4);
  CHECK(c.ok + c.failed + c.skipped == c.total);
  REQUIRE(r.faulty.size() == 1);
  CHECK(r.faulty[0].hash == 0x103);
  CHECK(r.faulty[0].signal == 11);
  REQUIRE(r.failed.size() == 1);
  CHECK(r.failed[0].reason.find("VK_ERROR_OUT_OF_HOST_MEMORY") != std::string::npos);
  REQUIRE(r.unsupported.size() == 1);
  CHECK(r.unsupported[0].index == 2);

  foz::ArchiveReader db(dir / "done.foz");  // created and failed ones only
  CHECK(db.size() == 2);
  CHECK(db.contains(Tag::compute_pipeline, 0x100));
  CHECK(db.contains(Tag::compute_pipeline, 0x101));
}

TEST_CASE("foz_replay_ledger: with a cache file, created pipelines wait for their worker's saved cache") {
  Books books(4, true);
  auto& [dir, plan, shared, done, ledger] = books;
  shared.finish(0, Outcome::ok, 1);
  shared.finish(1, Outcome::ok, 2);
  shared.finish(2, Outcome::ok, 2);
  ledger.settle(3);
  CHECK(ledger.settled() == 0);
  CHECK(ledger.progress().done[1] == 3);
  ledger.commit_worker(1);
  ledger.settle(3);
  CHECK(ledger.settled() == 1);
  // Worker 2 crashed before saving: its pipelines go back to be made again.
  const auto back = ledger.reclaim_uncommitted(2, 3);
  CHECK(back == std::vector<std::uint64_t>{1, 2});
  CHECK(shared.outcome_of(1) == Outcome::pending);
  CHECK(ledger.reclaim_uncommitted(1, 3).empty());  // saved: nothing to redo
  shared.finish(1, Outcome::ok, 3);
  shared.finish(2, Outcome::ok, 3);
  shared.finish(3, Outcome::ok, 3);
  ledger.commit_worker(3);
  ledger.settle(4);
  CHECK(ledger.settled() == 4);
  foz::ReplayResult r;
  ledger.finish(r);
  CHECK(r.counts[1].ok == 4);
  CHECK(foz::ArchiveReader(dir / "done.foz").size() == 4);
}
