// SPDX-License-Identifier: MIT
// VK_AMD_gpa_interface on a device that lacks it, from standard queries:
// TIMING samples are a pair of timestamp queries, CUMULATIVE samples one
// pipeline-statistics query counting the emulated counters (gpa/counters.hpp).
//
// A session owns chunks of 64 sample slots: two timestamp queries and one
// statistics query per slot, and a host-visible buffer the results are
// copied to when the session ends, followed by a marker word: the session is
// complete when the marker is there. Resetting a session resets its queries
// and clears the marker; a command buffer recorded once may then be
// submitted again and fill the same samples anew. Query
// pools are reset from the host (hostQueryReset, which the layer enables),
// so samples may begin anywhere, render passes included.
//
// Limits of the emulation, by design: a CUMULATIVE sample may not nest in
// another of the same command buffer (statistics queries cannot);
// vkCmdEndGpaSessionAMD and vkCmdCopyGpaSessionResultsAMD record copies,
// which Vulkan allows only outside render passes; statistics count on queues
// with graphics and compute; cacheFlushOnCounterCollection and
// sampleInternalOperations change nothing (no caches of a counter unit to
// flush, no driver-internal work to include).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "layer/dispatch_tables.hpp"
#include "libtrace/gpa/vk_amd_gpa_interface.h"

namespace libtrace::gpa {

struct DeviceContext {
  VkDevice device = VK_NULL_HANDLE;
  const layer::DeviceTable* t = nullptr;
  VkPhysicalDeviceMemoryProperties memory{};
  VkQueryPipelineStatisticFlags statistics = 0;  // what the statistics pool counts (0: no pool)
};

class Emulation {
 public:
  explicit Emulation(DeviceContext ctx);
  ~Emulation();  // destroys the sessions the application left
  Emulation(const Emulation&) = delete;
  Emulation& operator=(const Emulation&) = delete;

  const DeviceContext& context() const { return ctx_; }

  VkResult create_session(const VkGpaSessionCreateInfoAMD* ci, VkGpaSessionAMD* out);
  void destroy_session(VkGpaSessionAMD s);
  VkResult reset_session(VkGpaSessionAMD s);
  VkResult cmd_begin_session(VkCommandBuffer cb, VkGpaSessionAMD s);
  VkResult cmd_end_session(VkCommandBuffer cb, VkGpaSessionAMD s);
  VkResult cmd_begin_sample(VkCommandBuffer cb, VkGpaSessionAMD s, const VkGpaSampleBeginInfoAMD* info,
                            std::uint32_t* id);
  void cmd_end_sample(VkCommandBuffer cb, VkGpaSessionAMD s, std::uint32_t id);
  VkResult status(VkGpaSessionAMD s);
  VkResult results(VkGpaSessionAMD s, std::uint32_t id, std::size_t* size, void* data);
  void cmd_copy_results(VkCommandBuffer cb, VkGpaSessionAMD s);

 private:
  struct Session;
  struct Chunk;
  Session* session(VkGpaSessionAMD s) const;
  bool add_chunk(Session& s);
  void destroy_chunk(Chunk& c);
  std::uint32_t statistics_stride() const;
  VkDeviceSize marker_offset() const;

  DeviceContext ctx_;
  std::mutex mu_;  // sessions_
  std::vector<std::unique_ptr<Session>> sessions_;
};

}  // namespace libtrace::gpa
