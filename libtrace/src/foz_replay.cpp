// SPDX-License-Identifier: MIT
// replay(): the archives, the plan, the workers, the merged cache, the result.
#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "foz_replay_cache.hpp"
#include "foz_replay_device.hpp"
#include "foz_replay_objects.hpp"
#include "foz_replay_pool.hpp"
#include "foz_replay_validate.hpp"
#include "libtrace/foz_object.hpp"
#include "libtrace/foz_replay.hpp"

namespace libtrace::foz {

namespace detail {
namespace {

// What every worker's session is made from; set up before the first fork.
struct SessionSetup {
  const Sources* sources = nullptr;
  std::string device_spec;
  bool null_device = false;
  const VkPhysicalDeviceFeatures2* archive_features = nullptr;
  // --load-cache files with a version-one header: name, bytes.
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> load_caches;
  std::uint64_t module_budget = 0;
  const std::unordered_map<std::uint64_t, std::string>* invalid_modules = nullptr;
};

// The --load-cache files that fit `dev`, merged into one blob; the others are
// reported as warnings.
std::vector<std::uint8_t> seed_cache(const ReplayDevice& dev,
                                     const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& files,
                                     DeviceReport& report) {
  std::vector<std::vector<std::uint8_t>> fit;
  for (const auto& [name, blob] : files) {
    if (std::string why = dev.cache_mismatch(blob); !why.empty()) {
      report.warnings.emplace_back(name, "not loaded: " + why);
      continue;
    }
    fit.push_back(blob);
  }
  report.caches_loaded = static_cast<std::uint32_t>(fit.size());
  if (fit.size() <= 1) return fit.empty() ? std::vector<std::uint8_t>{} : fit.front();
  std::vector<std::string> ignored;  // all fit: nothing is left out
  return dev.merge_caches({}, fit, ignored);
}

class DeviceSession final : public Session {
 public:
  // `own` is this worker's device (processes); otherwise `shared_device`
  // (threads) is used.
  DeviceSession(std::unique_ptr<ReplayDevice> own, const ReplayDevice* shared_device, const SessionSetup& s,
                SharedState& shared, unsigned slot)
      : own_(std::move(own)), dev_(own_ ? own_.get() : shared_device) {
    report_ = dev_->report();
    std::vector<std::uint8_t> seed;
    if (!dev_->is_null()) seed = seed_cache(*dev_, s.load_caches, report_);
    cache_ = dev_->create_cache(seed);
    ReplayerConfig rc;
    rc.sources = s.sources;
    rc.device = dev_;
    rc.cache = cache_;
    rc.module_budget = s.module_budget;
    rc.shared = &shared;
    rc.slot = slot;
    rc.invalid_modules = s.invalid_modules;
    replayer_ = std::make_unique<Replayer>(rc);
  }
  ~DeviceSession() override {
    replayer_.reset();
    vkDestroyPipelineCache(dev_->handle(), cache_, nullptr);
  }

  const DeviceReport& report() const override { return report_; }
  Outcome run(const WorkItem& item, std::string& reason) override { return replayer_->replay(item, reason); }
  std::vector<std::uint8_t> cache_data() override { return dev_->cache_data(cache_); }

