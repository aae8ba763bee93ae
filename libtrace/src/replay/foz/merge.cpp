// SPDX-License-Identifier: MIT
// Pipeline-cache files of one device merged into one: the last step of a
// sharded replay (one cache per machine).

#include "core/report.hpp"
#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/cache.hpp"
#include "replay/foz/device.hpp"

namespace libtrace::foz {

CacheMergeResult merge_cache_files(const std::string& device, const std::vector<std::string>& inputs,
                                   const std::string& output) {
  if (inputs.empty()) throw Error(Errc::usage, "--load-cache", "no cache file to merge");
  if (output.empty()) throw Error(Errc::usage, "--pipeline-cache", "merging caches needs an output file");
  const detail::ReplayDevice dev(device, nullptr);
  CacheMergeResult r;
  r.device = dev.report().name;
  std::vector<std::vector<std::uint8_t>> parts;
  for (const auto& name : inputs) {
    if (name == output) throw Error(Errc::usage, output, "is an input cache too");
    auto blob = detail::read_file_bytes(name);
    if (std::string why = dev.cache_mismatch(blob); !why.empty()) {
      r.skipped.emplace_back(name, why);
      continue;
    }
    r.merged.push_back(name);
    parts.push_back(std::move(blob));
  }
  if (parts.empty())
    throw Error(Errc::unsupported, output, "none of the " + std::to_string(inputs.size()) + " caches fits " + r.device);
  std::vector<std::string> ignored;  // every part fits
  const auto merged = dev.merge_caches({}, parts, ignored);
  detail::write_file_atomically(output, merged);
  r.bytes = merged.size();
  return r;
}

std::string report_cache_merge(const CacheMergeResult& r, bool json) {
  if (!json) {
    std::string o = "device      " + r.device + "\nmerged      " + std::to_string(r.merged.size()) + " caches, " +
                    std::to_string(r.bytes) + " bytes\n";
    for (const auto& [name, why] : r.skipped) o += "left out    " + name + ": " + why + "\n";
    return o;
  }
  libtrace::detail::JsonReport report;
  report.object([&] {
    report.text("device", r.device);
    report.array("merged", r.merged, [&](const std::string& m) { report.text(m); });
    report.objects("skipped", r.skipped, [&](const auto& skipped) {
      report.text("file", skipped.first);
      report.text("reason", skipped.second);
    });
    report.u64("bytes", r.bytes);
  });
  return report.finish();
}

}  // namespace libtrace::foz
