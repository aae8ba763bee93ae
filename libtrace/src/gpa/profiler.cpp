// SPDX-License-Identifier: MIT
#include "gpa/profiler.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

#include "gpa/counters.hpp"
#include "layer/layer.hpp"
#include "libtrace/gpa/layer.hpp"

namespace libtrace::gpa {

ProfileOptions profile_options_from_environment() {
  ProfileOptions o;
  o.dir = layer::env("TRAK_GPA_PROFILE");
  const std::string per = layer::env("TRAK_GPA_PER");
  if (per == "render-pass") o.per = ProfileOptions::render_pass;
  if (per == "draw") o.per = ProfileOptions::draw;
  std::string list = layer::env("TRAK_GPA_COUNTERS");
  if (list.empty()) list = kDefaultCounters;
  if (list == "none") list.clear();  // GPU times only
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string_view name = std::string_view(list).substr(at, comma - at);
    at = comma + 1;
    if (name.empty()) continue;
    const Counter* c = find_counter(name);
    if (!c)
      layer::log_once(kLayerName, "unknown counter \"" + std::string(name) + "\" in TRAK_GPA_COUNTERS left out",
                      "not one of the counters the layer samples (trak-gpa info lists them)");
    else if (std::find(o.events.begin(), o.events.end(), c->event) == o.events.end())
      o.events.push_back(c->event);
  }
  return o;
}

bool ExtensionEntryPoints::complete() const {
  return create && destroy && begin_session && end_session && begin_sample && end_sample && status && results && reset;
}

Profiler::Profiler(VkDevice device, ExtensionEntryPoints fns, ProfileOptions opt, RowsFile rows, float timestamp_period,
                   bool application_samples)
    : device_(device), fns_(fns), opt_(std::move(opt)), period_(timestamp_period), out_(std::move(rows)) {
  // Statistics queries cannot nest in a command buffer: an application that
  // samples counters itself keeps them, the profiler keeps to timestamps.
  if (application_samples && !opt_.events.empty()) {
    layer::log_once(kLayerName, "counters left to the application",
                    "it uses VK_AMD_gpa_interface itself; the profile has GPU times only");
    opt_.events.clear();
  }
  std::string header = "frame,command_buffer,scope,gpu_ns";
  for (std::uint32_t e : opt_.events) header += std::string(",") + find_counter(e)->name;
  out_.write(header + "\n");
}

Profiler::~Profiler() {
  if (!out_.owned_here()) return;
  const std::lock_guard lock(mu_);
  for (auto& [cb, r] : recordings_) {
    if (r.pending) collect(r, true);
    if (r.session) fns_.destroy(device_, r.session, nullptr);
  }
  out_.write("# cpu_ns=" + std::to_string(cpu_ns_.load()) + " frames=" + std::to_string(frame_ - 1) + "\n");
}

void Profiler::allocated(const VkCommandBufferAllocateInfo* info, const VkCommandBuffer* cbs) {
  if (info->level != VK_COMMAND_BUFFER_LEVEL_PRIMARY) return;  // their work counts where they are executed
  const std::lock_guard lock(mu_);
  for (std::uint32_t i = 0; i < info->commandBufferCount; ++i) recordings_[cbs[i]];
}

void Profiler::freed(const VkCommandBuffer* cbs, std::uint32_t count) {
  const std::lock_guard lock(mu_);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto it = recordings_.find(cbs[i]);
    if (it == recordings_.end()) continue;
    if (it->second.pending) collect(it->second, true);
    if (it->second.session) fns_.destroy(device_, it->second.session, nullptr);
    recordings_.erase(it);
  }
}

void Profiler::begin_sample(VkCommandBuffer cb, Recording& r, std::string scope) {
  Sample s;
  s.scope = std::move(scope);
  VkGpaSampleBeginInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  info.sampleType = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
  info.timingPreSample = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
  info.timingPostSample = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
  if (fns_.begin_sample(cb, r.session, &info, &s.timing) != VK_SUCCESS) return;
  if (!opt_.events.empty()) {
    std::vector<VkGpaPerfCounterAMD> counters;
    for (std::uint32_t e : opt_.events) counters.push_back({kStatsBlock, 0, e});
    info.sampleType = VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD;
    info.perfCounterCount = static_cast<std::uint32_t>(counters.size());
    info.pPerfCounters = counters.data();
    if (fns_.begin_sample(cb, r.session, &info, &s.cumulative) != VK_SUCCESS) s.cumulative = UINT32_MAX;
  }
  r.samples.push_back(std::move(s));
  r.open = true;
}

void Profiler::end_sample(VkCommandBuffer cb, Recording& r) {
  if (!r.open) return;
  const Sample& s = r.samples.back();
  if (s.cumulative != UINT32_MAX) fns_.end_sample(cb, r.session, s.cumulative);
  fns_.end_sample(cb, r.session, s.timing);
  r.open = false;
}

