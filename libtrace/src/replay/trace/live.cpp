// SPDX-License-Identifier: MIT
// The objects the capture made and has not destroyed. A program may leave
// them to the process's end, and a replay stopped by an error leaves what
// the rest of the stream would have destroyed: they are destroyed before
// their device or instance goes, newest first, as a driver frees nothing a
// destroyed device still held (and leak checkers, the fuzz target's, see
// each one).
#include <volk.h>

#include <cstring>

#include "replay/trace/replayer.hpp"

namespace libtrace::replay_trace {

namespace {

bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

const registry::Command* Replayer::destroyer(const registry::Member& m) {
  const std::string_view type = m.type_name();
  const auto [it, fresh] = destroyers_.try_emplace(type, nullptr);
  if (!fresh) return it->second;
  // Dispatchable handles have destroy calls of their own (or none); what a
  // pool frees, and what the replay makes its own way (swapchains, surfaces,
  // memory, the pipeline cache --pipeline-cache saves), is not followed.
  for (std::string_view own :
       {"VkInstance", "VkPhysicalDevice", "VkDevice", "VkQueue", "VkCommandBuffer", "VkDescriptorSet", "VkDeviceMemory",
        "VkSwapchainKHR", "VkSurfaceKHR", "VkPipelineCache", "VkDisplayModeKHR"})
    if (type == own) return nullptr;
  const registry::Command* d = registry::find_command(("vkDestroy" + std::string(type.substr(2))).c_str());
  if (d && d->params().size() == 3) it->second = d;
  return it->second;
}

void Replayer::made(const registry::Command& cmd, const std::vector<void*>& ptrs) {
  const std::string_view name = cmd.name();
  if (!starts(name, "vkCreate") && !starts(name, "vkAllocate")) return;
  const auto params = cmd.params();
  if (params.empty() || params[0].type != registry::Type::handle || params[0].pointer_depth) return;
  const std::uint64_t owner = *static_cast<const std::uint64_t*>(ptrs[0]);
  for (std::size_t i = 1; i < params.size(); ++i) {
    const registry::Member& m = params[i];
    if (m.type != registry::Type::handle || m.pointer_depth < 1 || m.is_const) continue;
    const registry::Command* d = destroyer(m);
    const auto* out = *static_cast<std::uint64_t* const*>(ptrs[i]);
    if (!d || !out) continue;
    // One handle, or as many as the count beside the array says.
    std::uint32_t n = 1;
    if (m.len_member >= 0) std::memcpy(&n, ptrs[static_cast<std::size_t>(m.len_member)], sizeof n);
    for (std::uint32_t k = 0; k < n; ++k) {
      if (!out[k]) continue;
      const std::uint64_t seq = live_next_++;
      if (const auto old = live_seq_.find(out[k]); old != live_seq_.end()) live_.erase(old->second);
      live_seq_[out[k]] = seq;
      live_[seq] = {out[k], owner, d};
    }
  }
}

void Replayer::destroyed(std::uint64_t handle) {
  const auto it = live_seq_.find(handle);
  if (it == live_seq_.end()) return;
  live_.erase(it->second);
  live_seq_.erase(it);
}

void Replayer::end_objects(std::uint64_t owner) {
  for (auto it = live_.end(); it != live_.begin();) {
    --it;
    const Live& l = it->second;
    if (l.owner != owner) continue;
    const Proc& p = proc(*l.destroy);
    if (p.f && p.invoke) {
      std::uint64_t slots[3] = {l.owner, l.handle, 0};
      void* ptrs[3] = {&slots[0], &slots[1], &slots[2]};
      std::uint64_t ret = 0;
      p.invoke(p.f, ptrs, &ret);
    }
    live_seq_.erase(l.handle);
    it = live_.erase(it);
  }
}

}  // namespace libtrace::replay_trace
