// SPDX-License-Identifier: MIT
// JSON pieces shared by the statistics of traces and of recordings.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/json_text.hpp"

namespace libtrace::detail {

// A string from an input file (a name, user data, a file name): rapidjson
// escapes what it is given but does not check its encoding.
template <typename JsonWriter>
void put_text(JsonWriter& w, std::string_view s) {
  const std::string u = to_utf8(s);
  w.String(u.data(), static_cast<unsigned>(u.size()));
}

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
