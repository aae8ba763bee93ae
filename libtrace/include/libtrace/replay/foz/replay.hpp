// SPDX-License-Identifier: MIT
// Replaying Fossilize archives (.foz) on a Vulkan device: batch pipeline-cache
// warming. Every pipeline of the archives (or a range or shard of them) is
// created once, with its samplers, layouts, render passes and shader modules
// created on demand in dependency order, by N worker processes that each own a
// VkDevice. A pipeline that crashes or hangs the driver kills only its worker:
// it is recorded, the worker is replaced, and the run goes on.
//
// Part of the `trak-foz-replay` library (libtrace/meson.build), which links
// trak-vk. Errors that stop a whole run (unreadable archive, no device) are
// libtrace::Error; everything that concerns one pipeline is counted and
// reported in ReplayResult instead.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/core/error.hpp"
#include "libtrace/foz/archive.hpp"

namespace libtrace::foz {

// The three kinds of pipeline an archive holds, in the order they replay.
enum class PipelineType : std::uint8_t { graphics = 0, compute = 1, raytracing = 2 };
inline constexpr std::size_t kPipelineTypes = 3;

std::string_view pipeline_type_name(PipelineType t);  // "graphics", "compute", "raytracing"
Tag pipeline_type_tag(PipelineType t);
std::optional<PipelineType> parse_pipeline_type(std::string_view name);

// Positions in one type's hash list, ascending (Fossilize's order, which its
// --*-pipeline-range options index too). Both ends included.
struct IndexRange {
  std::uint64_t first = 0;
  std::uint64_t last = std::numeric_limits<std::uint64_t>::max();
};

// "--range" values: "[TYPE:]A-B", "A-", "-B" or "N". Without TYPE the range
// applies to every type. Throws Error(usage) for anything else.
struct RangeSpec {
  std::optional<PipelineType> type;
  IndexRange range;
};
RangeSpec parse_range(std::string_view text);

// "I/N": part I (0-based) of N contiguous, near-equal parts of each type's
// selected positions. Throws Error(usage) unless 0 <= I < N.
struct Shard {
  std::uint64_t index = 0;
  std::uint64_t count = 1;
};
Shard parse_shard(std::string_view text);

// "--shard auto" and "auto/N": the part this process is, from the variables a
// scheduler sets, which `env` looks up (the tool reads the environment; the
// library never does). A Slurm array: SLURM_ARRAY_TASK_ID, its place among
// SLURM_ARRAY_TASK_MIN, _MAX and _STEP (ids need not start at 0; MIN is 0
// when unset), the count from SLURM_ARRAY_TASK_COUNT or MIN..MAX. A Kubernetes
// indexed Job: JOB_COMPLETION_INDEX, the count from N or kShardCountVariable
// (Kubernetes tells a pod its index, not the Job's completions). N, where
// both give a count, must agree. Anything unset, unreadable or inconsistent
// (an array with gaps, an index past the count, both schedulers at once) is
// Error(usage) naming the variables; an empty variable counts as unset.
// Other texts are parsed as parse_shard(text).
inline constexpr std::string_view kShardCountVariable = "TRAK_SHARD_COUNT";
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
struct ResolvedShard {
  Shard shard;
  std::string source;  // "SLURM_ARRAY_TASK_ID=5 (of 1..4)", ...; "" for I/N
};
ResolvedShard resolve_shard(std::string_view text, const EnvLookup& env);

// Live counts, reported about five times a second and once at the end.
struct ReplayProgress {
  std::array<std::uint64_t, kPipelineTypes> done{};   // finished in any way
  std::array<std::uint64_t, kPipelineTypes> total{};  // to do in this run
  std::uint64_t failed = 0, crashed = 0, skipped = 0;
  double seconds = 0;
  bool final = false;
};

// How a worker process ends once it has handed over its results and cache.
enum class WorkerExit : std::uint8_t {
  // fast where nothing is lost by it: the null device, Mesa's drivers with
  // MESA_SHADER_CACHE_DISABLE set, NVIDIA's with __GL_SHADER_DISK_CACHE=0;
  // clean everywhere else.
  automatic,
  // Destroy the device and instance first: a driver finishes writing its own
  // disk cache there (Mesa waits for its cache writer threads), which warming
  // that cache needs. Costs what the driver takes to free everything
  // (lavapipe: ~150 ms after 6,000 pipelines).
  clean,
  // End at once and leave the driver's state to the kernel: writes the
  // driver still had queued for its disk cache are lost.
  fast,
};

// fossilize-replay's check of a warm cache (--fail-on-pipeline-compile-required,
// --skip-pipelines-on-compile-required): each pipeline is first asked for with
// VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, so that the driver
// makes it from its cache or returns VK_PIPELINE_COMPILE_REQUIRED; a miss is
// counted, then compiled after all (count) or left out (skip). Needs the
// device's pipelineCreationCacheControl; the pipelines' own parents (bases,
// libraries) are always compiled.
enum class CompileRequired : std::uint8_t { compile, count, skip };
std::string_view compile_required_name(CompileRequired c);

inline constexpr unsigned kAutoThreadsPerWorker = 8;
inline constexpr unsigned kMaxThreadsPerWorker = 256;

struct ReplayOptions {
  std::vector<std::string> inputs;  // .foz files; the first holding an object wins
  // Worker processes (threads with in_process); 0 = one per core.
  unsigned jobs = 0;
  // The program the worker processes run: one that calls run_worker() when
  // started as `<program> --foz-replay-worker FD` (trak-replay does; it
  // passes /proc/self/exe). Needed unless in_process.
  std::string worker_executable;
  // Threads in this process instead of worker processes: no crash isolation,
  // no --timeout, for debugging.
  bool in_process = false;
  // Threads in each worker process, sharing its device: the jobs run in
  // ceil(jobs / threads_per_worker) processes. A device costs each process
  // its start (NVIDIA: ~0.2 s of kernel time that processes take in turn)
  // and its exit; a crash costs the pipelines in flight in its process, made
  // again. 0 = kAutoThreadsPerWorker, at most kMaxThreadsPerWorker.
  unsigned threads_per_worker = 0;
  // Parse and dispatch everything, create nothing: trak's own overhead.
  bool null_device = false;
  std::string device;          // "" = the first; an index or a name substring
  std::string pipeline_cache;  // write the merged VkPipelineCache here ("" = no)
  // Seed every worker's cache from these files (those of another device are
  // left out with a warning); they are merged into the output too.
  std::vector<std::string> load_caches;
  std::string skip_done;        // resume database (.foz of 0-byte entries)
  double timeout_seconds = 60;  // a pipeline taking longer hangs its worker; 0 = no limit
  std::vector<RangeSpec> ranges;
  Shard shard;
  std::string shard_source;  // where the shard came from (ResolvedShard), for the report
  // Only these pipelines (of any type; the objects they need are made on
  // demand as always), instead of ranges and shards. A hash no pipeline of
  // the archives has is Error(usage).
  std::vector<std::uint64_t> pipeline_hashes;
  // Every selected pipeline this many times over (counted each time), as
  // fossilize-replay --loop does, to time the driver. Not with skip_done.
  unsigned loop = 1;
  CompileRequired compile_required = CompileRequired::compile;
  // JSON Lines of what the driver tells of each pipeline it made (its
  // executables and their statistics, VK_KHR_pipeline_executable_properties),
  // one line per pipeline sorted by type and hash ("" = none). A device
  // without the extension gets a warning and the file no lines.
  std::string pipeline_stats;
  bool validate = false;  // run spirv-val on every shader module first
  std::string spirv_val = "spirv-val";
  std::uint64_t module_cache_bytes = 256ull << 20;    // VkShaderModules kept per worker
  std::uint64_t worker_memory_bytes = 2048ull << 20;  // per thread: a worker over this is replaced (0 = never)
  // A worker is replaced after this long (0 = never; negative = 300 s with a
  // pipeline-cache file, which a crash would cost all of, else never: a new
  // worker pays the driver's start-up again, over a second on some drivers).
  double worker_seconds = -1;
  WorkerExit worker_exit = WorkerExit::automatic;
  std::function<void(const ReplayProgress&)> progress;
  WarningSink warnings;
  // Set (by a signal handler) to stop: in-flight pipelines finish, outputs
  // are written, the rest is counted as not run.
  const std::atomic<bool>* stop = nullptr;
};

enum class Outcome : std::uint8_t {
  pending = 0,
  ok,             // created
  failed,         // bad input or an error from the driver
  unsupported,    // needs something the device lacks (skipped)
  crashed,        // the worker died creating it
  timed_out,      // the worker was killed after --timeout
  ok_cache_miss,  // created, after the cache did not have it (CompileRequired::count)
  cache_miss,     // not created: the cache did not have it (CompileRequired::skip)
};
// Whether the pipeline was made (ok, whether or not from the cache).
inline bool created(Outcome o) { return o == Outcome::ok || o == Outcome::ok_cache_miss; }
std::string_view outcome_name(Outcome o);

struct TypeCounts {
  std::uint64_t total = 0;  // selected for this run (after ranges and shard)
  std::uint64_t ok = 0;
  std::uint64_t failed = 0;   // includes crashed and timed_out
  std::uint64_t skipped = 0;  // unsupported + already done + not run
  std::uint64_t crashed = 0, timed_out = 0;
  std::uint64_t unsupported = 0, already_done = 0, not_run = 0;
  std::uint64_t cache_misses = 0;  // CompileRequired: VK_PIPELINE_COMPILE_REQUIRED (ok or skipped after)
};

// One pipeline that did not simply work.
struct PipelineIssue {
  PipelineType type = PipelineType::graphics;
  std::uint64_t hash = 0;
  std::uint64_t index = 0;  // position in its type's ascending hash list
  Outcome outcome = Outcome::failed;
  int signal = 0;  // crashed: the signal that killed the worker (0: it exited)
  std::string reason;
};

struct ReplayResult {
  std::string device;  // deviceName; "null device" for null_device
  std::string driver;
  std::uint32_t vendor_id = 0, device_id = 0, api_version = 0;
  bool null_device = false;
  std::vector<std::string> inputs;
  unsigned jobs = 0;
  bool in_process = false;
  unsigned threads_per_worker = 1;  // processes: the most threads in one (jobs split evenly)
  std::array<TypeCounts, kPipelineTypes> counts{};
  Shard shard;
  std::string shard_source;
  unsigned loop = 1;  // passes over the selection (counts include every pass)
  CompileRequired compile_required = CompileRequired::compile;
  std::string pipeline_stats;
  std::uint64_t pipeline_stats_lines = 0;
  // Crashed or hung, in the order found; then failed and unsupported ones.
  std::vector<PipelineIssue> faulty, failed, unsupported;
  std::uint64_t issues_dropped = 0;  // beyond the kept lists' cap
  // Features the archive's application info asks for that the device lacks.
  std::vector<std::string> missing_features;
  std::vector<std::string> warnings;
  std::uint64_t workers_started = 0;
  std::uint64_t lost_from_cache = 0;  // created by a crashed worker, redone
  double seconds = 0;
  std::uint64_t peak_rss_parent = 0, peak_rss_worker = 0;  // bytes
  std::string pipeline_cache;
  std::uint64_t pipeline_cache_bytes = 0;
  std::uint32_t caches_loaded = 0;  // of load_caches, those that fit the device
  bool interrupted = false;

