// SPDX-License-Identifier: MIT
// What a trimmed capture's state needs beyond the kept calls, tracked from
// the start (each hook does nothing unless a trimmed capture is asked for):
// images and their layouts (from the barriers and render passes of the
// command buffers submitted), fences, events and timeline semaphores; and
// TRANSFER_SRC usage added to buffers and images, so that the layer can
// read their contents back where the range starts.
#include <algorithm>
#include <memory>

#include "capture/trace/hooks.hpp"
#include "capture/trace/trim.hpp"

namespace libtrace::capture::trace {

namespace {

DeviceTrace* trimmed(Call& c) { return trim_asked() ? trace_of(c) : nullptr; }

// ---- objects ----

void buffer_before(Call& c) {
  const auto* ci = arg<const VkBufferCreateInfo*>(c, 1);
  if (!trimmed(c) || !ci || (ci->usage & VK_BUFFER_USAGE_TRANSFER_SRC_BIT)) return;
  auto copy = std::make_shared<VkBufferCreateInfo>(*ci);
  copy->usage |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  arg<const VkBufferCreateInfo*>(c, 1) = copy.get();
  c.keep = std::move(copy);
}

void image_before(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* ci = arg<const VkImageCreateInfo*>(c, 1);
  if (!dt || !ci || (ci->usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT)) return;
  // Not where it would change what the image may be: transient attachments,
  // formats the device cannot copy from.
  if (ci->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) return;
  const auto inst = find_instance(dt->gpu);
  VkFormatProperties props{};
  if (!inst) return;
  inst->t.GetPhysicalDeviceFormatProperties(dt->gpu, ci->format, &props);
  const VkFormatFeatureFlags features =
      ci->tiling == VK_IMAGE_TILING_LINEAR ? props.linearTilingFeatures : props.optimalTilingFeatures;
  if (!(features & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT)) return;
  auto copy = std::make_shared<VkImageCreateInfo>(*ci);
  copy->usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  arg<const VkImageCreateInfo*>(c, 1) = copy.get();
  c.keep = std::move(copy);
}

void image_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* ci = arg<const VkImageCreateInfo*>(c, 1);  // the layer's copy where it added usage
  if (!dt || !ok(c) || !ci) return;
  ImageInfo info;
  info.type = ci->imageType;
  info.format = ci->format;
  info.extent = ci->extent;
  info.mips = ci->mipLevels;
  info.layers = ci->arrayLayers;
  info.samples = ci->samples;
  info.tiling = ci->tiling;
  info.readable = (ci->usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
  constexpr VkImageUsageFlags kAttachment = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                            VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
  // The application's usage: without what the layer added (image_before's copy).
  const VkImageUsageFlags asked = c.keep ? ci->usage & ~VkImageUsageFlags{VK_IMAGE_USAGE_TRANSFER_SRC_BIT} : ci->usage;
  info.attachment_only = (asked & kAttachment) && !(asked & ~kAttachment);
  const std::uint64_t image = handle_bits(*arg<VkImage*>(c, 3));
  const std::lock_guard lock(dt->mu);
  dt->images[image] = info;
  dt->layouts[image] = ci->initialLayout;
}

void fence_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* ci = arg<const VkFenceCreateInfo*>(c, 1);
  if (!dt || !ok(c) || !ci) return;
  const std::lock_guard lock(dt->mu);
  dt->fences[handle_bits(*arg<VkFence*>(c, 3))] = (ci->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0;
}

void semaphore_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* ci = arg<const VkSemaphoreCreateInfo*>(c, 1);
  if (!dt || !ok(c) || !ci) return;
  for (const auto* p = static_cast<const VkBaseInStructure*>(ci->pNext); p; p = p->pNext) {
    if (p->sType != VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO) continue;
    const auto* type = reinterpret_cast<const VkSemaphoreTypeCreateInfo*>(p);
    if (type->semaphoreType != VK_SEMAPHORE_TYPE_TIMELINE) return;
    const std::lock_guard lock(dt->mu);
    dt->timelines[handle_bits(*arg<VkSemaphore*>(c, 3))] = type->initialValue;
  }
}

void event_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  if (!dt || !ok(c)) return;
  const std::lock_guard lock(dt->mu);
  dt->events.insert(handle_bits(*arg<VkEvent*>(c, 3)));
}

template <std::size_t I>
void forget_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  if (!dt) return;
  const std::uint64_t h = arg<std::uint64_t>(c, 1);
  const std::lock_guard lock(dt->mu);
  if constexpr (I == 0) dt->fences.erase(h);
  if constexpr (I == 1) dt->timelines.erase(h);
  if constexpr (I == 2) dt->events.erase(h);
  if constexpr (I == 3) dt->render_passes.erase(h);
  if constexpr (I == 4) dt->framebuffers.erase(h);
}

