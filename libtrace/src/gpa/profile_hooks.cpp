// SPDX-License-Identifier: MIT
#include "gpa/profile_hooks.hpp"

#include <cstring>
#include <vector>

#include "libtrace/vktrace/dialect.hpp"

namespace libtrace::gpa {

namespace {

Profiler* profiler_of(const void* dispatchable, std::shared_ptr<Device>& keep) {
  keep = device_of(dispatchable);
  return keep ? keep->profiler.get() : nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* info,
                                                      VkCommandBuffer* out) {
  std::shared_ptr<Device> d;
  Profiler* p = profiler_of(device, d);
  const VkResult r = d->t.AllocateCommandBuffers(device, info, out);
  if (r == VK_SUCCESS && p) p->allocated(info, out);
  return r;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool pool, std::uint32_t count,
                                              const VkCommandBuffer* cbs) {
  std::shared_ptr<Device> d;
  if (Profiler* p = profiler_of(device, d)) p->freed(cbs, count);
  d->t.FreeCommandBuffers(device, pool, count, cbs);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo* info) {
  std::shared_ptr<Device> d;
  Profiler* p = profiler_of(cb, d);
  const VkResult r = d->t.BeginCommandBuffer(cb, info);
  if (r == VK_SUCCESS && p) {
    const Profiler::Clock clock(*p);
    p->began(cb);
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer cb) {
  std::shared_ptr<Device> d;
  if (Profiler* p = profiler_of(cb, d)) {
    const Profiler::Clock clock(*p);
    p->ending(cb);
  }
  return d->t.EndCommandBuffer(cb);
}

// A command bracketed by what the profiler does before and after it.
template <typename Call>
void bracketed(VkCommandBuffer cb, void (Profiler::*before)(VkCommandBuffer), void (Profiler::*after)(VkCommandBuffer),
               Call&& call) {
  std::shared_ptr<Device> d;
  Profiler* p = profiler_of(cb, d);
  if (p && before) {
    const Profiler::Clock clock(*p);
    (p->*before)(cb);
  }
  call(d->t);
  if (p && after) {
    const Profiler::Clock clock(*p);
    (p->*after)(cb);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass(VkCommandBuffer cb, const VkRenderPassBeginInfo* info,
                                              VkSubpassContents contents) {
  bracketed(cb, nullptr, &Profiler::render_pass_began,
            [&](const layer::DeviceTable& t) { t.CmdBeginRenderPass(cb, info, contents); });
}
template <PFN_vkCmdBeginRenderPass2 layer::DeviceTable::*Next>
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2(VkCommandBuffer cb, const VkRenderPassBeginInfo* info,
                                               const VkSubpassBeginInfo* subpass) {
  bracketed(cb, nullptr, &Profiler::render_pass_began,
            [&](const layer::DeviceTable& t) { (t.*Next)(cb, info, subpass); });
}
template <PFN_vkCmdBeginRendering layer::DeviceTable::*Next>
VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer cb, const VkRenderingInfo* info) {
  bracketed(cb, nullptr, &Profiler::render_pass_began, [&](const layer::DeviceTable& t) { (t.*Next)(cb, info); });
}
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass(VkCommandBuffer cb) {
  bracketed(cb, &Profiler::render_pass_ending, nullptr, [&](const layer::DeviceTable& t) { t.CmdEndRenderPass(cb); });
}
template <PFN_vkCmdEndRenderPass2 layer::DeviceTable::*Next>
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2(VkCommandBuffer cb, const VkSubpassEndInfo* info) {
  bracketed(cb, &Profiler::render_pass_ending, nullptr, [&](const layer::DeviceTable& t) { (t.*Next)(cb, info); });
}
template <PFN_vkCmdEndRendering layer::DeviceTable::*Next>
VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer cb) {
  bracketed(cb, &Profiler::render_pass_ending, nullptr, [&](const layer::DeviceTable& t) { (t.*Next)(cb); });
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, std::uint32_t count, const VkSubmitInfo* submits,
                                           VkFence fence) {
  std::shared_ptr<Device> d;
  if (Profiler* p = profiler_of(queue, d)) {
    const Profiler::Clock clock(*p);
    for (std::uint32_t i = 0; i < count; ++i) p->submitting(submits[i].pCommandBuffers, submits[i].commandBufferCount);
  }
  return d->t.QueueSubmit(queue, count, submits, fence);
}

template <PFN_vkQueueSubmit2 layer::DeviceTable::*Next>
VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, std::uint32_t count, const VkSubmitInfo2* submits,
                                            VkFence fence) {
  std::shared_ptr<Device> d;
  if (Profiler* p = profiler_of(queue, d)) {
    const Profiler::Clock clock(*p);
    for (std::uint32_t i = 0; i < count; ++i) {
      std::vector<VkCommandBuffer> cbs;
      for (std::uint32_t j = 0; j < submits[i].commandBufferInfoCount; ++j)
        cbs.push_back(submits[i].pCommandBufferInfos[j].commandBuffer);
      p->submitting(cbs.data(), static_cast<std::uint32_t>(cbs.size()));
    }
  }
  return (d->t.*Next)(queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* info) {
  std::shared_ptr<Device> d;
  Profiler* p = profiler_of(queue, d);
  const VkResult r = d->t.QueuePresentKHR(queue, info);
  if (p) {
    const Profiler::Clock clock(*p);
    p->presented();
  }
  return r;
}

// A replay (trak-replay) presents nothing: it marks each frame's end with a
// queue label instead.
VKAPI_ATTR void VKAPI_CALL QueueInsertDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT* label) {
  std::shared_ptr<Device> d;
  Profiler* p = profiler_of(queue, d);
  if (d && d->t.QueueInsertDebugUtilsLabelEXT) d->t.QueueInsertDebugUtilsLabelEXT(queue, label);
  if (p && label && label->pLabelName && std::strcmp(label->pLabelName, vktrace::kFrameEndLabel) == 0) {
    const Profiler::Clock clock(*p);
    p->presented();
  }
}

constexpr auto entry = [](auto f) { return layer::hook_fn(f); };

const layer::Hook kProfilingHooks[] = {
    {"vkAllocateCommandBuffers", entry(AllocateCommandBuffers)},
    {"vkFreeCommandBuffers", entry(FreeCommandBuffers)},
    {"vkBeginCommandBuffer", entry(BeginCommandBuffer)},
    {"vkEndCommandBuffer", entry(EndCommandBuffer)},
    {"vkCmdBeginRenderPass", entry(CmdBeginRenderPass)},
    {"vkCmdBeginRenderPass2", entry(CmdBeginRenderPass2<&layer::DeviceTable::CmdBeginRenderPass2>)},
    {"vkCmdBeginRenderPass2KHR", entry(CmdBeginRenderPass2<&layer::DeviceTable::CmdBeginRenderPass2KHR>)},
    {"vkCmdBeginRendering", entry(CmdBeginRendering<&layer::DeviceTable::CmdBeginRendering>)},
    {"vkCmdBeginRenderingKHR", entry(CmdBeginRendering<&layer::DeviceTable::CmdBeginRenderingKHR>)},
    {"vkCmdEndRenderPass", entry(CmdEndRenderPass)},
    {"vkCmdEndRenderPass2", entry(CmdEndRenderPass2<&layer::DeviceTable::CmdEndRenderPass2>)},
    {"vkCmdEndRenderPass2KHR", entry(CmdEndRenderPass2<&layer::DeviceTable::CmdEndRenderPass2KHR>)},
    {"vkCmdEndRendering", entry(CmdEndRendering<&layer::DeviceTable::CmdEndRendering>)},
    {"vkCmdEndRenderingKHR", entry(CmdEndRendering<&layer::DeviceTable::CmdEndRenderingKHR>)},
    {"vkQueueSubmit", entry(QueueSubmit)},
    {"vkQueueSubmit2", entry(QueueSubmit2<&layer::DeviceTable::QueueSubmit2>)},
    {"vkQueueSubmit2KHR", entry(QueueSubmit2<&layer::DeviceTable::QueueSubmit2KHR>)},
    {"vkQueuePresentKHR", entry(QueuePresentKHR)},
    {"vkQueueInsertDebugUtilsLabelEXT", entry(QueueInsertDebugUtilsLabelEXT)},
};

}  // namespace

DrawScope::DrawScope(VkCommandBuffer cb) : cb_(cb), device_(device_of(cb)) {
  if (Profiler* p = device_->profiler.get()) {
    const Profiler::Clock clock(*p);
    p->draw_before(cb_);
  }
}

DrawScope::~DrawScope() {
  if (Profiler* p = device_->profiler.get()) {
    const Profiler::Clock clock(*p);
    p->draw_after(cb_);
  }
}

PFN_vkVoidFunction profiling_hook(const char* name, ProfileOptions::Per per) {
  if (const PFN_vkVoidFunction f = layer::find_hook(kProfilingHooks, name)) return f;
  return per == ProfileOptions::draw ? layer::find_hook(draw_hooks(), name) : nullptr;
}

}  // namespace libtrace::gpa
