// SPDX-License-Identifier: MIT
// Shared by the block-algorithm tests (vma_buddy_test, vma_linear_test).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>

#include "libtrace/alloc/suballoc.hpp"

namespace test {

// Places `r` where the block's find() says it goes, every invariant checked
// after; returns the offset.
inline std::uint64_t place(libtrace::alloc::Suballocator& b, const libtrace::alloc::Request& r) {
  const auto off = b.find(r);
  REQUIRE(off);
  b.allocate(*off, r, nullptr);
  REQUIRE(b.validate() == "");
  return *off;
}

}  // namespace test