template <typename Info>
void render_pass_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* ci = arg<const Info*>(c, 1);
  if (!dt || !ok(c) || !ci) return;
  std::vector<AttachmentUse> uses;
  for (std::uint32_t i = 0; i < ci->attachmentCount; ++i) {
    const auto& a = ci->pAttachments[i];
    uses.push_back(
        {a.finalLayout, a.loadOp == VK_ATTACHMENT_LOAD_OP_LOAD || a.stencilLoadOp == VK_ATTACHMENT_LOAD_OP_LOAD});
  }
  const std::lock_guard lock(dt->mu);
  dt->render_passes[handle_bits(*arg<VkRenderPass*>(c, 3))] = std::move(uses);
}

void framebuffer_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* ci = arg<const VkFramebufferCreateInfo*>(c, 1);
  if (!dt || !ok(c) || !ci) return;
  std::vector<std::uint64_t> views;
  if (!(ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) && ci->pAttachments)
    for (std::uint32_t i = 0; i < ci->attachmentCount; ++i) views.push_back(handle_bits(ci->pAttachments[i]));
  const std::lock_guard lock(dt->mu);
  dt->framebuffers[handle_bits(*arg<VkFramebuffer*>(c, 3))] = std::move(views);
}

// ---- layouts, as the recorded commands leave them ----

void add_layouts(DeviceTrace& dt, VkCommandBuffer cmd, const std::vector<std::pair<std::uint64_t, VkImageLayout>>& l) {
  if (l.empty()) return;
  const std::lock_guard lock(dt.mu);
  auto& v = dt.commands[cmd].layouts;
  v.insert(v.end(), l.begin(), l.end());
}

void barrier_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  if (!dt) return;
  // vkCmdPipelineBarrier(cmd, src, dst, deps, nMem, pMem, nBuf, pBuf, nImg, pImg);
  // vkCmdWaitEvents(cmd, nEvents, pEvents, src, dst, nMem, pMem, nBuf, pBuf, nImg, pImg).
  const bool wait = std::string_view(c.info.cmd->name()) == "vkCmdWaitEvents";
  const std::uint32_t n = arg<std::uint32_t>(c, wait ? 9 : 8);
  const auto* b = arg<const VkImageMemoryBarrier*>(c, wait ? 10 : 9);
  std::vector<std::pair<std::uint64_t, VkImageLayout>> l;
  for (std::uint32_t i = 0; b && i < n; ++i) l.emplace_back(handle_bits(b[i].image), b[i].newLayout);
  add_layouts(*dt, arg<VkCommandBuffer>(c, 0), l);
}

void dependency_layouts(std::vector<std::pair<std::uint64_t, VkImageLayout>>& l, const VkDependencyInfo* d) {
  for (std::uint32_t i = 0; d && i < d->imageMemoryBarrierCount; ++i)
    l.emplace_back(handle_bits(d->pImageMemoryBarriers[i].image), d->pImageMemoryBarriers[i].newLayout);
}

void barrier2_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  if (!dt) return;
  std::vector<std::pair<std::uint64_t, VkImageLayout>> l;
  dependency_layouts(l, arg<const VkDependencyInfo*>(c, 1));
  add_layouts(*dt, arg<VkCommandBuffer>(c, 0), l);
}

void wait_events2_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  if (!dt) return;
  std::vector<std::pair<std::uint64_t, VkImageLayout>> l;
  const auto* deps = arg<const VkDependencyInfo*>(c, 3);
  for (std::uint32_t i = 0; deps && i < arg<std::uint32_t>(c, 1); ++i) dependency_layouts(l, &deps[i]);
  add_layouts(*dt, arg<VkCommandBuffer>(c, 0), l);
}

void begin_render_pass_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* info = arg<const VkRenderPassBeginInfo*>(c, 1);
  if (!dt || !info) return;
  std::vector<std::uint64_t> views;
  for (const auto* p = static_cast<const VkBaseInStructure*>(info->pNext); p; p = p->pNext)
    if (p->sType == VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO) {
      const auto* a = reinterpret_cast<const VkRenderPassAttachmentBeginInfo*>(p);
      for (std::uint32_t i = 0; i < a->attachmentCount; ++i) views.push_back(handle_bits(a->pAttachments[i]));
    }
  std::vector<std::pair<std::uint64_t, VkImageLayout>> l;
  {
    const std::lock_guard lock(dt->mu);
    const auto rp = dt->render_passes.find(handle_bits(info->renderPass));
    const auto fb = dt->framebuffers.find(handle_bits(info->framebuffer));
    if (rp == dt->render_passes.end()) return;
    if (views.empty() && fb != dt->framebuffers.end()) views = fb->second;
    for (std::size_t i = 0; i < views.size() && i < rp->second.size(); ++i) {
      const auto v = dt->view_of.find(views[i]);
      if (v == dt->view_of.end()) continue;
      l.emplace_back(v->second, rp->second[i].final_layout);
      if (rp->second[i].loads)
        if (const auto img = dt->images.find(v->second); img != dt->images.end()) img->second.loaded = true;
    }
  }
  add_layouts(*dt, arg<VkCommandBuffer>(c, 0), l);
}

