// SPDX-License-Identifier: MIT
// What a submit may read from memory the host writes: the objects its
// command buffers name (recorded while each command is encoded, through
// descriptor sets, image and buffer views and secondary command buffers),
// and buffers whose device address was taken. Their host writes are
// diffed and recorded before the submit.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "capture/trace/hooks.hpp"

namespace libtrace::capture::trace {

namespace {

// Whatever the host wrote reaches the stream before the work that reads it.
void submit_before(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* submits = arg<const VkSubmitInfo*>(c, 2);
  if (!dt || !submits) return;
  std::vector<VkCommandBuffer> cmds;
  for (std::uint32_t i = 0; i < arg<std::uint32_t>(c, 1); ++i)
    cmds.insert(cmds.end(), submits[i].pCommandBuffers, submits[i].pCommandBuffers + submits[i].commandBufferCount);
  dt->record_host_writes(cmds);
  apply_layouts(*dt, cmds);
}
void submit2_before(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* submits = arg<const VkSubmitInfo2*>(c, 2);
  if (!dt || !submits) return;
  std::vector<VkCommandBuffer> cmds;
  for (std::uint32_t i = 0; i < arg<std::uint32_t>(c, 1); ++i)
    for (std::uint32_t k = 0; k < submits[i].commandBufferInfoCount; ++k)
      cmds.push_back(submits[i].pCommandBufferInfos[k].commandBuffer);
  dt->record_host_writes(cmds);
  apply_layouts(*dt, cmds);
}
void sparse_before(Call& c) {
  if (DeviceTrace* dt = trace_of(c)) dt->record_host_writes();
}

// ---- what command buffers name ----

void begin_before(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  const std::lock_guard lock(dt->mu);
  CommandRecord& r = dt->commands[arg<VkCommandBuffer>(c, 0)];
  r.touched.clear();
  r.layouts.clear();
}

void allocate_commands_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* ai = arg<const VkCommandBufferAllocateInfo*>(c, 1);
  if (!dt || !ok(c) || !ai) return;
  const std::lock_guard lock(dt->mu);
  for (std::uint32_t i = 0; i < ai->commandBufferCount; ++i)
    dt->commands[arg<VkCommandBuffer*>(c, 2)[i]].pool = ai->commandPool;
}

void free_commands_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const VkCommandBuffer* cmds = arg<const VkCommandBuffer*>(c, 3);
  if (!dt || !cmds) return;
  const std::lock_guard lock(dt->mu);
  for (std::uint32_t i = 0; i < arg<std::uint32_t>(c, 2); ++i) dt->commands.erase(cmds[i]);
}

void destroy_pool_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  const VkCommandPool pool = arg<VkCommandPool>(c, 1);
  const std::lock_guard lock(dt->mu);
  std::erase_if(dt->commands, [&](const auto& r) { return r.second.pool == pool; });
}

void add_set_content(DeviceTrace& dt, std::uint64_t set, const Touched& t) {
  auto& v = dt.set_contents[set];
  v.push_back(t);
  if (v.size() > 4096) {  // a set written again and again: keep each object once
    std::sort(v.begin(), v.end(), [](const Touched& a, const Touched& b) { return a.handle < b.handle; });
    v.erase(std::unique(v.begin(), v.end(), [](const Touched& a, const Touched& b) { return a.handle == b.handle; }),
            v.end());
  }
}

void update_sets_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  const auto* writes = arg<const VkWriteDescriptorSet*>(c, 2);
  const auto* copies = arg<const VkCopyDescriptorSet*>(c, 4);
  const std::lock_guard lock(dt->mu);
  for (std::uint32_t i = 0; writes && i < arg<std::uint32_t>(c, 1); ++i) {
    const VkWriteDescriptorSet& w = writes[i];
    const auto set = handle_bits(w.dstSet);
    for (std::uint32_t k = 0; k < w.descriptorCount; ++k) {
      switch (w.descriptorType) {
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
          if (w.pBufferInfo) add_set_content(*dt, set, {handle_bits(w.pBufferInfo[k].buffer), Kind::buffer});
          break;
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
          if (w.pTexelBufferView) add_set_content(*dt, set, {handle_bits(w.pTexelBufferView[k]), Kind::buffer_view});
          break;
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
          if (w.pImageInfo) add_set_content(*dt, set, {handle_bits(w.pImageInfo[k].imageView), Kind::image_view});
          break;
        default: break;
      }
    }
  }
  for (std::uint32_t i = 0; copies && i < arg<std::uint32_t>(c, 3); ++i) {
    const auto src = dt->set_contents.find(handle_bits(copies[i].srcSet));
    if (src == dt->set_contents.end()) continue;
    const std::vector<Touched> from = src->second;
    for (const Touched& t : from) add_set_content(*dt, handle_bits(copies[i].dstSet), t);
  }
}

