// SPDX-License-Identifier: MIT
// gpa_client's checks of samples: the main command buffer, refusals, results,
// secondary command buffers with copied sessions, and a session spanning two
// command buffers.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <thread>

#include "gpa_client.hpp"

namespace test_apps::gpa_client {
namespace {

VkGpaSampleBeginInfoAMD timing_info() {
  VkGpaSampleBeginInfoAMD s = sample_info(VK_GPA_SAMPLE_TYPE_TIMING_AMD);
  s.timingPreSample = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
  s.timingPostSample = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
  return s;
}

const std::vector<VkGpaPerfCounterAMD> kDispatchCounters = {counter(kCsInvocations), counter(kIaVertices)};
const std::vector<VkGpaPerfCounterAMD> kDrawCounters = {counter(kIaVertices), counter(kVsInvocations),
                                                        counter(kCsInvocations), counter(kIaPrimitives)};

// Binds the compute pipeline and its counter buffer in |cb|.
void bind_compute(const Context& c, const Work& w, VkCommandBuffer cb) {
  c.vk().vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, w.compute.get());
  c.vk().vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, w.layout.get(), 0, 1, &w.storage.set, 0, nullptr);
}

// A CUMULATIVE sample of cs_invocations around a dispatch of |groups|; its
// id, or ~0u when refused.
std::uint32_t counted_dispatch(const Context& c, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s,
                               const VkDispatchIndirectCommand& groups, const std::string& what) {
  const std::vector<VkGpaPerfCounterAMD> cs = {counter(kCsInvocations)};
  const std::uint32_t id = begin_sample(c, checks, cb, s, cumulative_info(cs), "CUMULATIVE, " + what);
  c.vk().vkCmdDispatch(cb, groups.x, groups.y, groups.z);
  if (id != ~0u) c.gpa.CmdEndGpaSample(cb, s, id);
  return id;
}

// Ends the TIMING sample |timing| (unless it was refused), the session and
// the command buffer.
void end_timed(const Context& c, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s, std::uint32_t timing,
               const std::string& what) {
  if (timing != ~0u) c.gpa.CmdEndGpaSample(cb, s, timing);
  checks.eq("vkCmdEndGpaSessionAMD (" + what + ")", c.gpa.CmdEndGpaSession(cb, s), VK_SUCCESS);
  APP_CHECK(c.vk().vkEndCommandBuffer(cb));
}

// Reads one sample's results: the size with pData NULL (which must be
// |values| uint64), then the data. Empty when either call fails.
std::vector<std::uint64_t> read_results(const Context& c, Checks& checks, VkGpaSessionAMD s, std::uint32_t id,
                                        std::size_t values, const std::string& what) {
  std::size_t size = 12345;
  const VkResult r = c.gpa.GetGpaSessionResults(c.dev(), s, id, &size, nullptr);
  if (!checks.eq("vkGetGpaSessionResultsAMD size query (" + what + ")", r, VK_SUCCESS)) return {};
  if (!checks.eq("result size in bytes (" + what + ")", size, values * sizeof(std::uint64_t))) return {};
  std::vector<std::uint64_t> out(values + 1, 0x5a5a5a5a5a5a5a5aull);  // one guard value after
  const VkResult r2 = c.gpa.GetGpaSessionResults(c.dev(), s, id, &size, out.data());
  if (!checks.eq("vkGetGpaSessionResultsAMD (" + what + ")", r2, VK_SUCCESS)) return {};
  checks.eq("size after reading (" + what + ")", size, values * sizeof(std::uint64_t));
  checks.eq("guard after the results untouched (" + what + ")", out.back(), std::uint64_t{0x5a5a5a5a5a5a5a5aull});
  out.pop_back();
  return out;
}