// Dynamic rendering: layouts do not change, but an attachment may be loaded.
void begin_rendering_after(Call& c) {
  DeviceTrace* dt = trimmed(c);
  const auto* info = arg<const VkRenderingInfo*>(c, 1);
  if (!dt || !info) return;
  std::vector<const VkRenderingAttachmentInfo*> loads;
  for (std::uint32_t i = 0; info->pColorAttachments && i < info->colorAttachmentCount; ++i)
    loads.push_back(&info->pColorAttachments[i]);
  loads.push_back(info->pDepthAttachment);
  loads.push_back(info->pStencilAttachment);
  const std::lock_guard lock(dt->mu);
  for (const VkRenderingAttachmentInfo* a : loads) {
    if (!a || a->loadOp != VK_ATTACHMENT_LOAD_OP_LOAD) continue;
    const auto v = dt->view_of.find(handle_bits(a->imageView));
    if (v == dt->view_of.end()) continue;
    if (const auto img = dt->images.find(v->second); img != dt->images.end()) img->second.loaded = true;
  }
}

struct Named {
  const char* name;
  Hooks hooks;
};

// Sorted by name.
const Named kTrimHooks[] = {
    {"vkCmdBeginRenderPass", {nullptr, nullptr, begin_render_pass_after}},
    {"vkCmdBeginRenderPass2", {nullptr, nullptr, begin_render_pass_after}},
    {"vkCmdBeginRenderPass2KHR", {nullptr, nullptr, begin_render_pass_after}},
    {"vkCmdBeginRendering", {nullptr, nullptr, begin_rendering_after}},
    {"vkCmdBeginRenderingKHR", {nullptr, nullptr, begin_rendering_after}},
    {"vkCmdPipelineBarrier", {nullptr, nullptr, barrier_after}},
    {"vkCmdPipelineBarrier2", {nullptr, nullptr, barrier2_after}},
    {"vkCmdPipelineBarrier2KHR", {nullptr, nullptr, barrier2_after}},
    {"vkCmdWaitEvents", {nullptr, nullptr, barrier_after}},
    {"vkCmdWaitEvents2", {nullptr, nullptr, wait_events2_after}},
    {"vkCmdWaitEvents2KHR", {nullptr, nullptr, wait_events2_after}},
    {"vkCreateEvent", {nullptr, nullptr, event_after}},
    {"vkCreateFence", {nullptr, nullptr, fence_after}},
    {"vkCreateFramebuffer", {nullptr, nullptr, framebuffer_after}},
    {"vkCreateImage", {nullptr, image_before, image_after}},
    {"vkCreateRenderPass", {nullptr, nullptr, render_pass_after<VkRenderPassCreateInfo>}},
    {"vkCreateRenderPass2", {nullptr, nullptr, render_pass_after<VkRenderPassCreateInfo2>}},
    {"vkCreateRenderPass2KHR", {nullptr, nullptr, render_pass_after<VkRenderPassCreateInfo2>}},
    {"vkCreateSemaphore", {nullptr, nullptr, semaphore_after}},
    {"vkDestroyEvent", {nullptr, nullptr, forget_after<2>}},
    {"vkDestroyFence", {nullptr, nullptr, forget_after<0>}},
    {"vkDestroyFramebuffer", {nullptr, nullptr, forget_after<4>}},
    {"vkDestroyRenderPass", {nullptr, nullptr, forget_after<3>}},
    {"vkDestroySemaphore", {nullptr, nullptr, forget_after<1>}},
};

}  // namespace

const Hooks* find_trim_hooks(const char* name) {
  const Named* n = find_named(std::span<const Named>(kTrimHooks), name);
  return n ? &n->hooks : nullptr;
}

void trim_buffer_before(Call& c) { buffer_before(c); }

void apply_layouts(DeviceTrace& dt, const std::vector<VkCommandBuffer>& submitted) {
  if (!trim_asked()) return;
  const std::lock_guard lock(dt.mu);
  for (const VkCommandBuffer cmd : submitted)
    if (const auto r = dt.commands.find(cmd); r != dt.commands.end())
      for (const auto& [image, layout] : r->second.layouts) dt.layouts[image] = layout;
}

}  // namespace libtrace::capture::trace