void Profiler::began(VkCommandBuffer cb) {
  const std::lock_guard lock(mu_);
  const auto it = recordings_.find(cb);
  if (it == recordings_.end() || !out_.open()) return;
  Recording& r = it->second;
  // Recording again: the previous submission is over (Vulkan requires it).
  if (r.pending) collect(r, true);
  r.submitted = false;
  if (!r.session) {
    VkGpaSessionCreateInfoAMD ci{};
    ci.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
    if (fns_.create(device_, &ci, nullptr, &r.session) != VK_SUCCESS) return;
    r.number = next_number_++;
  } else {
    fns_.reset(device_, r.session);
  }
  r.samples.clear();
  r.render_passes = r.draws = 0;
  r.recorded = false;
  fns_.begin_session(cb, r.session);
  if (opt_.per == ProfileOptions::command_buffer) begin_sample(cb, r, "command buffer");
}

void Profiler::ending(VkCommandBuffer cb) {
  const std::lock_guard lock(mu_);
  const auto it = recordings_.find(cb);
  if (it == recordings_.end() || !it->second.session) return;
  Recording& r = it->second;
  end_sample(cb, r);
  fns_.end_session(cb, r.session);
  r.recorded = true;
}

void Profiler::render_pass_began(VkCommandBuffer cb) {
  if (opt_.per != ProfileOptions::render_pass) return;
  const std::lock_guard lock(mu_);
  const auto it = recordings_.find(cb);
  if (it == recordings_.end() || !it->second.session) return;
  begin_sample(cb, it->second, "render pass " + std::to_string(it->second.render_passes++));
}

void Profiler::render_pass_ending(VkCommandBuffer cb) {
  if (opt_.per != ProfileOptions::render_pass) return;
  const std::lock_guard lock(mu_);
  const auto it = recordings_.find(cb);
  if (it != recordings_.end() && it->second.session) end_sample(cb, it->second);
}

void Profiler::draw_before(VkCommandBuffer cb) {
  if (opt_.per != ProfileOptions::draw) return;
  const std::lock_guard lock(mu_);
  const auto it = recordings_.find(cb);
  if (it == recordings_.end() || !it->second.session) return;
  begin_sample(cb, it->second, "draw " + std::to_string(it->second.draws++));
}

void Profiler::draw_after(VkCommandBuffer cb) {
  if (opt_.per != ProfileOptions::draw) return;
  const std::lock_guard lock(mu_);
  const auto it = recordings_.find(cb);
  if (it != recordings_.end() && it->second.session) end_sample(cb, it->second);
}

void Profiler::submitting(const VkCommandBuffer* cbs, std::uint32_t count) {
  const std::lock_guard lock(mu_);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto it = recordings_.find(cbs[i]);
    if (it == recordings_.end() || !it->second.recorded) continue;
    Recording& r = it->second;
    // Submitted again without being recorded again (vkcube submits one
    // recording per swapchain image, frame after frame): its last results
    // first, whether or not a present read them already, then its queries
    // are reset for this run. Queries written twice without a reset are
    // invalid Vulkan, and the validation layer blames the application's
    // command buffer for them.
    if (r.submitted) {
      if (r.pending) collect(r, true);
      fns_.reset(device_, r.session);
    }
    r.submitted = true;
    r.pending = true;
    r.frame = frame_;
  }
}

void Profiler::presented() {
  const std::lock_guard lock(mu_);
  ++frame_;
  for (auto& [cb, r] : recordings_)
    if (r.pending) collect(r, false);
}

bool Profiler::collect(Recording& r, bool wait) {
  // Waiting is bounded: a submission the application never let finish must
  // not hang it.
  for (int tries = 0; fns_.status(device_, r.session) != VK_SUCCESS; ++tries) {
    if (!wait || tries >= 2000) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  r.pending = false;
  if (!out_.open()) return true;
  // The rows of one recording go to the file in one write.
  std::string rows;
  std::vector<std::uint64_t> values(opt_.events.size());
  for (const Sample& s : r.samples) {
    std::uint64_t ts[2] = {};
    std::size_t size = sizeof ts;
    if (fns_.results(device_, r.session, s.timing, &size, ts) != VK_SUCCESS) continue;
    char head[64];
    std::snprintf(head, sizeof head, "%llu,%u,", static_cast<unsigned long long>(r.frame), r.number);
    char ns[32];
    std::snprintf(ns, sizeof ns, ",%.0f", static_cast<double>(ts[1] - ts[0]) * period_);
    rows += head + s.scope + ns;
    size = values.size() * sizeof(std::uint64_t);
    const bool counted = s.cumulative != UINT32_MAX &&
                         fns_.results(device_, r.session, s.cumulative, &size, values.data()) == VK_SUCCESS;
    for (const std::uint64_t v : values) rows += counted ? "," + std::to_string(v) : std::string(",");
    rows += '\n';
  }
  out_.write(rows);
  return true;
}

}  // namespace libtrace::gpa