// Check 3's too-small read: 8 bytes less than the results. The call must not
// succeed, and must write nothing past the size given.
void read_too_small(const Context& c, Checks& checks, VkGpaSessionAMD s, std::uint32_t id, std::size_t values,
                    const std::string& what) {
  const std::size_t full = values * sizeof(std::uint64_t);
  const std::size_t small = full - sizeof(std::uint64_t);
  std::vector<unsigned char> buffer(full + 16, 0xa5);
  std::size_t size = small;
  const VkResult r = c.gpa.GetGpaSessionResults(c.dev(), s, id, &size, buffer.data());
  checks.expect(r == VK_INCOMPLETE || r < 0,
                "vkGetGpaSessionResultsAMD with " + std::to_string(small) + " of " + std::to_string(full) + " bytes (" +
                    what + ")",
                text(r), "VK_INCOMPLETE or an error");
  std::size_t written_past = 0;
  for (std::size_t i = small; i < buffer.size(); ++i)
    if (buffer[i] != 0xa5) ++written_past;
  checks.eq("bytes written past the " + std::to_string(small) + " given (" + what + ")", written_past, std::size_t{0});
  std::size_t written = 0;
  for (std::size_t i = 0; i < small; ++i)
    if (buffer[i] != 0xa5) ++written;
  info("too-small read (%s): %s, *pSizeInBytes %zu after, %zu of the %zu bytes given written", what.c_str(),
       text(r).c_str(), size, written, small);
}

double ns(std::uint64_t ticks, const Context& c) {
  return static_cast<double>(ticks) * static_cast<double>(c.properties.limits.timestampPeriod);
}

