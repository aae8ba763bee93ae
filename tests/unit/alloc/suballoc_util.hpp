// SPDX-License-Identifier: MIT
// Shared by the block-algorithm tests (vma_buddy_test, vma_linear_test,
// vma_suballoc_test).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

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

// Frees, `percent` times in a hundred (by `rng`), one of the `live`
// allocations (anything with an `offset`), picked by `rng`, and forgets it:
// what the random tests do between placements. False when it did not.
template <class Block, class Live, class Rng>
bool free_some(Block& b, std::vector<Live>& live, Rng& rng, unsigned percent) {
  if (live.empty() || rng() % 100 >= percent) return false;
  const std::size_t k = rng() % live.size();
  b.free(live[k].offset);
  live[k] = live.back();
  live.pop_back();
  return true;
}

}  // namespace test