void update_set_template_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const char* data = arg<const char*>(c, 3);
  if (!dt || !data) return;
  const std::lock_guard lock(dt->mu);
  const auto t = dt->templates.find(arg<std::uint64_t>(c, 2));
  if (t == dt->templates.end()) return;
  const std::uint64_t set = arg<std::uint64_t>(c, 1);
  for (const TemplateEntry& e : t->second) {
    for (std::uint32_t k = 0; k < e.count && e.type != VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK; ++k) {
      const char* x = data + e.offset + k * e.stride;
      switch (e.type) {
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
          add_set_content(*dt, set,
                          {handle_bits(reinterpret_cast<const VkDescriptorBufferInfo*>(x)->buffer), Kind::buffer});
          break;
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
          add_set_content(*dt, set, {handle_bits(*reinterpret_cast<const VkBufferView*>(x)), Kind::buffer_view});
          break;
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
          add_set_content(
              *dt, set, {handle_bits(reinterpret_cast<const VkDescriptorImageInfo*>(x)->imageView), Kind::image_view});
          break;
        default: break;
      }
    }
  }
}

void image_view_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* ci = arg<const VkImageViewCreateInfo*>(c, 1);
  if (!dt || !ok(c) || !ci) return;
  const std::lock_guard lock(dt->mu);
  dt->view_of[handle_bits(*arg<VkImageView*>(c, 3))] = handle_bits(ci->image);
}

void buffer_view_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* ci = arg<const VkBufferViewCreateInfo*>(c, 1);
  if (!dt || !ok(c) || !ci) return;
  const std::lock_guard lock(dt->mu);
  dt->view_of[handle_bits(*arg<VkBufferView*>(c, 3))] = handle_bits(ci->buffer);
}

// A buffer the device reaches by address may be read by any submit.
void address_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* info = arg<const VkBufferDeviceAddressInfo*>(c, 1);
  if (!dt || !info) return;
  const std::lock_guard lock(dt->mu);
  dt->addressed.insert(handle_bits(info->buffer));
}

// ---- descriptor update templates ----

void template_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* ci = arg<const VkDescriptorUpdateTemplateCreateInfo*>(c, 1);
  if (!dt || !ok(c) || !ci) return;
  std::vector<TemplateEntry> entries;
  for (std::uint32_t i = 0; i < ci->descriptorUpdateEntryCount; ++i)
    entries.push_back(vktrace::template_entry(ci->pDescriptorUpdateEntries[i]));
  const std::lock_guard lock(dt->mu);
  dt->templates[handle_bits(*arg<VkDescriptorUpdateTemplate*>(c, 3))] = std::move(entries);
}

void template_destroy_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  const std::lock_guard lock(dt->mu);
  dt->templates.erase(arg<std::uint64_t>(c, 1));
}

struct Named {
  const char* name;
  Hooks hooks;
};

// Sorted by name.
const Named kCommandHooks[] = {
    {"vkAllocateCommandBuffers", {nullptr, nullptr, allocate_commands_after}},
    {"vkBeginCommandBuffer", {begin_before, nullptr, nullptr}},
    {"vkCreateBufferView", {nullptr, nullptr, buffer_view_after}},
    {"vkCreateDescriptorUpdateTemplate", {nullptr, nullptr, template_after}},
    {"vkCreateDescriptorUpdateTemplateKHR", {nullptr, nullptr, template_after}},
    {"vkCreateImageView", {nullptr, nullptr, image_view_after}},
    {"vkDestroyCommandPool", {nullptr, nullptr, destroy_pool_after}},
    {"vkDestroyDescriptorUpdateTemplate", {nullptr, nullptr, template_destroy_after}},
    {"vkDestroyDescriptorUpdateTemplateKHR", {nullptr, nullptr, template_destroy_after}},
    {"vkFreeCommandBuffers", {nullptr, nullptr, free_commands_after}},
    {"vkGetBufferDeviceAddress", {nullptr, nullptr, address_after}},
    {"vkGetBufferDeviceAddressEXT", {nullptr, nullptr, address_after}},
    {"vkGetBufferDeviceAddressKHR", {nullptr, nullptr, address_after}},
    {"vkQueueBindSparse", {sparse_before, nullptr, nullptr}},
    {"vkQueueSubmit", {submit_before, nullptr, nullptr}},
    {"vkQueueSubmit2", {submit2_before, nullptr, nullptr}},
    {"vkQueueSubmit2KHR", {submit2_before, nullptr, nullptr}},
    {"vkUpdateDescriptorSetWithTemplate", {nullptr, nullptr, update_set_template_after}},
    {"vkUpdateDescriptorSetWithTemplateKHR", {nullptr, nullptr, update_set_template_after}},
    {"vkUpdateDescriptorSets", {nullptr, nullptr, update_sets_after}},
};

}  // namespace

const Hooks* find_command_hooks(const char* name) {
  const Named* n = find_named(std::span<const Named>(kCommandHooks), name);
  return n ? &n->hooks : find_trim_hooks(name);
}

bool template_entries(const void* dispatchable, std::uint64_t handle, std::vector<TemplateEntry>& out) {
  const auto d = find_device(dispatchable);
  if (!d || !d->trace) return false;
  const std::lock_guard lock(d->trace->mu);
  const auto it = d->trace->templates.find(handle);
  if (it == d->trace->templates.end()) return false;
  out = it->second;
  return true;
}

}  // namespace libtrace::capture::trace
