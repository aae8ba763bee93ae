// SPDX-License-Identifier: MIT
#include "libtrace/apitrace/model.hpp"

#include <doctest/doctest.h>

using namespace libtrace;
using namespace libtrace::apitrace;

TEST_CASE("trace_model: enum names, first match wins, small and indexed") {
  EnumSig small;
  small.values = {{"A", 1}, {"B", 1}};
  REQUIRE(small.name_of(1));
  CHECK(*small.name_of(1) == "A");
  CHECK(small.name_of(2) == nullptr);

  EnumSig big;  // like the GL enum table: thousands of names, some aliases
  for (int i = 0; i < 5000; ++i) big.values.emplace_back("N" + std::to_string(i), i / 2);
  REQUIRE(big.name_of(7));
  CHECK(*big.name_of(7) == "N14");
  CHECK(big.name_of(-1) == nullptr);
  CHECK(big.name_of(2499) != nullptr);
}
