// SPDX-License-Identifier: MIT
// The replay summary: a table for people, JSON for machines, and the exit
// status that sums it up.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <map>

#include "core/report.hpp"
#include "core/text_util.hpp"
#include "libtrace/replay/foz/replay.hpp"
#include "libtrace/vk/device.hpp"
#include "replay/foz/pool.hpp"

namespace libtrace::foz {

namespace {

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

template <typename W>
void put_issues(W& w, const char* key, const std::vector<PipelineIssue>& v) {
  w.Key(key);
  w.StartArray();
  for (const auto& i : v) {
    w.StartObject();
    w.Key("type");
    w.String(std::string(pipeline_type_name(i.type)).c_str());
    w.Key("hash");
    w.String(hash_hex(i.hash).c_str());
    w.Key("index");
    w.Uint64(i.index);
    w.Key("outcome");
    w.String(std::string(outcome_name(i.outcome)).c_str());
    if (i.signal) {
      w.Key("signal");
      w.String(detail::signal_name(i.signal).c_str());
    }
    w.Key("reason");
    w.String(i.reason.c_str(), static_cast<rapidjson::SizeType>(i.reason.size()));
    w.EndObject();
  }
  w.EndArray();
}

template <typename W>
void put_strings(W& w, const char* key, const std::vector<std::string>& v) {
  w.Key(key);
  w.StartArray();
  for (const auto& s : v) w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
  w.EndArray();
}

}  // namespace

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

std::string format_table(const ReplayResult& r) {
  std::string o;
  char line[256];
  o += "device      " + r.device + (r.driver.empty() ? "" : " (" + r.driver + ")") + "\n";
  o += "archives    ";
  for (std::size_t i = 0; i < r.inputs.size(); ++i) o += (i ? " " : "") + r.inputs[i];
  o += "\n";
  o += "workers     " + std::to_string(r.jobs) + (r.in_process ? " threads" : " processes") + ", " +
       std::to_string(r.workers_started) + " started\n";
  if (r.shard.count > 1)
    o += "shard       " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) +
         (r.shard_source.empty() ? "" : " (" + r.shard_source + ")") + "\n";
  if (r.loop > 1) o += "passes      " + std::to_string(r.loop) + " (each pipeline counted once per pass)\n";
  o += "\n";
  std::snprintf(line, sizeof line, "%-12s %9s %9s %9s %9s\n", "type", "total", "ok", "failed", "skipped");
  o += line;
  for (std::size_t t = 0; t < kPipelineTypes; ++t) {
    const TypeCounts& c = r.counts[t];
    std::snprintf(line, sizeof line, "%-12s %9llu %9llu %9llu %9llu\n",
                  std::string(pipeline_type_name(static_cast<PipelineType>(t))).c_str(),
                  static_cast<unsigned long long>(c.total), static_cast<unsigned long long>(c.ok),
                  static_cast<unsigned long long>(c.failed), static_cast<unsigned long long>(c.skipped));
    o += line;
  }
  TypeCounts sum;
  for (const auto& c : r.counts) {
    sum.crashed += c.crashed, sum.timed_out += c.timed_out, sum.unsupported += c.unsupported;
    sum.already_done += c.already_done, sum.not_run += c.not_run;
  }
  o += "\n";
  if (sum.crashed || sum.timed_out)
    o += "failed includes " + std::to_string(sum.crashed) + " crashed, " + std::to_string(sum.timed_out) + " hung\n";
  if (sum.unsupported || sum.already_done || sum.not_run)
    o += "skipped: " + std::to_string(sum.unsupported) + " unsupported, " + std::to_string(sum.already_done) +
         " already done, " + std::to_string(sum.not_run) + " not run\n";
  std::snprintf(line, sizeof line, "time        %.3f s, %.0f pipelines/s\n", r.seconds, r.pipelines_per_second());
  o += line;
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

std::string format_json(const ReplayResult& r) {
  libtrace::detail::JsonReport report;
  auto& w = report.writer();
  w.StartObject();
  w.Key("device");
  w.String(r.device.c_str());
  w.Key("driver");
  w.String(r.driver.c_str());
  w.Key("vendor_id");
  w.Uint(r.vendor_id);
  w.Key("device_id");
  w.Uint(r.device_id);
  w.Key("api_version");
  w.String(vk::version_string(r.api_version).c_str());
  w.Key("null_device");
  w.Bool(r.null_device);
  put_strings(w, "inputs", r.inputs);
  w.Key("jobs");
  w.Uint(r.jobs);
  w.Key("in_process");
  w.Bool(r.in_process);
  w.Key("shard");
  w.StartObject();
  w.Key("index");
  w.Uint64(r.shard.index);
  w.Key("count");
  w.Uint64(r.shard.count);
  w.Key("from");
  if (r.shard_source.empty())
    w.Null();
  else
    w.String(r.shard_source.c_str(), static_cast<rapidjson::SizeType>(r.shard_source.size()));
  w.EndObject();
  w.Key("loop");
  w.Uint(r.loop);
  for (std::size_t t = 0; t < kPipelineTypes; ++t) {
    const TypeCounts& c = r.counts[t];
    w.Key(std::string(pipeline_type_name(static_cast<PipelineType>(t))).c_str());
    w.StartObject();
    const std::pair<const char*, std::uint64_t> fields[] = {
        {"total", c.total},
        {"ok", c.ok},
        {"failed", c.failed},
        {"skipped", c.skipped},
        {"crashed", c.crashed},
        {"timed_out", c.timed_out},
        {"unsupported", c.unsupported},
        {"already_done", c.already_done},
        {"not_run", c.not_run},
    };
    for (const auto& [k, v] : fields) {
      w.Key(k);
      w.Uint64(v);
    }
    w.EndObject();
  }
  w.Key("seconds");
  w.Double(r.seconds);
  w.Key("pipelines_per_second");
  w.Double(r.pipelines_per_second());
  w.Key("peak_rss_bytes");
  w.Uint64(std::max(r.peak_rss_parent, r.peak_rss_worker));
  w.Key("peak_rss_parent_bytes");
  w.Uint64(r.peak_rss_parent);
  w.Key("peak_rss_worker_bytes");
  w.Uint64(r.peak_rss_worker);
  w.Key("workers_started");
  w.Uint64(r.workers_started);
  w.Key("redone_after_crash");
  w.Uint64(r.lost_from_cache);
  w.Key("pipeline_cache");
  if (r.pipeline_cache.empty()) {
    w.Null();
  } else {
    w.StartObject();
    w.Key("path");
    w.String(r.pipeline_cache.c_str());
    w.Key("bytes");
    w.Uint64(r.pipeline_cache_bytes);
    w.EndObject();
  }
  w.Key("caches_loaded");
  w.Uint(r.caches_loaded);
  put_strings(w, "missing_features", r.missing_features);
  put_issues(w, "faulty", r.faulty);
  put_issues(w, "failed", r.failed);
  put_issues(w, "unsupported", r.unsupported);
  w.Key("issues_dropped");
  w.Uint64(r.issues_dropped);
  put_strings(w, "warnings", r.warnings);
  w.Key("interrupted");
  w.Bool(r.interrupted);
  w.EndObject();
  return report.finish();
}

}  // namespace libtrace::foz
