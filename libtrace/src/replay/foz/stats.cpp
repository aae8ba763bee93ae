// SPDX-License-Identifier: MIT
#include "replay/foz/stats.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/report.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/core/io.hpp"
#include "libtrace/foz/object.hpp"

namespace libtrace::foz::detail {

namespace {

void put_statistic(libtrace::detail::JsonReport& report, const VkPipelineExecutableStatisticKHR& s) {
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: report.boolean(s.name, s.value.b32 == VK_TRUE); break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: report.i64(s.name, s.value.i64); break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: report.u64(s.name, s.value.u64); break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: report.f64(s.name, s.value.f64); break;
    default: report.null(s.name); break;
  }
}

}  // namespace

std::string pipeline_stats_line(VkDevice device, VkPipeline pipeline, PipelineType type, std::uint64_t hash) {
  VkPipelineInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR;
  info.pipeline = pipeline;
  std::uint32_t count = 0;
  if (vkGetPipelineExecutablePropertiesKHR(device, &info, &count, nullptr) != VK_SUCCESS || count == 0) return {};
  std::vector<VkPipelineExecutablePropertiesKHR> executables(count);
  for (auto& e : executables) e.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
  if (vkGetPipelineExecutablePropertiesKHR(device, &info, &count, executables.data()) != VK_SUCCESS) return {};
  executables.resize(count);
  libtrace::detail::JsonReport report;
  report.object([&] {
    report.text("type", pipeline_type_name(type));
    report.text("hash", hash_hex(hash));
    report.array_of_indexes("executables", executables.size(), [&](std::size_t i) {
      const VkPipelineExecutablePropertiesKHR& e = executables[i];
      report.object([&] {
        report.text("name", e.name);
        report.text("description", e.description);
        report.u64("subgroup_size", e.subgroupSize);
        report.u64("stages", e.stages);
        VkPipelineExecutableInfoKHR which{};
        which.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR;
        which.pipeline = pipeline;
        which.executableIndex = static_cast<std::uint32_t>(i);
        std::uint32_t n = 0;
        std::vector<VkPipelineExecutableStatisticKHR> stats;
        if (vkGetPipelineExecutableStatisticsKHR(device, &which, &n, nullptr) == VK_SUCCESS && n > 0) {
          stats.resize(n);
          for (auto& s : stats) s.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
          if (vkGetPipelineExecutableStatisticsKHR(device, &which, &n, stats.data()) != VK_SUCCESS) n = 0;
          stats.resize(n);
        }
        report.object("statistics", [&] {
          for (const auto& s : stats) put_statistic(report, s);
        });
      });
    });
  });
  return report.finish();
}

StatsFile::StatsFile(const std::string& path)
    : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw Error(Errc::io, path, std::strerror(errno));
}

StatsFile::~StatsFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool StatsFile::append(const std::string& line) {
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t w = ::write(fd_, line.data() + done, line.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<std::size_t>(w);
  }
  return true;
}

std::uint64_t merge_stats_files(const std::string& dir, const std::string& output) {
  std::vector<std::string> lines;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      if (e->d_name[0] == '.') continue;
      std::ifstream f(dir + "/" + e->d_name);
      for (std::string line; std::getline(f, line);)
        if (!line.empty()) lines.push_back(std::move(line));
    }
    ::closedir(d);
  }
  // Lines start {"type":T,"hash":H: sorted, a pipeline's lines stand
  // together, the first of them kept (--loop makes one a pass).
  std::sort(lines.begin(), lines.end());
  const auto key = [](const std::string& l) { return l.substr(0, l.find(",\"executables\"")); };
  OutputFile out(output);
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i && key(lines[i]) == key(lines[i - 1])) continue;
    out.write(lines[i].data(), lines[i].size());
    out.write("\n", 1);
    ++n;
  }
  out.commit();
  return n;
}

}  // namespace libtrace::foz::detail
