// SPDX-License-Identifier: MIT
// replay(): the archives, the plan, the workers, the merged cache, the result.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <optional>
#include <thread>

#include "libtrace/replay/foz/replay.hpp"
#include "replay/foz/cache.hpp"
#include "replay/foz/device.hpp"
#include "replay/foz/objects.hpp"
#include "replay/foz/pool.hpp"
#include "replay/foz/session.hpp"
#include "replay/foz/stats.hpp"
#include "replay/foz/validate.hpp"

namespace libtrace::foz {

namespace detail {
namespace {

// Where workers leave their cache blobs: next to the output, removed after.
class TempDir {
 public:
  // `what` the folder is for, for an error.
  TempDir(const std::string& near, const char* what) {
    const auto slash = near.rfind('/');
    std::string tmpl = (slash == std::string::npos ? std::string(".") : near.substr(0, slash)) + "/.trak-replay-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw_errno(near, std::string("creating a folder for the workers' ") + what);
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

void check_options(const ReplayOptions& opt) {
  if (opt.null_device && !opt.pipeline_cache.empty())
    throw Error(Errc::usage, "--pipeline-cache", "a null device makes no pipeline cache");
  if (opt.null_device && !opt.load_caches.empty())
    throw Error(Errc::usage, "--load-cache", "a null device loads no pipeline cache");
  if (opt.timeout_seconds < 0) throw Error(Errc::usage, "--timeout", "must be 0 (none) or more seconds");
  if (!opt.in_process && opt.worker_executable.empty())
    throw Error(Errc::usage, "", "worker processes need ReplayOptions::worker_executable (or in_process)");
  if (opt.loop == 0) throw Error(Errc::usage, "--loop", "must be 1 or more");
  if (opt.threads_per_worker > kMaxThreadsPerWorker)
    throw Error(Errc::usage, "--threads-per-worker", "must be " + std::to_string(kMaxThreadsPerWorker) + " or fewer");
  if (opt.loop > 1 && !opt.skip_done.empty())
    throw Error(Errc::usage, "--loop", "replays pipelines again; --skip-done leaves out those done: not both");
  if (!opt.pipeline_hashes.empty() && (!opt.ranges.empty() || opt.shard.count > 1))
    throw Error(Errc::usage, "--pipeline-hash", "selects pipelines by hash: not with --range or --shard");
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
  r.shard = opt.shard;
  r.shard_source = opt.shard_source;
  r.loop = opt.loop;
  r.compile_required = opt.compile_required;
  r.in_process = opt.in_process;
  r.null_device = opt.null_device;
  r.jobs = opt.jobs ? opt.jobs : std::max(1u, std::thread::hardware_concurrency());
  const WarningSink warn = [&](const std::string& where, const std::string& why) {
    r.warnings.push_back(where + ": " + why);
    if (opt.warnings) opt.warnings(where, why);
  };

  std::vector<CacheFile> load_caches;
  for (const auto& name : opt.load_caches) {
    auto blob = read_file_bytes(name);
    std::string why;
    if (!parse_cache_header(blob, why))
      warn(name, "not loaded: " + why);
    else
      load_caches.push_back(CacheFile{name, std::move(blob)});
  }

  std::unique_ptr<TempDir> blobs;
  PoolConfig cfg;
  cfg.jobs = r.jobs;
  cfg.threads_per_worker = std::min(r.jobs, opt.threads_per_worker ? opt.threads_per_worker : kAutoThreadsPerWorker);
  r.threads_per_worker = opt.in_process ? r.jobs : cfg.threads_per_worker;
  cfg.timeout_seconds = opt.timeout_seconds;
  cfg.limits.seconds = opt.worker_seconds >= 0 ? opt.worker_seconds : opt.pipeline_cache.empty() ? 0 : 300;
  cfg.limits.rss_bytes = opt.worker_memory_bytes;
  cfg.want_blobs = !opt.pipeline_cache.empty();
  if (cfg.want_blobs && !opt.in_process) {
    blobs = std::make_unique<TempDir>(opt.pipeline_cache, "caches");
    cfg.blob_dir = blobs->path();
  }
  // Each worker's statistics file, merged into opt.pipeline_stats at the end.
  std::unique_ptr<TempDir> stats;
  if (!opt.pipeline_stats.empty()) stats = std::make_unique<TempDir>(opt.pipeline_stats, "statistics");
  cfg.stop = opt.stop;
  cfg.progress = opt.progress;
  cfg.warnings = warn;
  InvalidModules invalid;

  // The first worker process starts now: it sets up its device (tens of
  // milliseconds to seconds) while this process reads the archives.
  std::optional<ProcessPool> pool;
  if (!opt.in_process) {
    cfg.exe = opt.worker_executable;
    cfg.invalid_modules = &invalid;
    WorkerSetup& ws = cfg.setup;
    ws.inputs = opt.inputs;
    ws.device_spec = opt.device;
    ws.null_device = opt.null_device;
    for (const CacheFile& f : load_caches) ws.load_caches.push_back(f.name);
    ws.module_budget = opt.module_cache_bytes;
    ws.limits = cfg.limits;
    ws.blob_dir = cfg.blob_dir;
    ws.exit = opt.worker_exit;
    ws.compile_required = opt.compile_required;
    ws.stats_dir = stats ? stats->path() : "";
    pool.emplace(cfg);
    pool->prestart();
  }

  const Sources sources(opt.inputs, warn);
  for (std::uint64_t h : opt.pipeline_hashes) {
    bool found = false;
    for (std::size_t t = 0; t < kPipelineTypes && !found; ++t) {
      const auto list = sources.hashes(pipeline_type_tag(static_cast<PipelineType>(t)));
      found = std::binary_search(list.begin(), list.end(), h);
    }
    if (!found) throw Error(Errc::usage, "--pipeline-hash " + hash_hex(h), "no pipeline of the archives has this hash");
  }
  std::unique_ptr<DoneLog> done;
  if (!opt.skip_done.empty()) done = std::make_unique<DoneLog>(opt.skip_done, warn);
  cfg.done = done.get();
  Plan plan = make_plan(sources, opt.ranges, opt.shard, done.get(),
                        opt.pipeline_hashes.empty() ? nullptr : &opt.pipeline_hashes);
  if (opt.loop > 1) {
    // Pass after pass: each worker takes the next items in queue order.
    const std::vector<WorkItem> once = plan.items;
    for (unsigned pass = 1; pass < opt.loop; ++pass) plan.items.insert(plan.items.end(), once.begin(), once.end());
    for (TypeCounts& c : plan.counts) c.total *= opt.loop;
  }

  Arena app_arena;
  std::vector<std::string> app_warnings;
  const VkPhysicalDeviceFeatures2* archive_features = application_features(sources, app_arena, app_warnings);
  for (const auto& w : app_warnings) warn("", w);
  if (opt.validate) invalid = validate_modules(sources, opt.spirv_val, r.jobs);

  SharedState shared(plan.items.size(), r.jobs, !opt.in_process);
  shared.set_items(plan.items);
  Ledger ledger(plan, shared, done.get(), !opt.pipeline_cache.empty());

  // Threads share one device, made here; each worker process makes its own,
  // and this process one only to merge their caches, made while they work
  // (the workers are fresh processes: nothing of it reaches them).
  std::unique_ptr<ReplayDevice> device;
  std::future<std::unique_ptr<ReplayDevice>> merge_device;
  PoolResult pr;
  if (opt.in_process) {
    device = opt.null_device ? std::make_unique<ReplayDevice>()
                             : std::make_unique<ReplayDevice>(opt.device, archive_features);
    pr = run_threads(
        plan, shared, ledger,
        [&](SharedState& s, unsigned slot) -> std::unique_ptr<Session> {
          auto session = std::make_unique<DeviceSession>(
              nullptr, device.get(), load_caches, cfg.want_blobs, opt.compile_required,
              stats ? stats->path() + "/stats-slot-" + std::to_string(slot) + ".jsonl" : "");
          session->start(sources, s, slot, opt.module_cache_bytes, &invalid);
          return session;
        },
        cfg);
  } else {
    if (!opt.null_device && !opt.pipeline_cache.empty())
      merge_device =
          std::async(std::launch::async, [&] { return std::make_unique<ReplayDevice>(opt.device, archive_features); });
    pr = pool->run(plan, shared, ledger);
    pool.reset();
    if (merge_device.valid()) device = merge_device.get();
  }
  ledger.settle(plan.items.size());
  ledger.finish(r);
  if (opt.progress) opt.progress(ledger.progress());

  // This process opens a device itself only to name it when no worker ran,
  // and to merge the workers' caches.
  const bool need_device = !opt.null_device && (!pr.device || !opt.pipeline_cache.empty());
  if (need_device && !device) device = std::make_unique<ReplayDevice>(opt.device, archive_features);
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
    const std::vector<std::uint8_t> seed = seed_cache(*device, load_caches, quiet);
    std::vector<std::string> skipped;
    const auto merged = device->merge_caches(seed, parts, skipped);
    for (const auto& s : skipped) warn(opt.pipeline_cache, "a worker's cache was left out: " + s);
    write_file_atomically(opt.pipeline_cache, merged);
    // A cache is a 32-byte header (VkPipelineCacheHeaderVersionOne) and the
    // driver's data; some drivers (lavapipe) keep none.
    if (merged.size() <= 32)
      warn(opt.pipeline_cache, "the driver returned no pipeline data: the cache holds its " +
                                   std::to_string(merged.size()) + "-byte header only, nothing to warm a run with");
    r.pipeline_cache = opt.pipeline_cache;
    r.pipeline_cache_bytes = merged.size();
  }

  if (stats) {
    r.pipeline_stats_lines = merge_stats_files(stats->path(), opt.pipeline_stats);
    r.pipeline_stats = opt.pipeline_stats;
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
