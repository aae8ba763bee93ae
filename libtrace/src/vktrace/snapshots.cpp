// SPDX-License-Identifier: MIT
// Snapshot frames and folders, shared by the capture layer, its launcher and
// the replay.
#include <algorithm>
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

std::string snapshot_dir(const std::string& trace_path) {
  const std::string ext = ".trace";
  const bool has =
      trace_path.size() > ext.size() && trace_path.compare(trace_path.size() - ext.size(), ext.size(), ext) == 0;
  return (has ? trace_path.substr(0, trace_path.size() - ext.size()) : trace_path) + ".snapshots";
}

}  // namespace libtrace::vktrace
