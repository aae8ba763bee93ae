// SPDX-License-Identifier: MIT
// --pipeline-stats: what the driver says of each pipeline it made
// (VK_KHR_pipeline_executable_properties), as JSON Lines. Each worker
// appends its pipelines to a file of its own as it makes them (a crash keeps
// what came before); the parent merges the files into the output.
#pragma once

#include <cstdint>
#include <string>

#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/device.hpp"

namespace libtrace::foz::detail {

// Whether the device was given what statistics need.
inline bool has_pipeline_stats(const Capabilities& caps) {
  return caps.has_feature("VK_KHR_pipeline_executable_properties.pipelineExecutableInfo");
}

// One line: {"type","hash","executables":[{"name","description","subgroup_size","stages",
// "statistics":{NAME: value}}]}; empty when the driver tells nothing.
std::string pipeline_stats_line(VkDevice device, VkPipeline pipeline, PipelineType type, std::uint64_t hash);

// Appends lines to a file opened once (O_APPEND: the workers of threads
// each have their own). A failed write is reported once by the caller.
class StatsFile {
 public:
  explicit StatsFile(const std::string& path);
  ~StatsFile();
  StatsFile(const StatsFile&) = delete;
  StatsFile& operator=(const StatsFile&) = delete;
  bool append(const std::string& line);

 private:
  int fd_ = -1;
};

// The lines of every file in `dir`, the first of each pipeline, sorted by
// type and hash, written to `output` (through a temporary renamed at the
// end). Returns how many pipelines it holds. Throws Error(io).
std::uint64_t merge_stats_files(const std::string& dir, const std::string& output);

}  // namespace libtrace::foz::detail
