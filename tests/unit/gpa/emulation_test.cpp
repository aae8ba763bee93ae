// SPDX-License-Identifier: MIT
// VK_AMD_gpa_interface emulated from standard queries, on a device made of
// functions: its queries copy known values, its memory is the process's. What
// the results must be follows from the emulation's layout: a TIMING sample is
// its two timestamps, a CUMULATIVE one the requested counters picked out of
// one statistics result, in the order asked for.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpa/counters.hpp"
#include "gpa/emulation.hpp"

namespace {

using namespace libtrace;

// The one fake device of these tests (Vulkan entry points cannot carry state).
struct FakeDevice {
  std::uint64_t next = 0x100;
  std::map<std::uint64_t, VkQueryType> pools;
  std::map<std::uint64_t, VkQueryPipelineStatisticFlags> pool_statistics;
  std::map<std::uint64_t, VkDeviceSize> buffer_sizes;
  std::map<std::uint64_t, std::uint64_t> buffer_memory;       // buffer -> memory
  std::map<std::uint64_t, std::vector<std::uint8_t>> memory;  // memory -> bytes
  std::map<std::uint64_t, std::uint32_t> memory_types;        // memory -> type index
  int host_resets = 0;

  std::uint8_t* bytes(VkBuffer b, VkDeviceSize offset) {
    auto& m = memory.at(buffer_memory.at(reinterpret_cast<std::uint64_t>(b)));
    REQUIRE(offset < m.size());
    return m.data() + offset;
  }
};
FakeDevice* g_device = nullptr;

template <typename Handle>
Handle make(std::uint64_t& next) {
  return reinterpret_cast<Handle>(next++);
}
template <typename Handle>
std::uint64_t id(Handle h) {
  return reinterpret_cast<std::uint64_t>(h);
}

// What the fake GPU writes: query q of a timestamp pool reads 1000 * (q + 1);
// statistic j (its place among the pool's) of query q reads 100 * (q + 1) + j.
std::uint64_t timestamp_value(std::uint32_t q) { return 1000ull * (q + 1); }
std::uint64_t statistic_value(std::uint32_t q, std::uint32_t j) { return 100ull * (q + 1) + j; }

VKAPI_ATTR VkResult VKAPI_CALL create_query_pool(VkDevice, const VkQueryPoolCreateInfo* ci,
                                                 const VkAllocationCallbacks*, VkQueryPool* out) {
  *out = make<VkQueryPool>(g_device->next);
  g_device->pools[id(*out)] = ci->queryType;
  g_device->pool_statistics[id(*out)] = ci->pipelineStatistics;
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL destroy_query_pool(VkDevice, VkQueryPool p, const VkAllocationCallbacks*) {
  CHECK(g_device->pools.erase(id(p)) == 1);
}
VKAPI_ATTR void VKAPI_CALL reset_query_pool(VkDevice, VkQueryPool, std::uint32_t, std::uint32_t) {
  ++g_device->host_resets;
}
VKAPI_ATTR VkResult VKAPI_CALL create_buffer(VkDevice, const VkBufferCreateInfo* ci, const VkAllocationCallbacks*,
                                             VkBuffer* out) {
  *out = make<VkBuffer>(g_device->next);
  g_device->buffer_sizes[id(*out)] = ci->size;
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL destroy_buffer(VkDevice, VkBuffer b, const VkAllocationCallbacks*) {
  CHECK(g_device->buffer_sizes.erase(id(b)) == 1);
}
VKAPI_ATTR void VKAPI_CALL buffer_requirements(VkDevice, VkBuffer b, VkMemoryRequirements* req) {
  *req = {g_device->buffer_sizes.at(id(b)), 16, 0b11};
}
VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice, const VkMemoryAllocateInfo* ai, const VkAllocationCallbacks*,
                                               VkDeviceMemory* out) {
  *out = make<VkDeviceMemory>(g_device->next);
  g_device->memory[id(*out)].assign(ai->allocationSize, 0xcd);
  g_device->memory_types[id(*out)] = ai->memoryTypeIndex;
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL free_memory(VkDevice, VkDeviceMemory m, const VkAllocationCallbacks*) {
  CHECK(g_device->memory.erase(id(m)) == 1);
}
VKAPI_ATTR VkResult VKAPI_CALL bind_buffer_memory(VkDevice, VkBuffer b, VkDeviceMemory m, VkDeviceSize) {
  g_device->buffer_memory[id(b)] = id(m);
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL map_memory(VkDevice, VkDeviceMemory m, VkDeviceSize, VkDeviceSize, VkMemoryMapFlags,
                                          void** out) {
  *out = g_device->memory.at(id(m)).data();
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL unmap_memory(VkDevice, VkDeviceMemory) {}
VKAPI_ATTR void VKAPI_CALL write_timestamp(VkCommandBuffer, VkPipelineStageFlagBits, VkQueryPool, std::uint32_t) {}
VKAPI_ATTR void VKAPI_CALL begin_query(VkCommandBuffer, VkQueryPool, std::uint32_t, VkQueryControlFlags) {}
VKAPI_ATTR void VKAPI_CALL end_query(VkCommandBuffer, VkQueryPool, std::uint32_t) {}
VKAPI_ATTR void VKAPI_CALL reset_query_pool_cmd(VkCommandBuffer, VkQueryPool, std::uint32_t, std::uint32_t) {}
VKAPI_ATTR void VKAPI_CALL pipeline_barrier(VkCommandBuffer, VkPipelineStageFlags, VkPipelineStageFlags,
                                            VkDependencyFlags, std::uint32_t, const VkMemoryBarrier*, std::uint32_t,
                                            const VkBufferMemoryBarrier*, std::uint32_t, const VkImageMemoryBarrier*) {}
// The GPU's side of the copies, done at once.
VKAPI_ATTR void VKAPI_CALL copy_query_results(VkCommandBuffer, VkQueryPool pool, std::uint32_t first,
                                              std::uint32_t count, VkBuffer dst, VkDeviceSize offset,
                                              VkDeviceSize stride, VkQueryResultFlags flags) {
  CHECK((flags & VK_QUERY_RESULT_64_BIT) != 0);
  const bool timestamps = g_device->pools.at(id(pool)) == VK_QUERY_TYPE_TIMESTAMP;
  const int per_query = timestamps ? 1 : std::popcount(g_device->pool_statistics.at(id(pool)));
  for (std::uint32_t q = first; q < first + count; ++q)
    for (int j = 0; j < per_query; ++j) {
      const std::uint64_t v = timestamps ? timestamp_value(q) : statistic_value(q, static_cast<std::uint32_t>(j));
      std::memcpy(g_device->bytes(dst, offset + (q - first) * stride + 8 * static_cast<unsigned>(j)), &v, 8);
    }
}
VKAPI_ATTR void VKAPI_CALL fill_buffer(VkCommandBuffer, VkBuffer dst, VkDeviceSize offset, VkDeviceSize size,
                                       std::uint32_t data) {
  CHECK(size == 4);
  std::memcpy(g_device->bytes(dst, offset), &data, 4);
}
VKAPI_ATTR void VKAPI_CALL copy_buffer(VkCommandBuffer, VkBuffer src, VkBuffer dst, std::uint32_t n,
                                       const VkBufferCopy* regions) {
  for (std::uint32_t i = 0; i < n; ++i)
    std::memcpy(g_device->bytes(dst, regions[i].dstOffset), g_device->bytes(src, regions[i].srcOffset),
                regions[i].size);
}

constexpr VkQueryPipelineStatisticFlags kStatistics = VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
                                                      VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
                                                      VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;

struct Fixture {
  FakeDevice device;
  layer::DeviceTable table{};
  VkCommandBuffer cb = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0x10});

  Fixture() {
    g_device = &device;
    table.CreateQueryPool = create_query_pool;
    table.DestroyQueryPool = destroy_query_pool;
    table.ResetQueryPool = reset_query_pool;
    table.CreateBuffer = create_buffer;
    table.DestroyBuffer = destroy_buffer;
    table.GetBufferMemoryRequirements = buffer_requirements;
    table.AllocateMemory = allocate_memory;
    table.FreeMemory = free_memory;
    table.BindBufferMemory = bind_buffer_memory;
    table.MapMemory = map_memory;
    table.UnmapMemory = unmap_memory;
    table.CmdWriteTimestamp = write_timestamp;
    table.CmdBeginQuery = begin_query;
    table.CmdEndQuery = end_query;
    table.CmdResetQueryPool = reset_query_pool_cmd;
    table.CmdPipelineBarrier = pipeline_barrier;
    table.CmdCopyQueryPoolResults = copy_query_results;
    table.CmdFillBuffer = fill_buffer;
    table.CmdCopyBuffer = copy_buffer;
  }
  ~Fixture() { g_device = nullptr; }

  // Type 0 device-local only, type 1 what the results buffer needs.
  gpa::DeviceContext context(VkQueryPipelineStatisticFlags statistics = kStatistics) const {
    gpa::DeviceContext c;
    c.device = reinterpret_cast<VkDevice>(std::uintptr_t{0x20});
    c.t = &table;
    c.memory.memoryTypeCount = 2;
    c.memory.memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    c.memory.memoryTypes[1].propertyFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    c.statistics = statistics;
    return c;
  }
};

VkGpaPerfCounterAMD counter(const char* name) {
  const gpa::Counter* c = gpa::find_counter(std::string_view(name));
  REQUIRE(c);
  return {gpa::kStatsBlock, 0, c->event};
}

// Points into `counters`, which must outlive it.
VkGpaSampleBeginInfoAMD cumulative(const std::vector<VkGpaPerfCounterAMD>& counters) {
  VkGpaSampleBeginInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  info.sampleType = VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD;
  info.perfCounterCount = static_cast<std::uint32_t>(counters.size());
  info.pPerfCounters = counters.data();
  return info;
}

VkGpaSampleBeginInfoAMD timing() {
  VkGpaSampleBeginInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  info.sampleType = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
  return info;
}

std::vector<std::uint64_t> results(gpa::Emulation& e, VkGpaSessionAMD s, std::uint32_t sample) {
  std::size_t size = 0;
  REQUIRE(e.results(s, sample, &size, nullptr) == VK_SUCCESS);
  std::vector<std::uint64_t> out(size / 8);
  REQUIRE(e.results(s, sample, &size, out.data()) == VK_SUCCESS);
  return out;
}

}  // namespace

TEST_CASE("gpa counters: event N is pipeline statistic 1 << N, names unique, the default set among them") {
  const auto all = gpa::counters();
  REQUIRE(all.size() == 11);  // every VkQueryPipelineStatisticFlagBits of Vulkan 1.0
  for (std::uint32_t i = 0; i < all.size(); ++i) {
    CHECK(all[i].event == i);
    CHECK(static_cast<std::uint32_t>(all[i].statistic) == 1u << i);
    CHECK(gpa::find_counter(i) == &all[i]);
    CHECK(gpa::find_counter(std::string_view(all[i].name)) == &all[i]);
    CHECK(std::string_view(all[i].meaning).size() > 10);
  }
  CHECK(gpa::find_counter(std::uint32_t{11}) == nullptr);
  CHECK(gpa::find_counter(std::string_view("vs_invocation")) == nullptr);
  CHECK(gpa::find_counter(std::string_view("")) == nullptr);
  CHECK(gpa::find_counter(std::string_view("fs_invocations"))->statistic ==
        VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT);
  CHECK(gpa::find_counter(std::string_view("cs_invocations"))->statistic ==
        VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT);
  std::string_view defaults = gpa::kDefaultCounters;
  while (!defaults.empty()) {
    const auto comma = defaults.find(',');
    CHECK_MESSAGE(gpa::find_counter(defaults.substr(0, comma)) != nullptr, std::string(defaults.substr(0, comma)));
    defaults = comma == std::string_view::npos ? std::string_view() : defaults.substr(comma + 1);
  }
}

TEST_CASE("gpa emulation: CUMULATIVE results are the counters asked for, in their order; TIMING its timestamps") {
  Fixture f;
  gpa::Emulation e(f.context());
  VkGpaSessionAMD s = VK_NULL_HANDLE;
  REQUIRE(e.create_session(nullptr, &s) == VK_SUCCESS);
  CHECK(e.status(s) == VK_NOT_READY);  // nothing recorded yet
  REQUIRE(e.cmd_begin_session(f.cb, s) == VK_SUCCESS);
  // Statistics VS (bit 2), FS (bit 7), CS (bit 10): places 0, 1, 2 of a result.
  const std::vector<VkGpaPerfCounterAMD> asked = {counter("cs_invocations"), counter("vs_invocations"),
                                                  counter("fs_invocations")};
  const auto info = cumulative(asked);
  std::uint32_t stats_id = 99, time_id = 99;
  REQUIRE(e.cmd_begin_sample(f.cb, s, &info, &stats_id) == VK_SUCCESS);
  e.cmd_end_sample(f.cb, s, stats_id);
  const auto t = timing();
  REQUIRE(e.cmd_begin_sample(f.cb, s, &t, &time_id) == VK_SUCCESS);
  e.cmd_end_sample(f.cb, s, time_id);
  CHECK(stats_id == 0);
  CHECK(time_id == 1);
  std::size_t size = 0;
  CHECK(e.results(s, 0, &size, nullptr) == VK_NOT_READY);  // the session has not ended on the GPU
  REQUIRE(e.cmd_end_session(f.cb, s) == VK_SUCCESS);
  CHECK(e.status(s) == VK_SUCCESS);

  // Slot 0 of the statistics pool, slot 1 (queries 2 and 3) of the timestamps.
  CHECK(results(e, s, 0) ==
        std::vector<std::uint64_t>{statistic_value(0, 2), statistic_value(0, 0), statistic_value(0, 1)});
  CHECK(results(e, s, 1) == std::vector<std::uint64_t>{timestamp_value(2), timestamp_value(3)});

  // Too small a buffer is VK_INCOMPLETE; a sample never begun is an error.
  std::uint64_t one = 0;
  size = sizeof one;
  CHECK(e.results(s, 0, &size, &one) == VK_INCOMPLETE);
  CHECK(e.results(s, 2, &size, &one) == VK_ERROR_INITIALIZATION_FAILED);
  CHECK(e.results(s, 0, nullptr, nullptr) == VK_ERROR_INITIALIZATION_FAILED);

  // The results buffer: host-visible and coherent (type 1), 64 slots of two
  // timestamps and three statistics, and the marker.
  REQUIRE(f.device.memory_types.size() == 1);
  CHECK(f.device.memory_types.begin()->second == 1);
  REQUIRE(f.device.buffer_sizes.size() == 1);
  CHECK(f.device.buffer_sizes.begin()->second == 64 * (16 + 3 * 8) + 16);

  // A reset clears the marker: not ready until the session ends again.
  const int resets = f.device.host_resets;
  REQUIRE(e.reset_session(s) == VK_SUCCESS);
  CHECK(f.device.host_resets == resets + 2);  // the timestamps pool and the statistics pool
  CHECK(e.status(s) == VK_NOT_READY);
  CHECK(e.results(s, 0, &size, nullptr) == VK_NOT_READY);
  REQUIRE(e.cmd_end_session(f.cb, s) == VK_SUCCESS);
  CHECK(e.status(s) == VK_SUCCESS);
  e.destroy_session(s);
  CHECK(f.device.pools.empty());
  CHECK(f.device.buffer_sizes.empty());
  CHECK(f.device.memory.empty());
}

TEST_CASE("gpa emulation: the 65th sample opens a second chunk, whose slot 0 it takes") {
  Fixture f;
  gpa::Emulation e(f.context());
  VkGpaSessionAMD s = VK_NULL_HANDLE;
  REQUIRE(e.create_session(nullptr, &s) == VK_SUCCESS);
  REQUIRE(e.cmd_begin_session(f.cb, s) == VK_SUCCESS);
  const auto t = timing();
  std::uint32_t sample = 0;
  for (int i = 0; i < 65; ++i) {
    REQUIRE(e.cmd_begin_sample(f.cb, s, &t, &sample) == VK_SUCCESS);
    e.cmd_end_sample(f.cb, s, sample);
  }
  CHECK(sample == 64);
  CHECK(f.device.buffer_sizes.size() == 2);
  CHECK(f.device.pools.size() == 4);  // timestamps and statistics, per chunk
  REQUIRE(e.cmd_end_session(f.cb, s) == VK_SUCCESS);
  CHECK(results(e, s, 63) == std::vector<std::uint64_t>{timestamp_value(126), timestamp_value(127)});
  CHECK(results(e, s, 64) == std::vector<std::uint64_t>{timestamp_value(0), timestamp_value(1)});
}

TEST_CASE("gpa emulation: what it cannot emulate is refused, and nothing is recorded for it") {
  Fixture f;
  gpa::Emulation e(f.context());
  VkGpaSessionAMD s = VK_NULL_HANDLE;
  REQUIRE(e.create_session(nullptr, &s) == VK_SUCCESS);
  std::uint32_t sample = 99;

  const std::vector<VkGpaPerfCounterAMD> gs = {counter("gs_invocations")};  // not among the device's statistics
  const auto absent = cumulative(gs);
  CHECK(e.cmd_begin_sample(f.cb, s, &absent, &sample) == VK_ERROR_FEATURE_NOT_PRESENT);
  const std::vector<VkGpaPerfCounterAMD> other_block = {{VK_GPA_PERF_BLOCK_SQ_AMD, 0, 2}};
  const auto sq = cumulative(other_block);
  CHECK(e.cmd_begin_sample(f.cb, s, &sq, &sample) == VK_ERROR_FEATURE_NOT_PRESENT);
  const std::vector<VkGpaPerfCounterAMD> second_instance = {{gpa::kStatsBlock, 1, 2}};
  const auto instance = cumulative(second_instance);
  CHECK(e.cmd_begin_sample(f.cb, s, &instance, &sample) == VK_ERROR_FEATURE_NOT_PRESENT);
  const std::vector<VkGpaPerfCounterAMD> no_event = {{gpa::kStatsBlock, 0, 11}};
  const auto beyond = cumulative(no_event);
  CHECK(e.cmd_begin_sample(f.cb, s, &beyond, &sample) == VK_ERROR_FEATURE_NOT_PRESENT);
  VkGpaSampleBeginInfoAMD trace = timing();
  trace.sampleType = VK_GPA_SAMPLE_TYPE_TRACE_AMD;
  CHECK(e.cmd_begin_sample(f.cb, s, &trace, &sample) == VK_ERROR_FEATURE_NOT_PRESENT);
  CHECK(e.cmd_begin_sample(f.cb, s, nullptr, &sample) == VK_ERROR_INITIALIZATION_FAILED);
  CHECK(sample == 99);
  CHECK(f.device.buffer_sizes.empty());  // nothing made for refused samples

  // CUMULATIVE samples do not nest in one command buffer; in another they may.
  const std::vector<VkGpaPerfCounterAMD> vs = {counter("vs_invocations")};
  const auto outer = cumulative(vs);
  REQUIRE(e.cmd_begin_sample(f.cb, s, &outer, &sample) == VK_SUCCESS);
  CHECK(sample == 0);
  std::uint32_t inner = 99;
  CHECK(e.cmd_begin_sample(f.cb, s, &outer, &inner) == VK_ERROR_FEATURE_NOT_PRESENT);
  const auto other_cb = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{0x11});
  CHECK(e.cmd_begin_sample(other_cb, s, &outer, &inner) == VK_SUCCESS);
  CHECK(inner == 1);
  e.cmd_end_sample(f.cb, s, sample);
  const auto t = timing();
  CHECK(e.cmd_begin_sample(f.cb, s, &t, &inner) == VK_SUCCESS);  // TIMING may nest

  // A device without statistics queries has TIMING samples only.
  gpa::Emulation plain(f.context(0));
  VkGpaSessionAMD p = VK_NULL_HANDLE;
  REQUIRE(plain.create_session(nullptr, &p) == VK_SUCCESS);
  CHECK(plain.cmd_begin_sample(f.cb, p, &outer, &sample) == VK_ERROR_FEATURE_NOT_PRESENT);
  CHECK(plain.cmd_begin_sample(f.cb, p, &t, &sample) == VK_SUCCESS);
}

TEST_CASE("gpa emulation: a session copied from a secondary command buffer's has its results") {
  Fixture f;
  gpa::Emulation e(f.context());
  VkGpaSessionAMD secondary = VK_NULL_HANDLE, primary = VK_NULL_HANDLE;
  REQUIRE(e.create_session(nullptr, &secondary) == VK_SUCCESS);
  VkGpaSessionCreateInfoAMD ci{};
  ci.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
  ci.secondaryCopySource = secondary;
  REQUIRE(e.create_session(&ci, &primary) == VK_SUCCESS);
  REQUIRE(e.cmd_begin_session(f.cb, secondary) == VK_SUCCESS);
  const std::vector<VkGpaPerfCounterAMD> fs = {counter("fs_invocations")};
  const auto info = cumulative(fs);
  std::uint32_t sample = 99;
  REQUIRE(e.cmd_begin_sample(f.cb, secondary, &info, &sample) == VK_SUCCESS);
  e.cmd_end_sample(f.cb, secondary, sample);
  REQUIRE(e.cmd_end_session(f.cb, secondary) == VK_SUCCESS);
  CHECK(e.status(primary) == VK_NOT_READY);
  e.cmd_copy_results(f.cb, primary);
  CHECK(e.status(primary) == VK_SUCCESS);
  CHECK(results(e, primary, 0) == std::vector<std::uint64_t>{statistic_value(0, 1)});
}
