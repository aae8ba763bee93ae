// SPDX-License-Identifier: MIT
// What a recording's two replays (simulated, and on a device) count alike
// and print in VmaReplay's words: written once so that the two summaries say
// the same thing the same way. Templates: the results are two structs, each
// beside its replay.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "core/report.hpp"

namespace libtrace::vma {

// The share of the replayed calls made by the thread that made the most.
inline double busiest_thread_percent(const std::map<std::uint32_t, std::uint64_t>& per_thread,
                                     std::uint64_t replayed_calls) {
  std::uint64_t most = 0;
  for (const auto& [t, k] : per_thread) most = std::max(most, k);
  return replayed_calls ? 100.0 * static_cast<double>(most) / static_cast<double>(replayed_calls) : 0;
}

template <typename Result>
std::uint64_t allocations_created(const Result& r) {
  return r.buffers + r.images + r.memory_allocations + r.pages + r.lost_allocations;
}

// From "Format version" to where the replay stopped, if it did.
template <typename Result>
void append_progress(std::string& o, const Result& r) {
  using ull = unsigned long long;
  libtrace::detail::appendf(o, "    Format version: %s\n", r.version.str().c_str());
  libtrace::detail::appendf(o, "    Calls replayed: %llu of %llu\n", static_cast<ull>(r.replayed_calls),
                            static_cast<ull>(r.calls));
  if (r.error) libtrace::detail::appendf(o, "    Stopped: %s (the lines before were replayed)\n", r.error->what());
}

// "Statistics:" and what the recording created, up to its custom pools.
template <typename Result>
void append_created(std::string& o, const Result& r) {
  using ull = unsigned long long;
  using libtrace::detail::appendf;
  appendf(o, "Statistics:\n");
  appendf(o, "    Total allocations created: %llu\n", static_cast<ull>(allocations_created(r)));
  appendf(o, "    Total buffers created: %llu\n", static_cast<ull>(r.buffers));
  appendf(o, "    Total images created: %llu\n", static_cast<ull>(r.images));
  appendf(o, "    Total memory allocations (vmaAllocateMemory*): %llu, pages %llu, lost %llu\n",
          static_cast<ull>(r.memory_allocations), static_cast<ull>(r.pages), static_cast<ull>(r.lost_allocations));
  appendf(o, "    Total custom pools created: %llu\n", static_cast<ull>(r.pools));
}

template <typename Result>
void append_threads(std::string& o, const Result& r) {
  using libtrace::detail::appendf;
  appendf(o, "    Threads making calls to VMA: %llu\n", static_cast<unsigned long long>(r.threads));
  if (r.threads > 1)
    appendf(o, "        %.2f%% calls from most active thread.\n", r.busiest_thread_percent);
  else
    appendf(o, "        VMA used from only one thread.\n");
}

}  // namespace libtrace::vma