struct Timing {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// A TIMING sample's pair: end >= begin, both within the client's own pair.
Timing check_timing(const Context& c, Checks& checks, const std::vector<std::uint64_t>& v, const Timing& own,
                    const std::string& what) {
  if (v.size() != 2) return {};
  const Timing t{v[0], v[1]};
  checks.expect(t.end >= t.begin, "TIMING end >= begin (" + what + ")",
                "begin " + std::to_string(t.begin) + ", end " + std::to_string(t.end), "end >= begin");
  checks.expect(t.begin >= own.begin && t.end <= own.end, "TIMING within the client's own timestamps (" + what + ")",
                "[" + std::to_string(t.begin) + ", " + std::to_string(t.end) + "]",
                "within [" + std::to_string(own.begin) + ", " + std::to_string(own.end) + "]");
  info("TIMING %s: begin %" PRIu64 ", end %" PRIu64 " ticks: %.0f ns (begins %.0f ns after the client's own)",
       what.c_str(), t.begin, t.end, ns(t.end - t.begin, c), ns(t.begin - own.begin, c));
  return t;
}

Timing own_timestamps(const Context& c, const Work& w) {
  std::uint64_t v[2] = {};
  APP_CHECK(c.vk().vkGetQueryPoolResults(c.dev(), w.timestamps.get(), 0, 2, sizeof v, v, sizeof(std::uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  return {v[0], v[1]};
}

}  // namespace

std::uint32_t begin_sample(const Context& c, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s,
                           const VkGpaSampleBeginInfoAMD& bi, const std::string& what) {
  std::uint32_t id = ~0u;
  const VkResult r = c.gpa.CmdBeginGpaSample(cb, s, &bi, &id);
  if (!checks.eq("vkCmdBeginGpaSampleAMD (" + what + ")", r, VK_SUCCESS)) return ~0u;
  return id;
}

// What every sample of the client asks for, as GPUPerfAPI fills it.
VkGpaSampleBeginInfoAMD sample_info(VkGpaSampleTypeAMD type, const std::vector<VkGpaPerfCounterAMD>& counters) {
  VkGpaSampleBeginInfoAMD s{};
  s.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  s.sampleType = type;
  s.cacheFlushOnCounterCollection = VK_TRUE;
  s.perfCounterCount = static_cast<std::uint32_t>(counters.size());
  s.pPerfCounters = counters.empty() ? nullptr : counters.data();
  s.sqThreadTraceSuppressInstructionTokens = VK_TRUE;
  return s;
}

// A counter pass's begin info (capture_replay_gpa.md 3.4).
VkGpaSampleBeginInfoAMD cumulative_info(const std::vector<VkGpaPerfCounterAMD>& counters) {
  VkGpaSampleBeginInfoAMD s = sample_info(VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD, counters);
  s.sqShaderMaskEnable = VK_TRUE;
  s.sqShaderMask = 0x7f;  // every stage
  return s;
}

VkGpaPerfCounterAMD counter(std::uint32_t event) { return {kBlock, 0, event}; }

// Check 4: samples the extension must refuse, recorded into |cb| within
// session |s|. A refused call must record nothing: where |cb| is submitted
// afterwards, the samples around still give their values.
void record_refusals(const Context& c, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s,
                     const std::string& where) {
  const auto refused = [&](const VkGpaSampleBeginInfoAMD& bi, const std::string& what) {
    std::uint32_t id = 0xfeedu;
    const VkResult r = c.gpa.CmdBeginGpaSample(cb, s, &bi, &id);
    checks.eq("vkCmdBeginGpaSampleAMD (" + what + ", " + where + ")", r, VK_ERROR_FEATURE_NOT_PRESENT);
    if (id != 0xfeedu) info("refused %s (%s) wrote sample id %u", what.c_str(), where.c_str(), id);
  };
  const std::vector<VkGpaPerfCounterAMD> streaming = {counter(kCsInvocations)};
  VkGpaSampleBeginInfoAMD trace = sample_info(VK_GPA_SAMPLE_TYPE_TRACE_AMD, streaming);
  trace.streamingPerfTraceSampleInterval = 4096;
  trace.perfCounterDeviceMemoryLimit = 1 << 20;
  trace.sqThreadTraceEnable = VK_TRUE;
  refused(trace, "TRACE sample");
  const std::vector<VkGpaPerfCounterAMD> sq = {{VK_GPA_PERF_BLOCK_SQ_AMD, 0, 0}};
  refused(cumulative_info(sq), "CUMULATIVE, block SQ event 0");
  const std::vector<VkGpaPerfCounterAMD> event99 = {counter(99)};
  refused(cumulative_info(event99), "CUMULATIVE, GRBM event 99");
  const std::vector<VkGpaPerfCounterAMD> event11 = {counter(kMaxEvent + 1)};
  refused(cumulative_info(event11), "CUMULATIVE, GRBM event 11");
  const std::vector<VkGpaPerfCounterAMD> instance1 = {{kBlock, 1, kCsInvocations}};
  refused(cumulative_info(instance1), "CUMULATIVE, GRBM instance 1");
  const std::vector<VkGpaPerfCounterAMD> mixed = {counter(kCsInvocations), {VK_GPA_PERF_BLOCK_SQ_AMD, 0, 0}};
  refused(cumulative_info(mixed), "CUMULATIVE, GRBM cs_invocations then SQ event 0");
}

// Check 2: the main command buffer. Own timestamp 0; the session begins; a
// TIMING sample around a CUMULATIVE one around vkCmdDispatch(4, 2, 1); a
// render pass with a CUMULATIVE sample around a TIMING one around
// vkCmdDraw(300, 1, 0, 0); the session ends; own timestamp 1. With
// |refusals|, the refused samples of check 4 are recorded in it too.
MainIds record_main(const Context& c, const Work& w, Checks& checks, VkCommandBuffer cb, VkGpaSessionAMD s,
                    bool refusals, const std::string& run) {
  const VolkDeviceTable& vk = c.vk();
  MainIds ids;
  begin_primary(c, cb);
  vk.vkCmdResetQueryPool(cb, w.timestamps.get(), 0, 2);
  vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, w.timestamps.get(), 0);
  checks.eq("vkCmdBeginGpaSessionAMD (" + run + ")", c.gpa.CmdBeginGpaSession(cb, s), VK_SUCCESS);
  if (refusals) record_refusals(c, checks, cb, s, run + ", before the dispatch");

  bind_compute(c, w, cb);
  ids.dispatch_timing = begin_sample(c, checks, cb, s, timing_info(), "TIMING around the dispatch, " + run);
  ids.dispatch_counters =
      begin_sample(c, checks, cb, s, cumulative_info(kDispatchCounters), "CUMULATIVE around the dispatch, " + run);
  vk.vkCmdDispatch(cb, 4, 2, 1);
  if (ids.dispatch_counters != ~0u) c.gpa.CmdEndGpaSample(cb, s, ids.dispatch_counters);
  if (ids.dispatch_timing != ~0u) c.gpa.CmdEndGpaSample(cb, s, ids.dispatch_timing);

  VkClearValue clear{};
  clear.color = {{0.0f, 0.0f, 0.0f, 1.0f}};
  VkRenderPassBeginInfo rpbi{};
  rpbi.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  rpbi.renderPass = w.render_pass.get();
  rpbi.framebuffer = w.framebuffer.get();
  rpbi.renderArea = {{0, 0}, {kImageSize, kImageSize}};
  rpbi.clearValueCount = 1;
  rpbi.pClearValues = &clear;
  vk.vkCmdBeginRenderPass(cb, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, w.graphics.get());
  if (refusals) record_refusals(c, checks, cb, s, run + ", in the render pass");
  ids.draw_counters =
      begin_sample(c, checks, cb, s, cumulative_info(kDrawCounters), "CUMULATIVE around the draw, " + run);
  ids.draw_timing = begin_sample(c, checks, cb, s, timing_info(), "TIMING around the draw, " + run);
  vk.vkCmdDraw(cb, kDrawVertices, 1, 0, 0);
  if (ids.draw_timing != ~0u) c.gpa.CmdEndGpaSample(cb, s, ids.draw_timing);
  if (ids.draw_counters != ~0u) c.gpa.CmdEndGpaSample(cb, s, ids.draw_counters);
  vk.vkCmdEndRenderPass(cb);

  checks.eq("vkCmdEndGpaSessionAMD (" + run + ")", c.gpa.CmdEndGpaSession(cb, s), VK_SUCCESS);
  vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w.timestamps.get(), 1);
  APP_CHECK(vk.vkEndCommandBuffer(cb));

  const std::vector<std::uint32_t> all = {ids.dispatch_timing, ids.dispatch_counters, ids.draw_counters,
                                          ids.draw_timing};
  std::vector<std::uint32_t> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  checks.expect(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), "sample ids distinct (" + run + ")",
                std::to_string(all[0]) + " " + std::to_string(all[1]) + " " + std::to_string(all[2]) + " " +
                    std::to_string(all[3]),
                "four distinct ids");
  info("%s: sample ids: dispatch TIMING %u, dispatch CUMULATIVE %u, draw CUMULATIVE %u, draw TIMING %u", run.c_str(),
       ids.dispatch_timing, ids.dispatch_counters, ids.draw_counters, ids.draw_timing);
  return ids;
}