 private:
  std::unique_ptr<ReplayDevice> own_;
  const ReplayDevice* dev_;
  DeviceReport report_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::unique_ptr<Replayer> replayer_;
};

// Where workers leave their cache blobs: next to the output, removed after.
class TempDir {
 public:
  explicit TempDir(const std::string& near) {
    const auto slash = near.rfind('/');
    std::string tmpl = (slash == std::string::npos ? std::string(".") : near.substr(0, slash)) + "/.trak-replay-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw_errno(near, "creating a directory for the workers' caches");
    path_ = tmpl;
  }
  ~TempDir() {
    if (DIR* d = ::opendir(path_.c_str())) {
      while (const dirent* e = ::readdir(d))
        if (e->d_name[0] != '.') ::unlink((path_ + "/" + e->d_name).c_str());
      ::closedir(d);
    }
    ::rmdir(path_.c_str());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The archive's application info (the first in hash order, as Fossilize
// picks it): its features decide robustness and the like.
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

void check_options(const ReplayOptions& opt) {
  if (opt.null_device && !opt.pipeline_cache.empty())
    throw Error(Errc::usage, "--pipeline-cache", "a null device makes no pipeline cache");
  if (opt.null_device && !opt.load_caches.empty())
    throw Error(Errc::usage, "--load-cache", "a null device loads no pipeline cache");
  if (opt.timeout_seconds < 0) throw Error(Errc::usage, "--timeout", "must be 0 (none) or more seconds");
  for (const auto& out : {opt.pipeline_cache, opt.skip_done})
    for (const auto& in : opt.inputs)
      if (!out.empty() && out == in) throw Error(Errc::usage, out, "is an input archive too");
}

}  // namespace
}  // namespace detail

ReplayResult replay(const ReplayOptions& opt) {
  using namespace detail;
  const auto t0 = std::chrono::steady_clock::now();
  check_options(opt);
  ReplayResult r;
  r.inputs = opt.inputs;
  r.in_process = opt.in_process;
  r.null_device = opt.null_device;
  r.jobs = opt.jobs ? opt.jobs : std::max(1u, std::thread::hardware_concurrency());
  const WarningSink warn = [&](const std::string& where, const std::string& why) {
    r.warnings.push_back(where + ": " + why);
    if (opt.warnings) opt.warnings(where, why);
  };

  const Sources sources(opt.inputs, warn);
  std::unique_ptr<DoneLog> done;
  if (!opt.skip_done.empty()) done = std::make_unique<DoneLog>(opt.skip_done, warn);
  const Plan plan = make_plan(sources, opt.ranges, opt.shard, done.get());

  Arena app_arena;
  std::vector<std::string> app_warnings;
  SessionSetup setup;
  setup.sources = &sources;
  setup.device_spec = opt.device;
  setup.null_device = opt.null_device;
  setup.archive_features = application_features(sources, app_arena, app_warnings);
  for (const auto& w : app_warnings) warn("trak-replay", w);
  setup.module_budget = opt.module_cache_bytes;
  std::unordered_map<std::uint64_t, std::string> invalid;
  if (opt.validate) {
    invalid = validate_modules(sources, opt.spirv_val, r.jobs);
    setup.invalid_modules = &invalid;
  }
  for (const auto& name : opt.load_caches) {
    auto blob = read_file_bytes(name);
    std::string why;
    if (!parse_cache_header(blob, why))
      warn(name, "not loaded: " + why);
    else
      setup.load_caches.emplace_back(name, std::move(blob));
  }

  SharedState shared(plan.items.size(), r.jobs, !opt.in_process);
  Ledger ledger(plan, shared, done.get(), !opt.pipeline_cache.empty());
  std::unique_ptr<TempDir> blobs;
  PoolConfig cfg;
  cfg.jobs = r.jobs;
  cfg.timeout_seconds = opt.timeout_seconds;
  cfg.limits.seconds = opt.worker_seconds >= 0 ? opt.worker_seconds : opt.pipeline_cache.empty() ? 0 : 300;
  cfg.limits.rss_bytes = opt.worker_memory_bytes;
  cfg.want_blobs = !opt.pipeline_cache.empty();
  if (cfg.want_blobs && !opt.in_process) {
    blobs = std::make_unique<TempDir>(opt.pipeline_cache);
    cfg.blob_dir = blobs->path();
  }
  cfg.stop = opt.stop;
  cfg.progress = opt.progress;
  cfg.warnings = warn;
  cfg.done = done.get();

  // Threads share one device, made here; processes make their own, after the
  // fork, so that this process holds no driver state while it forks.
  std::unique_ptr<ReplayDevice> device;
  PoolResult pr;
  if (opt.in_process) {
    device = opt.null_device ? std::make_unique<ReplayDevice>()
                             : std::make_unique<ReplayDevice>(opt.device, setup.archive_features);
    pr = run_threads(plan, shared, ledger, [&](SharedState& s, unsigned slot) -> std::unique_ptr<Session> {
      return std::make_unique<DeviceSession>(nullptr, device.get(), setup, s, slot);
    }, cfg);
  } else {
    if (void* loader = ::dlopen("libvulkan.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      ::dlclose(loader);
      warn("trak-replay", "Vulkan was loaded in this process before its workers were forked; some drivers "
                          "(NVIDIA's) cannot start in such workers: replay before using Vulkan, or in-process");
    }
    pr = run_processes(plan, shared, ledger, [&](SharedState& s, unsigned slot) -> std::unique_ptr<Session> {
      auto own = setup.null_device ? std::make_unique<ReplayDevice>()
                                   : std::make_unique<ReplayDevice>(setup.device_spec, setup.archive_features);
      return std::make_unique<DeviceSession>(std::move(own), nullptr, setup, s, slot);
    }, cfg);
  }
  ledger.settle(plan.items.size());
  ledger.finish(r);
  if (opt.progress) opt.progress(ledger.progress());

  // All workers are gone: this process may now open a device itself, to
  // name it when no worker ran, and to merge the workers' caches.
  const bool need_device = !opt.null_device && (!pr.device || !opt.pipeline_cache.empty());
  if (need_device && !device) device = std::make_unique<ReplayDevice>(opt.device, setup.archive_features);
  DeviceReport report = pr.device ? *pr.device : device ? device->report() : ReplayDevice().report();
  r.device = report.name;
  r.driver = report.driver;
  r.vendor_id = report.vendor_id;
  r.device_id = report.device_id;
  r.api_version = report.api_version;
  r.missing_features = report.missing_features;
  r.caches_loaded = report.caches_loaded;
  for (const auto& [where, what] : report.warnings) warn(where, what);

  if (!opt.pipeline_cache.empty()) {
    std::vector<std::vector<std::uint8_t>> parts = std::move(pr.blob_data);
    for (const auto& f : pr.blob_files) parts.push_back(read_file_bytes(f));
    DeviceReport quiet;  // the workers have warned about unfit seeds already
    const std::vector<std::uint8_t> seed = seed_cache(*device, setup.load_caches, quiet);
    std::vector<std::string> skipped;
    const auto merged = device->merge_caches(seed, parts, skipped);
    for (const auto& s : skipped) warn(opt.pipeline_cache, "a worker's cache was left out: " + s);
    write_file_atomically(opt.pipeline_cache, merged);
    r.pipeline_cache = opt.pipeline_cache;
    r.pipeline_cache_bytes = merged.size();
  }

  r.workers_started = pr.workers_started;
  r.lost_from_cache = pr.lost_from_cache;
  r.interrupted = pr.stopped;
  r.peak_rss_parent = peak_rss();
  r.peak_rss_worker = pr.peak_rss_worker;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace libtrace::foz
