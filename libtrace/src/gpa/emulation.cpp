// SPDX-License-Identifier: MIT
#include "gpa/emulation.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "gpa/counters.hpp"
#include "layer/layer.hpp"
#include "libtrace/gpa/layer.hpp"

namespace libtrace::gpa {

namespace {

constexpr std::uint32_t kSlots = 64;          // samples per chunk
constexpr VkDeviceSize kTimestampBytes = 16;  // a slot's pair of timestamps
constexpr std::uint32_t kComplete = 1;        // the marker of a complete session

// A single pipeline stage names where a timestamp goes; several (or the host
// stage) go to the bottom of the pipe, after all of them, and none to the
// default the caller gives.
VkPipelineStageFlagBits timestamp_stage(VkPipelineStageFlags f, VkPipelineStageFlagBits none) {
  if (f == 0) return none;
  if (std::has_single_bit(f) && f != VK_PIPELINE_STAGE_HOST_BIT) return static_cast<VkPipelineStageFlagBits>(f);
  return VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
}

}  // namespace

struct Emulation::Chunk {
  VkQueryPool timestamps = VK_NULL_HANDLE;  // 2 per slot: begin, end
  VkQueryPool statistics = VK_NULL_HANDLE;  // 1 per slot
  VkBuffer buffer = VK_NULL_HANDLE;         // results: timestamps, statistics, marker
  VkDeviceMemory memory = VK_NULL_HANDLE;
  std::uint8_t* mapped = nullptr;
};

struct Emulation::Session {
  struct Sample {
    VkGpaSampleTypeAMD type = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
    VkPipelineStageFlagBits post = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    std::vector<std::uint32_t> positions;      // per requested counter: its place in a statistics result
    VkCommandBuffer open_in = VK_NULL_HANDLE;  // the command buffer of a sample not ended yet
  };
  std::mutex mu;
  Session* source = nullptr;  // secondaryCopySource
  std::vector<Chunk> chunks;
  std::vector<Sample> samples;  // as last recorded: a command buffer submitted again reuses them
};

// The marker word after a session's results: the host clears it when the
// session is reset, the session's end (or a copy into it) sets it once the
// results are in the buffer. A constant, not a count of resets: a command
// buffer recorded once may be submitted again after each reset.

Emulation::Emulation(DeviceContext ctx) : ctx_(ctx) {}

Emulation::~Emulation() {
  for (auto& s : sessions_)
    for (Chunk& c : s->chunks) destroy_chunk(c);
}

VkDeviceSize Emulation::marker_offset() const { return kSlots * (kTimestampBytes + statistics_stride()); }

std::uint32_t Emulation::statistics_stride() const {
  return static_cast<std::uint32_t>(std::popcount(ctx_.statistics)) * 8;
}

Emulation::Session* Emulation::session(VkGpaSessionAMD s) const { return reinterpret_cast<Session*>(s); }

void Emulation::destroy_chunk(Chunk& c) {
  const layer::DeviceTable& t = *ctx_.t;
  if (c.mapped) t.UnmapMemory(ctx_.device, c.memory);
  if (c.buffer) t.DestroyBuffer(ctx_.device, c.buffer, nullptr);
  if (c.memory) t.FreeMemory(ctx_.device, c.memory, nullptr);
  if (c.timestamps) t.DestroyQueryPool(ctx_.device, c.timestamps, nullptr);
  if (c.statistics) t.DestroyQueryPool(ctx_.device, c.statistics, nullptr);
  c = Chunk{};
}

bool Emulation::add_chunk(Session& s) {
  const layer::DeviceTable& t = *ctx_.t;
  const auto reset = t.ResetQueryPool ? t.ResetQueryPool : t.ResetQueryPoolEXT;
  Chunk c;
  const auto fail = [&](const char* what, VkResult r) {
    layer::log_once(kLayerName, std::string("cannot make room for samples: ") + what, std::to_string(r));
    destroy_chunk(c);
    return false;
  };
  VkQueryPoolCreateInfo qi{};
  qi.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qi.queryCount = 2 * kSlots;
  if (VkResult r = t.CreateQueryPool(ctx_.device, &qi, nullptr, &c.timestamps); r != VK_SUCCESS)
    return fail("vkCreateQueryPool", r);
  reset(ctx_.device, c.timestamps, 0, qi.queryCount);
  if (ctx_.statistics) {
    qi.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
    qi.queryCount = kSlots;
    qi.pipelineStatistics = ctx_.statistics;
    if (VkResult r = t.CreateQueryPool(ctx_.device, &qi, nullptr, &c.statistics); r != VK_SUCCESS)
      return fail("vkCreateQueryPool", r);
    reset(ctx_.device, c.statistics, 0, kSlots);
  }
  VkBufferCreateInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bi.size = kSlots * (kTimestampBytes + statistics_stride()) + 16;  // + the marker
  bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (VkResult r = t.CreateBuffer(ctx_.device, &bi, nullptr, &c.buffer); r != VK_SUCCESS)
    return fail("vkCreateBuffer", r);
  VkMemoryRequirements req;
  t.GetBufferMemoryRequirements(ctx_.device, c.buffer, &req);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::uint32_t type = 0;
  while (type < ctx_.memory.memoryTypeCount &&
         !((req.memoryTypeBits & (1u << type)) && (ctx_.memory.memoryTypes[type].propertyFlags & want) == want))
    ++type;
  if (type == ctx_.memory.memoryTypeCount) return fail("no host-visible, coherent memory type", VK_ERROR_UNKNOWN);
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  if (VkResult r = t.AllocateMemory(ctx_.device, &ai, nullptr, &c.memory); r != VK_SUCCESS)
    return fail("vkAllocateMemory", r);
  if (VkResult r = t.BindBufferMemory(ctx_.device, c.buffer, c.memory, 0); r != VK_SUCCESS)
    return fail("vkBindBufferMemory", r);
  void* p = nullptr;
  if (VkResult r = t.MapMemory(ctx_.device, c.memory, 0, VK_WHOLE_SIZE, 0, &p); r != VK_SUCCESS)
    return fail("vkMapMemory", r);
  c.mapped = static_cast<std::uint8_t*>(p);
  std::memset(c.mapped, 0, bi.size);
  s.chunks.push_back(c);
  return true;
}

VkResult Emulation::create_session(const VkGpaSessionCreateInfoAMD* ci, VkGpaSessionAMD* out) {
  if (!out) return VK_ERROR_INITIALIZATION_FAILED;
  auto s = std::make_unique<Session>();
  if (ci && ci->secondaryCopySource) s->source = session(ci->secondaryCopySource);
  *out = reinterpret_cast<VkGpaSessionAMD>(s.get());
  const std::lock_guard lock(mu_);
  sessions_.push_back(std::move(s));
  return VK_SUCCESS;
}

void Emulation::destroy_session(VkGpaSessionAMD handle) {
  if (!handle) return;
  const std::lock_guard lock(mu_);
  const auto it =
      std::find_if(sessions_.begin(), sessions_.end(), [&](const auto& s) { return s.get() == session(handle); });
  if (it == sessions_.end()) return;
  for (Chunk& c : (*it)->chunks) destroy_chunk(c);
  sessions_.erase(it);
}

VkResult Emulation::reset_session(VkGpaSessionAMD handle) {
  Session& s = *session(handle);
  const std::lock_guard lock(s.mu);
  const layer::DeviceTable& t = *ctx_.t;
  const auto reset = t.ResetQueryPool ? t.ResetQueryPool : t.ResetQueryPoolEXT;
  for (const Chunk& c : s.chunks) {
    reset(ctx_.device, c.timestamps, 0, 2 * kSlots);
    if (c.statistics) reset(ctx_.device, c.statistics, 0, kSlots);
  }
  if (!s.chunks.empty()) std::memset(s.chunks[0].mapped + marker_offset(), 0, sizeof kComplete);
  return VK_SUCCESS;
}

VkResult Emulation::cmd_begin_session(VkCommandBuffer, VkGpaSessionAMD handle) {
  Session& s = *session(handle);
  const std::lock_guard lock(s.mu);
  s.samples.clear();  // what is recorded from here on is the session's
  return VK_SUCCESS;
}

VkResult Emulation::cmd_begin_sample(VkCommandBuffer cb, VkGpaSessionAMD handle, const VkGpaSampleBeginInfoAMD* info,
                                     std::uint32_t* id) {
  if (!info || !id) return VK_ERROR_INITIALIZATION_FAILED;
  Session& s = *session(handle);
  const std::lock_guard lock(s.mu);
  Session::Sample sample;
  sample.type = info->sampleType;
  switch (info->sampleType) {
    case VK_GPA_SAMPLE_TYPE_TIMING_AMD: break;
    case VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD:
      if (!ctx_.statistics) {
        layer::log_once(kLayerName, "CUMULATIVE samples refused", "the device has no pipeline statistics queries");
        return VK_ERROR_FEATURE_NOT_PRESENT;
      }
      for (const Session::Sample& open : s.samples)
        if (open.open_in == cb && open.type == VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD) {
          layer::log_once(kLayerName, "a CUMULATIVE sample inside another refused",
                          "statistics queries of one command buffer cannot nest");
          return VK_ERROR_FEATURE_NOT_PRESENT;
        }
      for (std::uint32_t i = 0; i < info->perfCounterCount; ++i) {
        const VkGpaPerfCounterAMD& want = info->pPerfCounters[i];
        const Counter* c =
            want.blockType == kStatsBlock && want.blockInstance == 0 ? find_counter(want.eventID) : nullptr;
        if (!c || !(ctx_.statistics & c->statistic)) {
          layer::log_once(kLayerName,
                          "counter (block " + std::to_string(want.blockType) + ", instance " +
                              std::to_string(want.blockInstance) + ", event " + std::to_string(want.eventID) +
                              ") refused",
                          "not one this device offers (trak-gpa info lists them)");
          return VK_ERROR_FEATURE_NOT_PRESENT;
        }
        sample.positions.push_back(static_cast<std::uint32_t>(std::popcount(ctx_.statistics & (c->statistic - 1u))));
      }
      break;
    default:
      layer::log_once(kLayerName, "TRACE samples refused", "thread traces and SPM cannot be emulated");
      return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const auto slot = static_cast<std::uint32_t>(s.samples.size());
  while (s.chunks.size() <= slot / kSlots)
    if (!add_chunk(s)) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  const Chunk& c = s.chunks[slot / kSlots];
  const std::uint32_t at = slot % kSlots;
  if (sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD) {
    sample.post = timestamp_stage(info->timingPostSample, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    ctx_.t->CmdWriteTimestamp(cb, timestamp_stage(info->timingPreSample, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT),
                              c.timestamps, 2 * at);
  } else {
    ctx_.t->CmdBeginQuery(cb, c.statistics, at, 0);
  }
  sample.open_in = cb;
  s.samples.push_back(std::move(sample));
  *id = slot;
  return VK_SUCCESS;
}

void Emulation::cmd_end_sample(VkCommandBuffer cb, VkGpaSessionAMD handle, std::uint32_t id) {
  Session& s = *session(handle);
  const std::lock_guard lock(s.mu);
  if (id >= s.samples.size() || !s.samples[id].open_in) return;
  Session::Sample& sample = s.samples[id];
  const Chunk& c = s.chunks[id / kSlots];
  const std::uint32_t at = id % kSlots;
  if (sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD)
    ctx_.t->CmdWriteTimestamp(cb, sample.post, c.timestamps, 2 * at + 1);
  else
    ctx_.t->CmdEndQuery(cb, c.statistics, at);
  sample.open_in = VK_NULL_HANDLE;
}

namespace {

void barrier(const layer::DeviceTable& t, VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags src_access,
             VkPipelineStageFlags dst, VkAccessFlags dst_access) {
  const VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, src_access, dst_access};
  t.CmdPipelineBarrier(cb, src, dst, 0, 1, &b, 0, nullptr, 0, nullptr);
}

}  // namespace

VkResult Emulation::cmd_end_session(VkCommandBuffer cb, VkGpaSessionAMD handle) {
  Session& s = *session(handle);
  const std::lock_guard lock(s.mu);
  if (s.chunks.empty() && !add_chunk(s)) return VK_ERROR_OUT_OF_DEVICE_MEMORY;  // a marker to write
  const layer::DeviceTable& t = *ctx_.t;
  const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT;
  const std::uint32_t stride = statistics_stride();
  // Copies with WAIT wait on the GPU for each query; only the queries a
  // sample wrote are copied (the others never become available).
  for (std::uint32_t i = 0; i < s.samples.size(); ++i) {
    if (s.samples[i].open_in) continue;  // never ended: its end query would never come
    const Chunk& c = s.chunks[i / kSlots];
    const std::uint32_t at = i % kSlots;
    if (s.samples[i].type == VK_GPA_SAMPLE_TYPE_TIMING_AMD)
      t.CmdCopyQueryPoolResults(cb, c.timestamps, 2 * at, 2, c.buffer, at * kTimestampBytes, 8, flags);
    else
      t.CmdCopyQueryPoolResults(cb, c.statistics, at, 1, c.buffer, kSlots * kTimestampBytes + at * stride, stride,
                                flags);
  }
  barrier(t, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT);
  t.CmdFillBuffer(cb, s.chunks[0].buffer, marker_offset(), sizeof kComplete, kComplete);
  barrier(t, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT);
  return VK_SUCCESS;
}

void Emulation::cmd_copy_results(VkCommandBuffer cb, VkGpaSessionAMD handle) {
  Session& dst = *session(handle);
  const std::lock_guard lock(dst.mu);
  Session* src = dst.source;
  if (!src) {
    layer::log_once(kLayerName, "vkCmdCopyGpaSessionResultsAMD on a session without a secondaryCopySource", "");
    return;
  }
  const std::lock_guard src_lock(src->mu);
  while (dst.chunks.size() < std::max<std::size_t>(src->chunks.size(), 1))
    if (!add_chunk(dst)) return;
  const layer::DeviceTable& t = *ctx_.t;
  const std::uint32_t stride = statistics_stride();
  const VkDeviceSize data = kSlots * (kTimestampBytes + stride);
  // The source's results come from its end in the secondary command buffer.
  barrier(t, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  const auto reset = [&](VkQueryPool pool, std::uint32_t n) { t.CmdResetQueryPool(cb, pool, 0, n); };
  for (std::size_t i = 0; i < src->chunks.size(); ++i) {
    const VkBufferCopy region{0, 0, data};
    t.CmdCopyBuffer(cb, src->chunks[i].buffer, dst.chunks[i].buffer, 1, &region);
    // The secondary command buffer may run again: its queries begin anew.
    reset(src->chunks[i].timestamps, 2 * kSlots);
    if (src->chunks[i].statistics) reset(src->chunks[i].statistics, kSlots);
  }
  barrier(t, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT);
  t.CmdFillBuffer(cb, dst.chunks[0].buffer, data, sizeof kComplete, kComplete);
  barrier(t, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT);
  dst.samples = src->samples;
  for (auto& sample : dst.samples) sample.open_in = VK_NULL_HANDLE;
}

VkResult Emulation::status(VkGpaSessionAMD handle) {
  Session& s = *session(handle);
  const std::lock_guard lock(s.mu);
  if (s.chunks.empty()) return VK_NOT_READY;
  std::uint32_t marker;
  std::memcpy(&marker, s.chunks[0].mapped + marker_offset(), sizeof marker);
  return marker == kComplete ? VK_SUCCESS : VK_NOT_READY;
}

VkResult Emulation::results(VkGpaSessionAMD handle, std::uint32_t id, std::size_t* size, void* data) {
  if (!size) return VK_ERROR_INITIALIZATION_FAILED;
  if (status(handle) != VK_SUCCESS) return VK_NOT_READY;
  Session& s = *session(handle);
  const std::lock_guard lock(s.mu);
  if (id >= s.samples.size()) return VK_ERROR_INITIALIZATION_FAILED;
  const Session::Sample& sample = s.samples[id];
  const bool timing = sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD;
  const std::size_t need = timing ? 2 * sizeof(std::uint64_t) : sample.positions.size() * sizeof(std::uint64_t);
  if (!data) {
    *size = need;
    return VK_SUCCESS;
  }
  if (*size < need) return VK_INCOMPLETE;
  const Chunk& c = s.chunks[id / kSlots];
  const std::uint32_t at = id % kSlots;
  if (timing) {
    std::memcpy(data, c.mapped + at * kTimestampBytes, need);
  } else {
    const std::uint8_t* row = c.mapped + kSlots * kTimestampBytes + at * statistics_stride();
    auto* out = static_cast<std::uint8_t*>(data);
    for (std::size_t i = 0; i < sample.positions.size(); ++i)
      std::memcpy(out + i * 8, row + sample.positions[i] * 8, 8);
  }
  *size = need;
  return VK_SUCCESS;
}

}  // namespace libtrace::gpa
