// SPDX-License-Identifier: MIT
#include "libtrace/core/error.hpp"

#include <doctest/doctest.h>

#include <cerrno>

using namespace libtrace;

TEST_CASE("error: what() is where + message, parts kept apart") {
  const Error e(Errc::truncated, at_offset("x.trace", 42), "cut short");
  CHECK(std::string(e.what()) == "x.trace: offset 42: cut short");
  CHECK(e.where() == "x.trace: offset 42");
  CHECK(e.message() == "cut short");
  CHECK(e.code() == Errc::truncated);
  CHECK(std::string(Error(Errc::usage, "", "bad level").what()) == "bad level");
}

TEST_CASE("error: throw_errno names the action and the system's reason") {
  errno = ENOSPC;
  CHECK_THROWS_WITH_AS(throw_errno("out.txt", "write"), "out.txt: write: No space left on device", Error);
}
