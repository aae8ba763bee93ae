// SPDX-License-Identifier: MIT
// The replay summary: a table for people, JSON for machines, and the exit
// status that sums it up.
#include <cstdio>
#include <map>

#include "core/report.hpp"
#include "core/text_util.hpp"
#include "libtrace/replay/foz/replay.hpp"
#include "libtrace/vk/device.hpp"
#include "replay/foz/pool.hpp"

namespace libtrace::foz {

namespace {

using libtrace::detail::appendf;

constexpr std::size_t kTableIssues = 20;  // per list; the JSON has them all

std::string issue_line(const PipelineIssue& i) {
  return std::string(pipeline_type_name(i.type)) + " " + hash_hex(i.hash) + " (#" + std::to_string(i.index) +
         "): " + i.reason;
}

void list_issues(std::string& o, const char* title, const std::vector<PipelineIssue>& v, bool repro,
                 const std::string& first_input) {
  if (v.empty()) return;
  o += std::string(title) + " (" + std::to_string(v.size()) + "):\n";
  for (std::size_t k = 0; k < v.size() && k < kTableIssues; ++k) {
    o += "  " + issue_line(v[k]) + "\n";
    if (repro)
      o += "    repro: trak-replay " + first_input + " --range " + std::string(pipeline_type_name(v[k].type)) + ":" +
           std::to_string(v[k].index) + " --jobs 1\n";
  }
  if (v.size() > kTableIssues) o += "  ... and " + std::to_string(v.size() - kTableIssues) + " more (see --json)\n";
}

// Unsupported pipelines share a handful of reasons: one line per reason.
void list_unsupported(std::string& o, const std::vector<PipelineIssue>& v) {
  if (v.empty()) return;
  std::map<std::string, std::vector<const PipelineIssue*>> by_reason;
  for (const auto& i : v) by_reason[i.reason].push_back(&i);
  o += "skipped, unsupported by the device (" + std::to_string(v.size()) + "):\n";
  for (const auto& [reason, list] : by_reason) {
    o.append("  ").append(std::to_string(list.size())).append(list.size() == 1 ? " pipeline: " : " pipelines: ");
    o.append(reason).append("\n   ");
    for (std::size_t k = 0; k < list.size() && k < 8; ++k)
      o.append(" ").append(pipeline_type_name(list[k]->type)).append(":").append(hash_hex(list[k]->hash));
    if (list.size() > 8) o += " ...";
    o += "\n";
  }
}

void put_issues(libtrace::detail::JsonReport& report, const char* key, const std::vector<PipelineIssue>& v) {
  report.objects(key, v, [&](const PipelineIssue& i) {
    report.members("type", pipeline_type_name(i.type), "hash", hash_hex(i.hash), "index", i.index, "outcome",
                   outcome_name(i.outcome));
    if (i.signal) report.text("signal", detail::signal_name(i.signal));
    report.text("reason", i.reason);
  });
}

void put_strings(libtrace::detail::JsonReport& report, const char* key, const std::vector<std::string>& v) {
  report.array(key, v, [&](const std::string& s) { report.text(s); });
}

}  // namespace

std::string_view compile_required_name(CompileRequired c) {
  switch (c) {
    case CompileRequired::compile: return "compile";
    case CompileRequired::count: return "count";
    case CompileRequired::skip: return "skip";
  }
  return "?";
}

std::uint64_t ReplayResult::total() const {
  std::uint64_t n = 0;
  for (const auto& c : counts) n += c.total;
  return n;
}

std::uint64_t ReplayResult::ok() const {
  std::uint64_t n = 0;
  for (const auto& c : counts) n += c.ok;
  return n;
}

// The rate of the pipelines attempted, whatever came of them: an
// interrupted run or one of failures still shows how fast it went.
double ReplayResult::pipelines_per_second() const {
  std::uint64_t attempted = 0;
  for (const auto& c : counts) attempted += c.ok + c.failed;
  return seconds > 0 ? static_cast<double>(attempted) / seconds : 0;
}

int replay_exit_status(const ReplayResult& r) {
  if (r.interrupted) return kExitInterrupted;
  if (!r.faulty.empty()) return kExitCrashed;
  for (const auto& c : r.counts)
    if (c.failed) return kExitFailed;
  return 0;
}

std::string report_table(const ReplayResult& r) {
  std::string o;
  o += "device      " + r.device + (r.driver.empty() ? "" : " (" + r.driver + ")") + "\n";
  o += "archives    ";
  for (std::size_t i = 0; i < r.inputs.size(); ++i) o += (i ? " " : "") + r.inputs[i];
  o += "\n";
  if (r.in_process) {
    o += "workers     " + std::to_string(r.jobs) + " threads of this process\n";
  } else {
    const unsigned per = std::max(1u, r.threads_per_worker);
    const unsigned processes = (r.jobs + per - 1) / per;
    o += "workers     " + std::to_string(r.jobs) + (r.jobs == 1 ? " thread in " : " threads in ") +
         std::to_string(processes) + (processes == 1 ? " process, " : " processes, ") +
         std::to_string(r.workers_started) + " started\n";
  }
  if (r.shard.count > 1)
    o += "shard       " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) +
         (r.shard_source.empty() ? "" : " (" + r.shard_source + ")") + "\n";
  if (r.loop > 1) o += "passes      " + std::to_string(r.loop) + " (each pipeline counted once per pass)\n";
  o += "\n";
  appendf(o, "%-12s %9s %9s %9s %9s\n", "type", "total", "ok", "failed", "skipped");
  for (std::size_t t = 0; t < kPipelineTypes; ++t) {
    const TypeCounts& c = r.counts[t];
    appendf(o, "%-12s %9llu %9llu %9llu %9llu\n", std::string(pipeline_type_name(static_cast<PipelineType>(t))).c_str(),
            static_cast<unsigned long long>(c.total), static_cast<unsigned long long>(c.ok),
            static_cast<unsigned long long>(c.failed), static_cast<unsigned long long>(c.skipped));
  }
  TypeCounts sum;
  for (const auto& c : r.counts) {
    sum.crashed += c.crashed, sum.timed_out += c.timed_out, sum.unsupported += c.unsupported;
    sum.already_done += c.already_done, sum.not_run += c.not_run, sum.cache_misses += c.cache_misses;
    sum.total += c.total;
  }
  o += "\n";
  if (!r.pipeline_stats.empty())
    o += "statistics  " + std::to_string(r.pipeline_stats_lines) + " pipelines in " + r.pipeline_stats + "\n";
  if (r.compile_required != CompileRequired::compile)
    o += "cache       " + std::to_string(sum.cache_misses) + " of " + std::to_string(sum.total) +
         " pipelines were not in the pipeline cache (VK_PIPELINE_COMPILE_REQUIRED): " +
         (r.compile_required == CompileRequired::skip ? "left out\n" : "compiled after all\n");
  if (sum.crashed || sum.timed_out)
    o += "failed includes " + std::to_string(sum.crashed) + " crashed, " + std::to_string(sum.timed_out) + " hung\n";
  if (sum.unsupported || sum.already_done || sum.not_run)
    o += "skipped: " + std::to_string(sum.unsupported) + " unsupported, " + std::to_string(sum.already_done) +
         " already done, " + std::to_string(sum.not_run) + " not run\n";
  appendf(o, "time        %.3f s, %.0f pipelines/s\n", r.seconds, r.pipelines_per_second());
  o += "peak RSS    " + libtrace::detail::human_bytes(r.peak_rss_parent) + " parent, " +
       libtrace::detail::human_bytes(r.peak_rss_worker) + (r.in_process ? "" : " largest worker") + "\n";
  if (!r.pipeline_cache.empty())
    o += "cache       " + r.pipeline_cache + " (" + libtrace::detail::human_bytes(r.pipeline_cache_bytes) + ")\n";
  if (r.lost_from_cache)
    o += "redone      " + std::to_string(r.lost_from_cache) +
         " pipelines whose worker crashed before saving its cache\n";
  if (!r.missing_features.empty()) {
    o += "device lacks what the archive's application enabled:";
    for (const auto& f : r.missing_features) o += " " + f;
    o += "\n";
  }
  if (r.interrupted) o += "interrupted: the pipelines not run are counted as skipped\n";
  const std::string first = r.inputs.empty() ? "ARCHIVE" : r.inputs.front();
  if (!r.faulty.empty() || !r.failed.empty() || !r.unsupported.empty()) o += "\n";
  list_issues(o, "crashed or hung the driver", r.faulty, true, first);
  list_issues(o, "failed", r.failed, false, first);
  list_unsupported(o, r.unsupported);
  if (r.issues_dropped) o.append("(").append(std::to_string(r.issues_dropped)).append(" more issues not listed)\n");
  return o;
}

