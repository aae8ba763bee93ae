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

// The warnings as the calls row tells them: the lines dropped with one, then
// the others; empty without warnings. `count(n, one, more)` writes a number
// with its noun, its digits as the rendering writes numbers.
template <typename Count>
std::string warning_notes(std::uint64_t warnings, std::uint64_t dropped_lines, Count&& count) {
  std::string notes;
  if (dropped_lines) notes = count(dropped_lines, " line dropped with a warning", " lines dropped with warnings");
  if (warnings > dropped_lines && dropped_lines)
    notes += "; " + count(warnings - dropped_lines, " other warning", " other warnings");
  else if (warnings > dropped_lines)
    notes = count(warnings, " warning", " warnings") + ", no line dropped";
  return notes;
}

// Stats::lifetime_histogram's buckets.
inline constexpr const char* kLifetimeLabels[] = {"< 1 ms", "< 10 ms", "< 100 ms", "< 1 s",
                                                  "< 10 s", "< 100 s", ">= 100 s", "never freed"};

}  // namespace libtrace::vma::detail
