// SPDX-License-Identifier: MIT
// Wording shared by trak-stat's renderings of VMA recordings (the table, the
// JSON and the HTML report), so they never disagree.
#pragma once

#include <cstdint>
#include <string>

namespace libtrace::vma::detail {

// A pool's block count as VMA reads its limits: a maximum of 0 is none.
inline std::string block_range(std::uint64_t min, std::uint64_t max) {
  if (max == 0) return min ? std::to_string(min) + " or more" : "any";
  if (min == max) return std::to_string(min);
  return std::to_string(min) + " to " + std::to_string(max);
}

// Stats::lifetime_histogram's buckets.
inline constexpr const char* kLifetimeLabels[] = {"< 1 ms", "< 10 ms", "< 100 ms", "< 1 s",
                                                  "< 10 s", "< 100 s", ">= 100 s", "never freed"};

}  // namespace libtrace::vma::detail