std::string report_json(const ReplayResult& r) {
  libtrace::detail::JsonReport report;
  report.object([&] {
    report.members("device", r.device, "driver", r.driver, "vendor_id", r.vendor_id, "device_id", r.device_id,
                   "api_version", vk::version_string(r.api_version), "null_device", r.null_device);
    put_strings(report, "inputs", r.inputs);
    report.u64("jobs", r.jobs);
    report.boolean("in_process", r.in_process);
    report.u64("threads_per_worker", r.threads_per_worker);
    report.object("shard", [&] {
      report.u64("index", r.shard.index);
      report.u64("count", r.shard.count);
      if (r.shard_source.empty())
        report.null("from");
      else
        report.text("from", r.shard_source);
    });
    report.u64("loop", r.loop);
    report.text("compile_required", compile_required_name(r.compile_required));
    if (r.pipeline_stats.empty())
      report.null("pipeline_stats");
    else
      report.text("pipeline_stats", r.pipeline_stats);
    report.u64("pipeline_stats_lines", r.pipeline_stats_lines);
    for (std::size_t t = 0; t < kPipelineTypes; ++t) {
      const TypeCounts& c = r.counts[t];
      report.object(pipeline_type_name(static_cast<PipelineType>(t)), [&] {
        report.members("total", c.total, "ok", c.ok, "failed", c.failed, "skipped", c.skipped, "crashed", c.crashed,
                       "timed_out", c.timed_out, "unsupported", c.unsupported, "already_done", c.already_done,
                       "not_run", c.not_run, "cache_misses", c.cache_misses);
      });
    }
    report.members("seconds", r.seconds, "pipelines_per_second", r.pipelines_per_second(), "peak_rss_bytes",
                   std::max(r.peak_rss_parent, r.peak_rss_worker), "peak_rss_parent_bytes", r.peak_rss_parent,
                   "peak_rss_worker_bytes", r.peak_rss_worker, "workers_started", r.workers_started,
                   "redone_after_crash", r.lost_from_cache);
    if (r.pipeline_cache.empty())
      report.null("pipeline_cache");
    else
      report.object("pipeline_cache", [&] {
        report.text("path", r.pipeline_cache);
        report.u64("bytes", r.pipeline_cache_bytes);
      });
    report.u64("caches_loaded", r.caches_loaded);
    put_strings(report, "missing_features", r.missing_features);
    put_issues(report, "faulty", r.faulty);
    put_issues(report, "failed", r.failed);
    put_issues(report, "unsupported", r.unsupported);
    report.u64("issues_dropped", r.issues_dropped);
    put_strings(report, "warnings", r.warnings);
    report.boolean("interrupted", r.interrupted);
  });
  return report.finish();
}

}  // namespace libtrace::foz
