// SPDX-License-Identifier: MIT
// JSON pieces shared by the statistics of traces and of recordings.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace libtrace::detail {

// Writes the members "count" and "calls" (thread id -> calls) into the
// object the caller has opened, so it can add members of its own.
template <typename JsonWriter>
void put_thread_calls(JsonWriter& w, const std::map<std::uint32_t, std::uint64_t>& calls) {
  w.Key("count");
  w.Uint64(calls.size());
  w.Key("calls");
  w.StartObject();
  for (const auto& [tid, n] : calls) {
    const std::string key = std::to_string(tid);
    w.Key(key.c_str(), static_cast<unsigned>(key.size()));
    w.Uint64(n);
  }
  w.EndObject();
}

}  // namespace libtrace::detail
