// SPDX-License-Identifier: MIT
// Snapshot frames and folders, shared by the capture layer, its launcher and
// the replay.
#include <algorithm>
#include <cstdio>
#include <string>

#include "libtrace/core/error.hpp"
#include "libtrace/vktrace/dialect.hpp"

namespace libtrace::vktrace {

std::set<std::uint64_t> parse_frames(const std::string& list) {
  std::set<std::uint64_t> out;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, comma - pos);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 18 ||
        std::stoull(item) == 0)
      throw Error(Errc::usage, "", "frames must be numbers from 1, separated by commas: \"" + list + "\"");
    out.insert(std::stoull(item));
    pos = comma + 1;
  }
  return out;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> parse_frame_ranges(const std::string& list) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  const auto bad = [&](const std::string& why) {
    return Error(Errc::usage, "", "frame ranges are A-B[,C-D...] from frame 1, " + why + ": \"" + list + "\"");
  };
  const auto number = [&](const std::string& item) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 18 ||
        std::stoull(item) == 0)
      throw bad("numbers from 1");
    return std::stoull(item);
  };
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, comma - pos);
    const std::size_t dash = item.find('-');
    const std::uint64_t a = number(item.substr(0, dash));
    const std::uint64_t b = dash == std::string::npos ? a : number(item.substr(dash + 1));
    if (b < a) throw bad("each from its first frame to its last");
    if (!out.empty() && a <= out.back().second) throw bad("in order and apart");
    out.emplace_back(a, b);
    pos = comma + 1;
  }
  return out;
}

std::string range_trace_path(const std::string& trace_path, std::uint64_t first_frame) {
  const std::string ext = ".trace";
  const bool has =
      trace_path.size() > ext.size() && trace_path.compare(trace_path.size() - ext.size(), ext.size(), ext) == 0;
  char frame[32];
  std::snprintf(frame, sizeof frame, ".frames-%06llu", static_cast<unsigned long long>(first_frame));
  return (has ? trace_path.substr(0, trace_path.size() - ext.size()) : trace_path) + frame + ext;
}

std::string snapshot_dir(const std::string& trace_path) {
  const std::string ext = ".trace";
  const bool has =
      trace_path.size() > ext.size() && trace_path.compare(trace_path.size() - ext.size(), ext.size(), ext) == 0;
  return (has ? trace_path.substr(0, trace_path.size() - ext.size()) : trace_path) + ".snapshots";
}

}  // namespace libtrace::vktrace