  std::uint64_t total() const;
  std::uint64_t ok() const;
  double pipelines_per_second() const;  // attempted (created or failed) per wall second
};

// Runs the replay. Throws Error for what stops the whole run: an unreadable
// archive, no (or no such) device, a worker that cannot start, an unwritable
// output. Per-pipeline problems are in the result.
//
// Worker processes are fresh images of opt.worker_executable (posix_spawn),
// not forks of the caller: a driver the caller initialized leaves nothing in
// them (NVIDIA's fails vkCreateDevice with VK_ERROR_INITIALIZATION_FAILED in
// a child forked after it was initialized), so the caller may use Vulkan
// before, during and after. They inherit no descriptor of the caller but
// stdin (/dev/null), stdout (the caller's stderr), stderr and their socket,
// and every one is reaped before replay() returns or throws.
ReplayResult replay(const ReplayOptions& opt);

// A worker process's entry point. A program passed as worker_executable
// calls it when its arguments are exactly {kWorkerFlag, FD}, before anything
// else (no argument parsing, no Vulkan), and ends at once with
// ::_exit(status): the worker's driver state is the kernel's to free, no
// static destructor runs. `channel_fd` is the socket the parent handed down
// (always 3). Never throws; a worker started by hand just exits 1.
inline constexpr std::string_view kWorkerFlag = "--foz-replay-worker";
int run_worker(int channel_fd);

// Merges pipeline-cache files of one device into `output` (through the
// temporary-and-rename): how the caches of shards run on several machines
// become one. Files of another device, or not caches at all, are left out
// and named in `skipped`; Error when none is usable or the output cannot be
// written.
struct CacheMergeResult {
  std::string device;
  std::vector<std::string> merged;                           // the inputs used
  std::vector<std::pair<std::string, std::string>> skipped;  // input, why
  std::uint64_t bytes = 0;
};
CacheMergeResult merge_cache_files(const std::string& device, const std::vector<std::string>& inputs,
                                   const std::string& output);
std::string report_cache_merge(const CacheMergeResult& r, bool json);

// A human summary table (stdout), and the --json object.
std::string report_table(const ReplayResult& r);
std::string report_json(const ReplayResult& r);

// The exit statuses trak-replay documents for a finished run.
inline constexpr int kExitCrashed = 3;  // some pipelines crashed or hung the driver
inline constexpr int kExitFailed = 4;   // some pipelines failed (bad input, driver error)
inline constexpr int kExitInterrupted = 130;
int replay_exit_status(const ReplayResult& r);

}  // namespace libtrace::foz
