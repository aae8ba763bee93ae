// SPDX-License-Identifier: MIT
// The state shared with worker processes: a memfd another process maps to
// see the same queue, items and outcomes; anything else is refused.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include "replay/foz/shared.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Outcome;
using foz::PipelineType;
using foz::detail::SharedState;
using foz::detail::WorkItem;

TEST_CASE("foz_replay_shared: a worker's mapping of the memfd sees the parent's items and writes") {
  const std::vector<WorkItem> items = {{0xaa, 0, PipelineType::graphics}, {0xbb, 7, PipelineType::compute}};
  SharedState parent(items.size(), 3, true);
  REQUIRE(parent.fd() >= 0);
  CHECK((::fcntl(parent.fd(), F_GETFD) & FD_CLOEXEC) != 0);  // handed down on purpose, never inherited
  parent.set_items(items);
  SharedState worker(::dup(parent.fd()));  // as after SCM_RIGHTS
  CHECK(worker.fd() == -1);                // the worker keeps only the mapping
  CHECK(worker.slots() == 3);
  REQUIRE(worker.items() == 2);
  CHECK(worker.items_view()[1].hash == 0xbb);
  CHECK(worker.items_view()[1].index == 7);
  CHECK(worker.items_view()[1].type == PipelineType::compute);
  worker.control().next.fetch_add(2);
  worker.slot(2).item.store(1);
  worker.finish(1, Outcome::crashed, 5);
  CHECK(parent.control().next.load() == 2);
  CHECK(parent.slot(2).item.load() == 1);
  CHECK(parent.outcome_of(1) == Outcome::crashed);
  CHECK(parent.owner(1).load() == 5);
  CHECK(parent.outcome_of(0) == Outcome::pending);
}

TEST_CASE("foz_replay_shared: a descriptor that is not a shared state is refused, and closed") {
  test::ScratchDir dir;
  test::write_file(dir / "zeros", std::string(4096, '\0'));
  const int fd = ::open((dir / "zeros").c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  CHECK_THROWS_WITH_AS(SharedState{fd}, doctest::Contains("not this build's"), libtrace::Error);
  CHECK(::fcntl(fd, F_GETFD) == -1);  // closed: a failed worker leaks nothing either
}

TEST_CASE("foz_replay_shared: modules that crashed the driver are banned for every worker") {
  SharedState shared(1, 1, true);
  CHECK_FALSE(shared.is_banned(0x42));
  shared.ban(0x42);
  shared.ban(0x42);
  CHECK(shared.is_banned(0x42));
  CHECK(shared.control().banned_count.load() == 1);
}
