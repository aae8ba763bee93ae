// SPDX-License-Identifier: MIT
// Values that drivers trust and no count or handle check catches: binding
// numbers and array ranges against the set layout they index, first/count
// pairs against the device's limits, view masks against its view count. A
// driver given one out of range indexes past its own arrays (lavapipe
// crashes on a dstBinding its layout lacks); a damaged capture stops here
// instead, naming the value. The layouts are the replay's own objects,
// remembered when they are made.
#include <volk.h>

#include <algorithm>

#include "libtrace/vk/device.hpp"
#include "replay/trace/replayer.hpp"

namespace libtrace::replay_trace {

namespace {

// `limit_name` says whose limit it is: "this device's maxViewports".
std::string first_count(const char* first_name, std::uint64_t first, const char* count_name, std::uint64_t count,
                        const char* limit_name, std::uint64_t limit) {
  if (first + count <= limit) return "";
  const std::string n = std::string(count_name) + " " + std::to_string(count);
  return (first_name ? std::string(first_name) + " " + std::to_string(first) + " + " + n + " is past "
                     : n + " is more than ") +
         limit_name + " (" + std::to_string(limit) + ")";
}

const void* find_in_chain(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext)
    if (s->sType == type) return s;
  return nullptr;
}

}  // namespace

std::string SetLayoutInfo::range(const char* what, std::uint32_t binding, std::uint32_t element,
                                 std::uint32_t count) const {
  auto b = std::lower_bound(bindings.begin(), bindings.end(), std::make_pair(binding, std::uint32_t{0}));
  if (b == bindings.end() || b->first != binding)
    return std::string(what) + " " + std::to_string(binding) + " is not in its set's layout";
  // Past the end of one binding an update goes on into the next ones (the
  // spec's consecutive binding updates).
  const std::uint64_t end = std::uint64_t{element} + count;
  std::uint64_t room = 0;
  for (auto n = b; n != bindings.end() && room < end; ++n) room += n->second;
  if (end <= room) return "";
  return std::string(what) + " " + std::to_string(binding) + ": elements " + std::to_string(element) + " to " +
         std::to_string(std::uint64_t{element} + count - 1) + " are past the descriptors of its set's layout";
}

template <typename Check, typename After>
void Replayer::checked(const apitrace::Call& c, const registry::Command& cmd, Check&& check, After&& after) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);
  // With problems already, invoke() names the first of them.
  if (d.problems().empty())
    if (const std::string why = check(slots); !why.empty()) fail(c, why);
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r >= 0) {
    map_outputs(c, cmd, d, ptrs);
    after(slots);
  }
}

const VkPhysicalDeviceLimits& Replayer::limits() {
  if (!limits_known_ && gpu_) {
    VkPhysicalDeviceMultiviewProperties multiview{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES, nullptr, 0,
                                                  0};
    VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &multiview, {}};
    vkGetPhysicalDeviceProperties2(gpu_, &p);
    limits_ = p.properties.limits;
    max_views_ = std::max<std::uint32_t>(multiview.maxMultiviewViewCount, 1);
    limits_known_ = true;
  }
  return limits_;
}

std::string Replayer::view_mask(std::uint32_t mask) {
  limits();
  if (max_views_ >= 32 || (mask >> max_views_) == 0) return "";
  return "a viewMask (" + std::to_string(mask) + ") with views past this device's maxMultiviewViewCount (" +
         std::to_string(max_views_) + ")";
}

std::string Replayer::writes(const VkWriteDescriptorSet* w, std::uint32_t n, const SetLayoutInfo* push) {
  for (std::uint32_t i = 0; w && i < n; ++i) {
    const SetLayoutInfo* layout = push;
    if (!layout) {
      const auto s = sets_.find(vk::to_u64(w[i].dstSet));
      if (s == sets_.end()) continue;
      layout = s->second.get();
    }
    if (auto why = layout->range("dstBinding", w[i].dstBinding, w[i].dstArrayElement, w[i].descriptorCount);
        !why.empty())
      return "write " + std::to_string(i) + ": " + why;
  }
  return "";
}