// Submits |cb| with the fence, polls the sessions' status until all are
// VK_SUCCESS (or the timeout), calling |on_ready| with a session's index the
// first time it is, then waits for the fence, and checks the status again.
// Returns whether the fence signalled.
bool submit_and_wait(const Context& c, const Work& w, Checks& checks, VkCommandBuffer cb,
                     const std::vector<std::pair<VkGpaSessionAMD, std::string>>& sessions, const std::string& run,
                     const std::function<void(std::size_t)>& on_ready) {
  const VolkDeviceTable& vk = c.vk();
  const VkFence fence = w.fence.get();
  APP_CHECK(vk.vkResetFences(c.dev(), 1, &fence));
  VkSubmitInfo si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  const auto start = std::chrono::steady_clock::now();
  APP_CHECK(vk.vkQueueSubmit(c.queue, 1, &si, fence));

  struct Poll {
    VkResult r = VK_NOT_READY;
    int polls = 0;
    long long us = 0;
    bool fence_done = false;
  };
  std::vector<Poll> polls(sessions.size());
  const auto timeout = std::chrono::seconds(g_timeout_s);
  for (std::size_t ready = 0; ready < sessions.size() && std::chrono::steady_clock::now() - start < timeout;) {
    for (std::size_t i = 0; i < sessions.size(); ++i) {
      Poll& p = polls[i];
      if (p.r != VK_NOT_READY) continue;
      ++p.polls;
      p.r = c.gpa.GetGpaSessionStatus(c.dev(), sessions[i].first);
      if (p.r == VK_NOT_READY) continue;
      p.fence_done = vk.vkGetFenceStatus(c.dev(), fence) == VK_SUCCESS;
      p.us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
      if (p.r == VK_SUCCESS && on_ready) on_ready(i);
      ++ready;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    const Poll& p = polls[i];
    const std::string& name = sessions[i].second;
    checks.eq("vkGetGpaSessionStatusAMD polled up to " + std::to_string(g_timeout_s) + " s after the submit (" + name +
                  ", " + run + ")",
              p.r, VK_SUCCESS);
    info("%s: session %s: %s at poll %d, %lld us after the submit (the fence %s then)", run.c_str(), name.c_str(),
         result_name(p.r), p.polls, p.us, p.fence_done ? "signalled" : "not signalled yet");
  }
  const VkResult wait = vk.vkWaitForFences(c.dev(), 1, &fence, VK_TRUE, g_timeout_s * 1'000'000'000ull);
  if (!checks.eq("vkWaitForFences (" + run + ")", wait, VK_SUCCESS)) return false;
  for (const auto& [s, name] : sessions)
    checks.eq("vkGetGpaSessionStatusAMD after the fence (" + name + ", " + run + ")",
              c.gpa.GetGpaSessionStatus(c.dev(), s), VK_SUCCESS);
  return true;
}

// Checks 3: the results of one run of the main command buffer.
MainValues check_main_results(const Context& c, const Work& w, Checks& checks, VkGpaSessionAMD s, const MainIds& ids,
                              bool too_small, const std::string& run) {
  const Timing own = own_timestamps(c, w);
  info("%s: the client's own timestamps: %" PRIu64 " .. %" PRIu64 ": %.0f ns", run.c_str(), own.begin, own.end,
       ns(own.end - own.begin, c));
  checks.expect(own.end >= own.begin, "the client's own timestamps in order (" + run + ")",
                std::to_string(own.begin) + ", " + std::to_string(own.end), "end >= begin");

  MainValues v;
  const auto t_dispatch = read_results(c, checks, s, ids.dispatch_timing, 2, "dispatch TIMING, " + run);
  check_timing(c, checks, t_dispatch, own, "dispatch, " + run);
  v.dispatch = read_results(c, checks, s, ids.dispatch_counters, 2, "dispatch CUMULATIVE, " + run);
  if (v.dispatch.size() == 2) {
    checks.eq("dispatch cs_invocations (" + run + ")", v.dispatch[0], std::uint64_t{4 * 2 * 1 * kLocalSize});
    checks.eq("dispatch ia_vertices (" + run + ")", v.dispatch[1], std::uint64_t{0});
    info("%s: dispatch(4,2,1): cs_invocations %" PRIu64 ", ia_vertices %" PRIu64, run.c_str(), v.dispatch[0],
         v.dispatch[1]);
  }
  v.draw = read_results(c, checks, s, ids.draw_counters, 4, "draw CUMULATIVE, " + run);
  if (v.draw.size() == 4) {
    checks.eq("draw ia_vertices (" + run + ")", v.draw[0], std::uint64_t{kDrawVertices});
    checks.eq("draw vs_invocations (" + run + ")", v.draw[1], std::uint64_t{kDrawVertices});
    checks.eq("draw cs_invocations (" + run + ")", v.draw[2], std::uint64_t{0});
    checks.eq("draw ia_primitives (" + run + ")", v.draw[3], std::uint64_t{kDrawVertices / 3});
    info("%s: draw(300): ia_vertices %" PRIu64 ", vs_invocations %" PRIu64 ", cs_invocations %" PRIu64
         ", ia_primitives %" PRIu64,
         run.c_str(), v.draw[0], v.draw[1], v.draw[2], v.draw[3]);
  }
  const auto t_draw = read_results(c, checks, s, ids.draw_timing, 2, "draw TIMING, " + run);
  check_timing(c, checks, t_draw, own, "draw, " + run);
  if (too_small) {
    read_too_small(c, checks, s, ids.dispatch_timing, 2, "dispatch TIMING, " + run);
    read_too_small(c, checks, s, ids.draw_counters, 4, "draw CUMULATIVE, " + run);
  }
  checks.eq("compute invocations counted by the shader (" + run + ")", std::uint32_t{*w.counter_value},
            4 * 2 * 1 * kLocalSize);
  return v;
}

Session create_session(const Context& c, Checks& checks, VkGpaSessionAMD copy_source, const std::string& what) {
  VkGpaSessionCreateInfoAMD ci{};
  ci.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
  ci.secondaryCopySource = copy_source;
  VkGpaSessionAMD s = VK_NULL_HANDLE;
  checks.require("vkCreateGpaSessionAMD (" + what + ")", c.gpa.CreateGpaSession(c.dev(), &ci, nullptr, &s), VK_SUCCESS);
  checks.require("session handle not VK_NULL_HANDLE (" + what + ")", s != VK_NULL_HANDLE, true);
  return Session(c.gpa, c.dev(), s);
}

// Check 6b: one session begun in a command buffer and ended in the next, on
// one queue in one submission, as the extension allows: a TIMING sample that
// spans both, and a CUMULATIVE sample in the second.
void check_spanning(const Context& c, const Work& w, Checks& checks) {
  const VolkDeviceTable& vk = c.vk();
  Session s = create_session(c, checks, VK_NULL_HANDLE, "spanning two command buffers");
  const VkCommandBuffer first = allocate(c, w, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  const VkCommandBuffer second = allocate(c, w, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  begin_primary(c, first);
  checks.eq("vkCmdBeginGpaSessionAMD (spanning)", c.gpa.CmdBeginGpaSession(first, s.get()), VK_SUCCESS);
  const std::uint32_t timing = begin_sample(c, checks, first, s.get(), timing_info(), "TIMING, spanning");
  bind_compute(c, w, first);
  vk.vkCmdDispatch(first, 2, 2, 2);
  APP_CHECK(vk.vkEndCommandBuffer(first));
  begin_primary(c, second);
  bind_compute(c, w, second);
  const std::uint32_t counters = counted_dispatch(c, checks, second, s.get(), {4, 2, 1}, "spanning, second");
  end_timed(c, checks, second, s.get(), timing, "spanning, second");
  const VkFence fence = w.fence.get();
  APP_CHECK(vk.vkResetFences(c.dev(), 1, &fence));
  const VkCommandBuffer both[2] = {first, second};
  VkSubmitInfo si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.commandBufferCount = 2;
  si.pCommandBuffers = both;
  APP_CHECK(vk.vkQueueSubmit(c.queue, 1, &si, fence));
  APP_CHECK(vk.vkWaitForFences(c.dev(), 1, &fence, VK_TRUE, std::uint64_t{g_timeout_s} * 1000000000u));
  checks.eq("vkGetGpaSessionStatusAMD after both command buffers (spanning)",
            c.gpa.GetGpaSessionStatus(c.dev(), s.get()), VK_SUCCESS);
  if (timing != ~0u) {
    const auto t = read_results(c, checks, s.get(), timing, 2, "TIMING, spanning");
    if (t.size() == 2) checks.expect(t[1] >= t[0], "TIMING spanning two command buffers: end >= begin", "", "");
  }
  if (counters != ~0u) {
    const auto v = read_results(c, checks, s.get(), counters, 1, "CUMULATIVE, spanning");
    if (v.size() == 1)
      checks.eq("cs_invocations, dispatch(4,2,1) in the second command buffer", v[0],
                std::uint64_t{4 * 2 * 1 * 8 * 4 * 1});
  }
  vk.vkFreeCommandBuffers(c.dev(), w.pool.get(), 2, both);
}

// Check 6: a secondary command buffer with its own session S, executed three
// times by one primary, with S copied into C1 and C2 after the first and
// second executions (the extension's example 4.2). Each execution's results
// stay apart: the cumulative counts match, and the timings are in the order
// of the executions.
void check_secondary(const Context& c, const Work& w, Checks& checks) {
  const VolkDeviceTable& vk = c.vk();
  Session s = create_session(c, checks, VK_NULL_HANDLE, "S, of the secondary command buffer");
  const VkCommandBuffer secondary = allocate(c, w, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inherit{};
  inherit.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO;
  VkCommandBufferBeginInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;  // executed three times by one primary
  bi.pInheritanceInfo = &inherit;
  APP_CHECK(vk.vkBeginCommandBuffer(secondary, &bi));
  checks.eq("vkCmdBeginGpaSessionAMD (secondary)", c.gpa.CmdBeginGpaSession(secondary, s.get()), VK_SUCCESS);
  bind_compute(c, w, secondary);
  const std::uint32_t timing = begin_sample(c, checks, secondary, s.get(), timing_info(), "TIMING, secondary");
  const std::uint32_t counters = counted_dispatch(c, checks, secondary, s.get(), {2, 2, 2}, "secondary");
  end_timed(c, checks, secondary, s.get(), timing, "secondary");
  if (timing == ~0u || counters == ~0u) throw Abort("cannot go on without the secondary's samples");

  Session c1 = create_session(c, checks, s.get(), "C1, secondaryCopySource S");
  Session c2 = create_session(c, checks, s.get(), "C2, secondaryCopySource S");

  const VkCommandBuffer primary = allocate(c, w, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  begin_primary(c, primary);
  vk.vkCmdResetQueryPool(primary, w.timestamps.get(), 0, 2);
  vk.vkCmdWriteTimestamp(primary, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, w.timestamps.get(), 0);
  vk.vkCmdExecuteCommands(primary, 1, &secondary);
  c.gpa.CmdCopyGpaSessionResults(primary, c1.get());
  vk.vkCmdExecuteCommands(primary, 1, &secondary);
  c.gpa.CmdCopyGpaSessionResults(primary, c2.get());
  vk.vkCmdExecuteCommands(primary, 1, &secondary);
  vk.vkCmdWriteTimestamp(primary, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w.timestamps.get(), 1);
  APP_CHECK(vk.vkEndCommandBuffer(primary));

  checks.eq("vkGetGpaSessionStatusAMD before the submit (S)", c.gpa.GetGpaSessionStatus(c.dev(), s.get()),
            VK_NOT_READY);
  checks.eq("vkGetGpaSessionStatusAMD before the submit (C1)", c.gpa.GetGpaSessionStatus(c.dev(), c1.get()),
            VK_NOT_READY);
  checks.eq("vkGetGpaSessionStatusAMD before the submit (C2)", c.gpa.GetGpaSessionStatus(c.dev(), c2.get()),
            VK_NOT_READY);
  *w.counter_value = 0;
  const std::string run = "secondary x3";
  // S says VK_SUCCESS once an execution's end has run: what it holds then
  // is noted, to tell which execution that was.
  std::vector<std::uint64_t> early;
  const auto on_ready = [&](std::size_t i) {
    if (i != 0) return;
    std::size_t size = 2 * sizeof(std::uint64_t);
    early.assign(2, 0);
    if (c.gpa.GetGpaSessionResults(c.dev(), s.get(), timing, &size, early.data()) != VK_SUCCESS) early.clear();
  };
  const bool done =
      submit_and_wait(c, w, checks, primary, {{s.get(), "S"}, {c1.get(), "C1"}, {c2.get(), "C2"}}, run, on_ready);
  if (done) {
    const Timing own = own_timestamps(c, w);
    info("%s: the client's own timestamps: %" PRIu64 " .. %" PRIu64 ": %.0f ns", run.c_str(), own.begin, own.end,
         ns(own.end - own.begin, c));
    const std::pair<const Session*, const char*> sessions[] = {{&c1, "C1"}, {&c2, "C2"}, {&s, "S"}};
    std::vector<Timing> order;
    for (const auto& [session, name] : sessions) {
      const std::string what = std::string(name) + ", " + run;
      const auto v = read_results(c, checks, session->get(), counters, 1, "CUMULATIVE " + what);
      if (v.size() == 1) {
        checks.eq("cs_invocations (" + what + ")", v[0], std::uint64_t{2 * 2 * 2 * kLocalSize});
        info("%s: dispatch(2,2,2): cs_invocations %" PRIu64, what.c_str(), v[0]);
      }
      const auto t = read_results(c, checks, session->get(), timing, 2, "TIMING " + what);
      if (t.size() == 2) order.push_back(check_timing(c, checks, t, own, what));
    }
    // C1 holds the first execution, C2 the second, S the third.
    if (order.size() == 3 && early.size() == 2) {
      const char* which = early[0] == order[0].begin   ? "the first execution's (C1's)"
                          : early[0] == order[1].begin ? "the second execution's (C2's)"
                          : early[0] == order[2].begin ? "the third execution's, its final ones"
                                                       : "none of the executions'";
      info("%s: S's TIMING read as soon as its status said VK_SUCCESS: begin %" PRIu64 ": %s", run.c_str(), early[0],
           which);
    }
    if (order.size() == 3) {
      const bool in_order = order[0].end <= order[1].begin && order[1].end <= order[2].begin;
      checks.expect(in_order, "executions in order: C1 before C2 before S (" + run + ")",
                    "C1 [" + std::to_string(order[0].begin) + ", " + std::to_string(order[0].end) + "], C2 [" +
                        std::to_string(order[1].begin) + ", " + std::to_string(order[1].end) + "], S [" +
                        std::to_string(order[2].begin) + ", " + std::to_string(order[2].end) + "]",
                    "C1.end <= C2.begin, C2.end <= S.begin");
    }
    checks.eq("compute invocations counted by the shader (" + run + ")", std::uint32_t{*w.counter_value},
              3 * 2 * 2 * 2 * kLocalSize);
  }
  VkCommandBuffer both[2] = {primary, secondary};
  vk.vkFreeCommandBuffers(c.dev(), w.pool.get(), 2, both);
  // S goes before its copies: they do not depend on it once made.
  s.reset();
  c1.reset();
  c2.reset();
}
}  // namespace test_apps::gpa_client
