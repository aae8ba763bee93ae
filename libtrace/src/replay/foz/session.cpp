// SPDX-License-Identifier: MIT
// A worker's device session: seeded pipeline cache and replayer.
#include "replay/foz/session.hpp"

#include "libtrace/foz/object.hpp"

namespace libtrace::foz::detail {

std::vector<std::uint8_t> seed_cache(const ReplayDevice& dev, const std::vector<CacheFile>& files,
                                     DeviceReport& report) {
  std::vector<std::vector<std::uint8_t>> fit;
  for (const CacheFile& f : files) {
    if (std::string why = dev.cache_mismatch(f.bytes); !why.empty()) {
      report.warnings.emplace_back(f.name, "not loaded: " + why);
      continue;
    }
    fit.push_back(f.bytes);
  }
  report.caches_loaded = static_cast<std::uint32_t>(fit.size());
  if (fit.size() <= 1) return fit.empty() ? std::vector<std::uint8_t>{} : fit.front();
  std::vector<std::string> ignored;  // all fit: nothing is left out
  return dev.merge_caches({}, fit, ignored);
}

const VkPhysicalDeviceFeatures2* application_features(const Sources& sources, Arena& arena,
                                                      std::vector<std::string>& warnings) {
  const auto apps = sources.hashes(Tag::application_info);
  if (apps.empty()) return nullptr;
  const auto f = sources.find(Tag::application_info, apps.front());
  try {
    std::vector<std::uint8_t> payload;
    sources.read(f, payload);
    const Object o = parse_payload(std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()),
                                   arena, f.reader->where(*f.entry));
    return o.features;
  } catch (const Error& e) {
    warnings.push_back(std::string(e.what()) + " (replaying with the device's defaults)");
    return nullptr;
  }
}

DeviceSession::DeviceSession(std::unique_ptr<ReplayDevice> own, const ReplayDevice* shared_device,
                             const std::vector<CacheFile>& seeds, bool keep_cache, CompileRequired compile_required,
                             const std::string& stats_file)
    : own_(std::move(own)), dev_(own_ ? own_.get() : shared_device), compile_required_(compile_required) {
  report_ = dev_->report();
  if (compile_required_ != CompileRequired::compile && !has_cache_control(dev_->caps()))
    report_.warnings.emplace_back(report_.name,
                                  "no pipelineCreationCacheControl: every pipeline is compiled, and "
                                  "no cache miss can be told");
  if (!stats_file.empty()) {
    if (has_pipeline_stats(dev_->caps()))
      stats_ = std::make_unique<StatsFile>(stats_file);
    else
      report_.warnings.emplace_back(report_.name, "no VK_KHR_pipeline_executable_properties: no pipeline statistics");
  }
  std::vector<std::uint8_t> seed;
  if (!dev_->is_null()) seed = seed_cache(*dev_, seeds, report_);
  if (keep_cache || !seed.empty()) cache_ = dev_->create_cache(seed);
}

DeviceSession::~DeviceSession() {
  replayer_.reset();
  if (cache_) vkDestroyPipelineCache(dev_->handle(), cache_, nullptr);
}

void DeviceSession::start(const Sources& sources, SharedState& shared, unsigned slot, std::uint64_t module_budget,
                          const InvalidModules* invalid_modules) {
  ReplayerConfig rc;
  rc.sources = &sources;
  rc.device = dev_;
  rc.cache = cache_;
  rc.module_budget = module_budget;
  rc.shared = &shared;
  rc.slot = slot;
  rc.invalid_modules = invalid_modules;
  rc.compile_required = compile_required_;
  rc.stats = stats_.get();
  replayer_ = std::make_unique<Replayer>(rc);
}

Outcome DeviceSession::run(const WorkItem& item, std::string& reason) {
  if (!replayer_) throw Error(Errc::usage, "", "a session ran a pipeline before it was started");
  return replayer_->replay(item, reason);
}

std::vector<std::uint8_t> DeviceSession::cache_data() {
  return cache_ ? dev_->cache_data(cache_) : std::vector<std::uint8_t>{};
}

}  // namespace libtrace::foz::detail