void Replayer::create_set_layout(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd, [](const auto&) { return std::string(); },
      [&](const std::vector<std::uint64_t>& slots) {
        const auto* ci = vk::from_u64<const VkDescriptorSetLayoutCreateInfo*>(slots[1]);
        const auto* out = vk::from_u64<const VkDescriptorSetLayout*>(slots[3]);
        if (!ci || !out) return;
        auto info = std::make_shared<SetLayoutInfo>();
        for (std::uint32_t i = 0; ci->pBindings && i < ci->bindingCount; ++i)
          info->bindings.emplace_back(ci->pBindings[i].binding, ci->pBindings[i].descriptorCount);
        std::sort(info->bindings.begin(), info->bindings.end());
        set_layouts_[vk::to_u64(*out)] = std::move(info);
      });
}

void Replayer::allocate_sets(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd, [](const auto&) { return std::string(); },
      [&](const std::vector<std::uint64_t>& slots) {
        const auto* ai = vk::from_u64<const VkDescriptorSetAllocateInfo*>(slots[1]);
        const auto* out = vk::from_u64<const VkDescriptorSet*>(slots[2]);
        for (std::uint32_t i = 0; ai && out && ai->pSetLayouts && i < ai->descriptorSetCount; ++i)
          if (const auto l = set_layouts_.find(vk::to_u64(ai->pSetLayouts[i])); l != set_layouts_.end())
            sets_[vk::to_u64(out[i])] = l->second;
      });
}

void Replayer::create_pipeline_layout(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd, [](const auto&) { return std::string(); },
      [&](const std::vector<std::uint64_t>& slots) {
        const auto* ci = vk::from_u64<const VkPipelineLayoutCreateInfo*>(slots[1]);
        const auto* out = vk::from_u64<const VkPipelineLayout*>(slots[3]);
        if (!ci || !out) return;
        auto& sets = pipeline_layouts_[vk::to_u64(*out)];
        sets.clear();
        for (std::uint32_t i = 0; ci->pSetLayouts && i < ci->setLayoutCount; ++i) {
          const auto l = set_layouts_.find(vk::to_u64(ci->pSetLayouts[i]));
          sets.push_back(l == set_layouts_.end() ? nullptr : l->second);
        }
      });
}

void Replayer::update_sets(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        std::string why =
            writes(vk::from_u64<const VkWriteDescriptorSet*>(slots[2]), vk::from_u64<std::uint32_t>(slots[1]), nullptr);
        const auto* copies = vk::from_u64<const VkCopyDescriptorSet*>(slots[4]);
        for (std::uint32_t i = 0; why.empty() && copies && i < vk::from_u64<std::uint32_t>(slots[3]); ++i) {
          const VkCopyDescriptorSet& k = copies[i];
          const auto src = sets_.find(vk::to_u64(k.srcSet)), dst = sets_.find(vk::to_u64(k.dstSet));
          if (src != sets_.end())
            why = src->second->range("srcBinding", k.srcBinding, k.srcArrayElement, k.descriptorCount);
          if (why.empty() && dst != sets_.end())
            why = dst->second->range("dstBinding", k.dstBinding, k.dstArrayElement, k.descriptorCount);
          if (!why.empty()) why = "copy " + std::to_string(i) + ": " + why;
        }
        return why;
      },
      [](const auto&) {});
}

void Replayer::push_descriptors(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        const SetLayoutInfo* set =
            push_layout(vk::from_u64<VkPipelineLayout>(slots[2]), vk::from_u64<std::uint32_t>(slots[3]));
        if (!set) return std::string();
        return writes(vk::from_u64<const VkWriteDescriptorSet*>(slots[5]), vk::from_u64<std::uint32_t>(slots[4]), set);
      },
      [](const auto&) {});
}

const SetLayoutInfo* Replayer::push_layout(VkPipelineLayout layout, std::uint32_t set) const {
  const auto l = pipeline_layouts_.find(vk::to_u64(layout));
  if (l == pipeline_layouts_.end() || set >= l->second.size()) return nullptr;
  return l->second[set].get();
}

std::string Replayer::template_entries(const VkDescriptorUpdateTemplateCreateInfo& ci) {
  const SetLayoutInfo* layout = nullptr;
  if (ci.templateType == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR) {
    layout = push_layout(ci.pipelineLayout, ci.set);
  } else if (const auto l = set_layouts_.find(vk::to_u64(ci.descriptorSetLayout)); l != set_layouts_.end()) {
    layout = l->second.get();
  }
  for (std::uint32_t i = 0; layout && ci.pDescriptorUpdateEntries && i < ci.descriptorUpdateEntryCount; ++i) {
    const auto& e = ci.pDescriptorUpdateEntries[i];
    if (auto why = layout->range("dstBinding", e.dstBinding, e.dstArrayElement, e.descriptorCount); !why.empty())
      return "entry " + std::to_string(i) + ": " + why;
  }
  return "";
}

