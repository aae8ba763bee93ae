// SPDX-License-Identifier: MIT
// Replays a VMA recording against a model of the recorded heaps and memory
// types (no device): how much device memory VMA-style block suballocation
// would commit, in how many blocks, and how much of it was unused, and how
// fragmented, at the peak.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libtrace/vma/recording.hpp"

namespace libtrace::vma {

struct SimOptions : ReplayLines {};

struct SimHeap {
  std::uint64_t size = 0;            // as recorded
  std::uint64_t peak_committed = 0;  // blocks + dedicated allocations
  std::uint64_t peak_blocks = 0;     // device memory objects
  std::uint64_t used_at_peak = 0;    // bytes in live allocations when committed peaked
  // The blocks' unused memory when committed peaked (dedicated allocations
  // have none): its ranges, the largest that an allocation could take, and
  // the share of it outside each block's largest usable range (0: every
  // block's unused memory is one range; near 1: scattered in holes too small
  // for most allocations, or that the block's algorithm never reuses).
  std::uint64_t unused_ranges_at_peak = 0;
  std::uint64_t largest_usable_at_peak = 0;
  double fragmentation_at_peak = 0;
  std::uint64_t committed_at_end = 0;
  std::uint64_t over_budget_allocations = 0;  // would have exceeded the heap size
};

struct SimResult {
  Version version;
  std::uint64_t calls = 0, replayed_calls = 0;
  std::array<std::uint64_t, kFunctionCount> calls_per_function{};
  std::uint64_t buffers = 0, images = 0, memory_allocations = 0, pages = 0, lost_allocations = 0;
  std::uint64_t pools = 0, originally_failed = 0, dedicated = 0, unresolved = 0;
  std::uint64_t threads = 0;
  double busiest_thread_percent = 0, duration = 0;
  std::vector<SimHeap> heaps;
  std::uint64_t peak_committed = 0, peak_blocks = 0;
  std::uint64_t warnings = 0;
  std::optional<Error> error;
};

SimResult simulate(std::unique_ptr<Decoder> decoder, const std::string& name, const SimOptions& opt);

std::string report_table(const SimResult& r);
std::string report_json(const SimResult& r);

// The memory type VMA 2.x would pick on the recorded device for an
// allocation without a custom pool: among the types allowed by both masks
// (0 = all), one with every required flag (from the usage too) and the fewest
// missing preferred flags; -1 if none.
int resolve_memory_type(const Config& config, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
                        std::uint64_t type_bits, std::uint32_t requirement_bits);

}  // namespace libtrace::vma
