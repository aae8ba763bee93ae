// SPDX-License-Identifier: MIT
// A worker's session on a device: its pipeline cache (seeded from
// --load-cache) and the Replayer that creates pipelines into it. Made the
// same way in a worker process (its own device) and in a thread of
// --in-process (the device of the process).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "replay/foz/device.hpp"
#include "replay/foz/objects.hpp"
#include "replay/foz/stats.hpp"
#include "replay/foz/worker.hpp"

namespace libtrace::foz::detail {

// A cache file given with --load-cache whose header is a version-one header.
struct CacheFile {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

// The --load-cache files that fit `dev`, merged into one blob; the others are
// reported in `report`'s warnings, and the count that fit in caches_loaded.
std::vector<std::uint8_t> seed_cache(const ReplayDevice& dev, const std::vector<CacheFile>& files,
                                     DeviceReport& report);

// The archives' application info (the first in hash order, as Fossilize
// picks it): its features decide robustness and the like. Null when there is
// none; when it cannot be read, null and a warning in `warnings`.
const VkPhysicalDeviceFeatures2* application_features(const Sources& sources, Arena& arena,
                                                      std::vector<std::string>& warnings);

using InvalidModules = std::unordered_map<std::uint64_t, std::string>;  // hash -> spirv-val's message

class DeviceSession final : public Session {
 public:
  // `own` is the worker's device (processes); otherwise `shared_device`
  // (threads) is used. Creates a pipeline cache, seeded from `seeds`, where
  // one is wanted (`keep_cache`: its data is asked for at the end) or seeded;
  // else pipelines are made with none, as fossilize-replay makes them
  // without --pipeline-cache, and nothing is copied into one. A device that
  // cannot tell cache misses (compile_required) is warned of. `stats_file`
  // (non-empty): --pipeline-stats lines go there.
  DeviceSession(std::unique_ptr<ReplayDevice> own, const ReplayDevice* shared_device,
                const std::vector<CacheFile>& seeds, bool keep_cache, CompileRequired compile_required,
                const std::string& stats_file = {});
  ~DeviceSession() override;

  // Readies the session for run(): pipelines of `sources`, reporting through
  // `slot` of `shared`. The arguments must outlive the session.
  void start(const Sources& sources, SharedState& shared, unsigned slot, std::uint64_t module_budget,
             const InvalidModules* invalid_modules);

  const DeviceReport& report() const override { return report_; }
  Outcome run(const WorkItem& item, std::string& reason) override;
  std::vector<std::uint8_t> cache_data() override;  // empty without a cache

 private:
  std::unique_ptr<ReplayDevice> own_;
  const ReplayDevice* dev_;
  DeviceReport report_;
  CompileRequired compile_required_;
  std::unique_ptr<StatsFile> stats_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::unique_ptr<Replayer> replayer_;
};

}  // namespace libtrace::foz::detail
