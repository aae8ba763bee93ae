// SPDX-License-Identifier: MIT
#include "libtrace/apitrace/callset.hpp"

#include <doctest/doctest.h>

#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/core/error.hpp"

using namespace libtrace;
using namespace libtrace::apitrace;

TEST_CASE("callset: empty set holds everything") {
  CallSet s;
  CHECK(s.contains(0, 0));
  CHECK(s.contains(123456, 0));
  CHECK(s.last() == UINT64_MAX);
}

TEST_CASE("callset: numbers, ranges and steps") {
  CallSet s = CallSet::parse("4,10-20/5 30");
  CHECK(s.contains(4, 0));
  CHECK_FALSE(s.contains(5, 0));
  CHECK(s.contains(10, 0));
  CHECK(s.contains(15, 0));
  CHECK_FALSE(s.contains(16, 0));
  CHECK(s.contains(20, 0));
  CHECK(s.contains(30, 0));
  CHECK(s.last() == 30);
}

TEST_CASE("callset: flag filters") {
  CallSet s = CallSet::parse("0-100/draw");
  CHECK(s.contains(7, kCallRender));
  CHECK_FALSE(s.contains(7, 0));
  CallSet f = CallSet::parse("*/frame");
  CHECK(f.contains(999999, kCallEndFrame));
  CHECK_FALSE(f.contains(999999, kCallRender));
}

TEST_CASE("callset: bad items are usage errors naming the item") {
  CHECK_THROWS_WITH_AS(CallSet::parse("1-x"), "invalid call set item '1-x'", Error);
  CHECK_THROWS_AS(CallSet::parse("20-10"), Error);
  CHECK_THROWS_AS(CallSet::parse("5/0"), Error);
}
