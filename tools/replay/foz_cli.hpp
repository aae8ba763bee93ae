// SPDX-License-Identifier: MIT
// trak-replay's options for Fossilize archives (.foz) (--device and
// --list-devices are shared with VMA replay, in main.cpp): filled by CLI11, handed
// to libtrace::foz::replay(), whose result is printed and mapped to the exit
// status documented in --help.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "libtrace/replay/foz/replay.hpp"
#include "tool_main.hpp"

namespace tools {

struct FozCli {
  libtrace::foz::ReplayOptions opt;
  std::vector<std::string> ranges;
  std::string shard;
  std::vector<std::string> pipeline_hashes;
  double module_cache_mib = 256, worker_memory_mib = 2048;
  std::string worker_exit = "auto";
  bool progress = false, no_progress = false;
  bool fail_on_compile_required = false, skip_on_compile_required = false;
};

inline constexpr const char* kFozHelp = R"(

Fossilize archives (.foz) replay every pipeline on a Vulkan device to warm its
caches. Workers are processes: a pipeline that crashes or hangs the driver is
recorded, its worker replaced, and the run goes on.

Exit status for .foz: 0 done (pipelines the device cannot make are skipped, not failed);
  1 the run could not be done (unreadable archive, no device); 2 bad usage;
  3 some pipelines crashed or hung the driver (listed, with a repro command);
  4 some pipelines failed (bad input or a driver error; listed);
  130 interrupted (the outputs hold what was done; resume with --skip-done).

Examples (.foz):
  trak-replay game.foz                          every pipeline, one job per core
  trak-replay game.foz --pipeline-cache game.vkcache --json | jq .compute
  trak-replay game.foz --device NVIDIA --jobs 8 --timeout 30
  trak-replay game.foz --jobs 16 --threads-per-worker 16        (one worker process: one device to start)
  trak-replay game.foz --shard 3/16 --pipeline-cache part3.bin   (one of 16 machines)
  sbatch --array=0-15 --wrap 'trak-replay game.foz --shard auto --pipeline-cache part$SLURM_ARRAY_TASK_ID.bin'
  trak-replay game.foz --shard auto/16 ...      (a Kubernetes indexed Job of 16 completions)
  trak-replay game.foz --skip-done done.foz                     (run again to resume)
  trak-replay --load-cache p0.bin --load-cache p1.bin --pipeline-cache all.bin   (no archive: merge caches)
  trak-replay game.foz --range compute:1200 --jobs 1            (one pipeline, to debug)
  trak-replay game.foz --pipeline-hash e3b925b0c1c00de1         (one pipeline by hash, with what it needs)
  trak-replay game.foz --load-cache game.vkcache --fail-on-pipeline-compile-required --json | jq .graphics.cache_misses
                                                (was the cache warm? misses counted, then compiled)
  trak-replay game.foz --pipeline-stats stats.jsonl && jq -c '[.hash, .executables[].statistics]' stats.jsonl
  trak-replay game.foz --loop 5 --jobs 1 --json | jq .pipelines_per_second   (every pipeline 5 times)
  trak-replay game.foz --null-device --jobs 1                   (parse only: trak's own cost)
  trak-replay game.foz --validate --json | jq '.failed'         (spirv-val first))";

inline void add_foz_options(CLI::App& app, FozCli& c) {
  auto& o = c.opt;
  app.add_option("--jobs,-j", o.jobs, "Pipelines made at once (.foz; 0 = one per core)")->capture_default_str();
  app.add_option("--threads-per-worker", o.threads_per_worker,
                 "Threads in each worker process, sharing its device (0: up to 8, the jobs spread evenly over the "
                 "processes). Fewer processes start fewer devices; a crash costs the pipelines in flight in its "
                 "process, made again")
      ->capture_default_str();
  app.add_flag("--in-process", o.in_process, "Workers are threads of this process: no crash isolation (debugging)");
  app.add_flag("--null-device", o.null_device, "Parse and dispatch everything, create nothing (trak's own cost)");
  app.add_option("--pipeline-cache", o.pipeline_cache, "Write the workers' merged VkPipelineCache to this file");
  app.add_option("--load-cache", o.load_caches,
                 "Seed every worker's pipeline cache from these files (same device only; repeatable). With no "
                 "archive, --load-cache files merge into --pipeline-cache")
      ->allow_extra_args(false);  // one file per --load-cache: what follows is an input
  app.add_option("--skip-done", o.skip_done,
                 "Resume database (.foz): pipelines listed there are skipped, finished ones are appended");
  app.add_option("--range", c.ranges,
                 "[TYPE:]A-B, A-, -B or N: positions in each type's ascending hash order (TYPE: graphics, compute, "
                 "raytracing); repeatable")
      ->allow_extra_args(false);
  app.add_option("--shard", c.shard,
                 "I/N: replay part I (0..N-1) of N equal parts of the selection. auto: the part a Slurm array task "
                 "is (SLURM_ARRAY_TASK_ID among the array's ids); auto/N: also a Kubernetes indexed Job's part "
                 "(JOB_COMPLETION_INDEX of N; or set TRAK_SHARD_COUNT=N and give auto)");
  app.add_option("--pipeline-hash", c.pipeline_hashes,
                 "Only the pipeline of this hash (any type; 16 hex digits as trak-stat --list prints them), with "
                 "the objects it needs; repeatable")
      ->allow_extra_args(false);
  app.add_option("--timeout", o.timeout_seconds,
                 "Seconds a pipeline may take before its worker is killed (0: no limit)")
      ->capture_default_str();
  app.add_flag("--progress", c.progress,
               "Progress on stderr also where it is no terminal, as 'trak-replay: progress key=value ...' lines "
               "(on a terminal a progress line is the default)");
  app.add_flag("--no-progress", c.no_progress, "No progress on stderr");
  app.add_flag("--validate", o.validate,
               "Check every shader module with spirv-val first: an archive's pipelines using a bad one fail, "
               "a capture's replay stops at it");
  app.add_option("--module-cache", c.module_cache_mib, "MiB of shader modules a worker keeps")->capture_default_str();
  app.add_option("--worker-memory", c.worker_memory_mib,
                 "MiB of resident memory per thread after which a worker process hands over to a fresh one "
                 "(0: never)")
      ->capture_default_str();
  app.add_option("--worker-exit", c.worker_exit,
                 "How a worker ends once its results are in: clean (destroy its device, so that the driver "
                 "finishes writing its own disk cache), fast (leave it to the kernel), auto (fast where the "
                 "driver's disk cache is off: MESA_SHADER_CACHE_DISABLE, __GL_SHADER_DISK_CACHE=0; else clean)")
      ->check(CLI::IsMember({"auto", "clean", "fast"}))
      ->capture_default_str();
  app.add_option("--pipeline-stats,--enable-pipeline-stats", o.pipeline_stats,
                 "Write what the driver tells of each pipeline it made (executables and their statistics, "
                 "VK_KHR_pipeline_executable_properties) to FILE, as JSON Lines sorted by type and hash")
      ->type_name("FILE");
  app.add_flag("--fail-on-pipeline-compile-required", c.fail_on_compile_required,
               "Ask for each pipeline from the cache first (VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT): "
               "misses are counted (cache_misses), then compiled; as fossilize-replay's option");
  app.add_flag("--skip-pipelines-on-compile-required", c.skip_on_compile_required,
               "The same, but a pipeline the cache lacks is left out (counted as skipped), not compiled");
  app.add_option("--worker-seconds", o.worker_seconds,
                 "Seconds after which a worker hands over to a fresh one (0: never; default: 300 with "
                 "--pipeline-cache, else never)");
}

// The first of the .foz options given on the command line, or empty: a VMA
// recording's replay has no use for them, and silently ignoring one hides a
// mistake.
inline std::string foz_option_given(const CLI::App& app) {
  for (const char* name : {"--jobs",
                           "--threads-per-worker",
                           "--in-process",
                           "--null-device",
                           "--pipeline-cache",
                           "--load-cache",
                           "--skip-done",
                           "--range",
                           "--shard",
                           "--pipeline-hash",
                           "--timeout",
                           "--progress",
                           "--validate",
                           "--module-cache",
                           "--worker-memory",
                           "--worker-exit",
                           "--worker-seconds",
                           "--fail-on-pipeline-compile-required",
                           "--skip-pipelines-on-compile-required",
                           "--pipeline-stats"})
    if (app.get_option(name)->count()) return name;
  return {};
}

inline std::atomic<bool> g_foz_stop{false};

inline void on_stop_signal(int) { g_foz_stop.store(true); }

inline void print_progress_lines(const libtrace::foz::ReplayProgress& p) {
  std::uint64_t done = 0, total = 0;
  for (std::size_t t = 0; t < libtrace::foz::kPipelineTypes; ++t) done += p.done[t], total += p.total[t];
  std::fprintf(stderr,
               "trak-replay: progress done=%llu total=%llu graphics=%llu/%llu compute=%llu/%llu "
               "raytracing=%llu/%llu failed=%llu crashed=%llu skipped=%llu%s\n",
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
               static_cast<unsigned long long>(p.done[0]), static_cast<unsigned long long>(p.total[0]),
               static_cast<unsigned long long>(p.done[1]), static_cast<unsigned long long>(p.total[1]),
               static_cast<unsigned long long>(p.done[2]), static_cast<unsigned long long>(p.total[2]),
               static_cast<unsigned long long>(p.failed), static_cast<unsigned long long>(p.crashed),
               static_cast<unsigned long long>(p.skipped), p.final ? " final" : "");
  std::fflush(stderr);
}

// Runs the replay of `inputs` (all .foz) and prints the summary.
inline int run_foz(FozCli& c, const std::vector<std::string>& inputs, bool json) {
  auto& o = c.opt;
  o.inputs = inputs;
  // Workers are fresh images of this very program (it may have been
  // replaced on disk since: /proc/self/exe is still this one).
  o.worker_executable = "/proc/self/exe";
  for (const auto& r : c.ranges) o.ranges.push_back(libtrace::foz::parse_range(r));
  for (const auto& h : c.pipeline_hashes) {
    std::string digits = h.starts_with("0x") ? h.substr(2) : h;
    if (!digits.empty() && digits.size() < 16) digits.insert(0, 16 - digits.size(), '0');
    const auto hash = libtrace::foz::parse_hash(digits);
    if (!hash) throw UsageError("--pipeline-hash: '" + h + "' is not a hash (1 to 16 hex digits)");
    o.pipeline_hashes.push_back(*hash);
  }
  if (!c.shard.empty()) {
    const auto r = libtrace::foz::resolve_shard(c.shard, [](std::string_view name) -> std::optional<std::string> {
      const char* v = std::getenv(std::string(name).c_str());
      return v ? std::optional<std::string>(v) : std::nullopt;
    });
    o.shard = r.shard;
    o.shard_source = r.source;
  }
  if (c.module_cache_mib < 0 || c.worker_memory_mib < 0) throw UsageError("sizes in MiB must be 0 or more");
  o.compile_required = c.skip_on_compile_required   ? libtrace::foz::CompileRequired::skip
                       : c.fail_on_compile_required ? libtrace::foz::CompileRequired::count
                                                    : libtrace::foz::CompileRequired::compile;
  o.module_cache_bytes = static_cast<std::uint64_t>(c.module_cache_mib * 1048576.0);
  o.worker_memory_bytes = static_cast<std::uint64_t>(c.worker_memory_mib * 1048576.0);
  o.worker_exit = c.worker_exit == "clean"  ? libtrace::foz::WorkerExit::clean
                  : c.worker_exit == "fast" ? libtrace::foz::WorkerExit::fast
                                            : libtrace::foz::WorkerExit::automatic;
  if (c.progress && !c.no_progress && !libtrace::stderr_is_terminal()) {
    o.progress = print_progress_lines;
  } else if (!c.no_progress && libtrace::stderr_is_terminal()) {
    auto line = std::make_shared<ProgressLine>("trak-replay", "pipelines");
    o.progress = [line](const libtrace::foz::ReplayProgress& p) {
      if (p.final) return clear_progress_line();
      std::uint64_t done = 0, total = 0;
      for (std::size_t t = 0; t < libtrace::foz::kPipelineTypes; ++t) done += p.done[t], total += p.total[t];
      line->update(done, total, ", " + std::to_string(p.failed) + " failed, " + std::to_string(p.crashed) + " crashed");
    };
  }
  o.warnings = warning_sink("trak-replay");
  // The first Ctrl-C (or SIGTERM) stops handing out pipelines and writes the
  // outputs; a second one kills as usual.
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  o.stop = &g_foz_stop;

  const auto result = libtrace::foz::replay(o);
  clear_progress_line();
  std::cout << (json ? libtrace::foz::report_json(result) : libtrace::foz::report_table(result));
  std::cout.flush();
  return libtrace::foz::replay_exit_status(result);
}

}  // namespace tools