void Replayer::bind_sets(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        const auto l = pipeline_layouts_.find(vk::to_u64(vk::from_u64<VkPipelineLayout>(slots[2])));
        if (l == pipeline_layouts_.end()) return std::string();
        return first_count("firstSet", vk::from_u64<std::uint32_t>(slots[3]), "descriptorSetCount",
                           vk::from_u64<std::uint32_t>(slots[4]), "its pipeline layout's setLayoutCount",
                           l->second.size());
      },
      [](const auto&) {});
}

void Replayer::bind_vertex_buffers(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        return first_count("firstBinding", vk::from_u64<std::uint32_t>(slots[1]), "bindingCount",
                           vk::from_u64<std::uint32_t>(slots[2]), "this device's maxVertexInputBindings",
                           limits().maxVertexInputBindings);
      },
      [](const auto&) {});
}

void Replayer::set_viewports(const apitrace::Call& c, const registry::Command& cmd) {
  // vkCmdSetViewport/Scissor(cb, first, count, ...), the WithCount ones (cb, count, ...).
  const bool with_count = cmd.params().size() == 3;
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        return with_count ? first_count(nullptr, 0, "count", vk::from_u64<std::uint32_t>(slots[1]),
                                        "this device's maxViewports", limits().maxViewports)
                          : first_count("first", vk::from_u64<std::uint32_t>(slots[1]), "count",
                                        vk::from_u64<std::uint32_t>(slots[2]), "this device's maxViewports",
                                        limits().maxViewports);
      },
      [](const auto&) {});
}

void Replayer::push_constants(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        return first_count("offset", vk::from_u64<std::uint32_t>(slots[3]), "size",
                           vk::from_u64<std::uint32_t>(slots[4]), "this device's maxPushConstantsSize",
                           limits().maxPushConstantsSize);
      },
      [](const auto&) {});
}

void Replayer::begin_rendering(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        const auto* ri = vk::from_u64<const VkRenderingInfo*>(slots[1]);
        if (!ri) return std::string();
        std::string why = view_mask(ri->viewMask);
        if (why.empty())
          why = first_count(nullptr, 0, "colorAttachmentCount", ri->colorAttachmentCount,
                            "this device's maxColorAttachments", limits().maxColorAttachments);
        return why;
      },
      [](const auto&) {});
}

void Replayer::create_render_pass(const apitrace::Call& c, const registry::Command& cmd) {
  const bool two = std::string_view(cmd.name()).starts_with("vkCreateRenderPass2");
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        std::string why;
        if (two) {
          const auto* ci = vk::from_u64<const VkRenderPassCreateInfo2*>(slots[1]);
          for (std::uint32_t i = 0; ci && ci->pSubpasses && why.empty() && i < ci->subpassCount; ++i)
            why = view_mask(ci->pSubpasses[i].viewMask);
        } else if (const auto* ci = vk::from_u64<const VkRenderPassCreateInfo*>(slots[1])) {
          const auto* mv = static_cast<const VkRenderPassMultiviewCreateInfo*>(
              find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO));
          for (std::uint32_t i = 0; mv && mv->pViewMasks && why.empty() && i < mv->subpassCount; ++i)
            why = view_mask(mv->pViewMasks[i]);
        }
        return why;
      },
      [](const auto&) {});
}

void Replayer::create_graphics_pipelines(const apitrace::Call& c, const registry::Command& cmd) {
  checked(
      c, cmd,
      [&](const std::vector<std::uint64_t>& slots) {
        const auto* ci = vk::from_u64<const VkGraphicsPipelineCreateInfo*>(slots[3]);
        std::string why;
        for (std::uint32_t i = 0; ci && why.empty() && i < vk::from_u64<std::uint32_t>(slots[2]); ++i) {
          const auto* r = static_cast<const VkPipelineRenderingCreateInfo*>(
              find_in_chain(ci[i].pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO));
          if (r) why = view_mask(r->viewMask);
          if (why.empty() && r)
            why = first_count(nullptr, 0, "colorAttachmentCount", r->colorAttachmentCount,
                              "this device's maxColorAttachments", limits().maxColorAttachments);
          if (!why.empty()) why = "pipeline " + std::to_string(i) + ": " + why;
        }
        return why;
      },
      [](const auto&) {});
}

}  // namespace libtrace::replay_trace
