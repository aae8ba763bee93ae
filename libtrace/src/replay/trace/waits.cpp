// SPDX-License-Identifier: MIT
// Waits and the end of devices. A capture with a submit or an acquire
// missing (cut, damaged) leaves fences and semaphores that nothing will
// signal: every wait, the stream's and the replay's own, is bounded and one
// that cannot finish names what it waited for. Devices go before their
// instance, waited for, whether or not the capture destroyed them, and the
// replay never returns (error or not) while a driver thread still runs
// submitted work: a process that exits under it dies in the driver.
#include <volk.h>

#include <cstdio>

#include "replay/trace/replayer.hpp"

namespace libtrace::replay_trace {

namespace {

constexpr std::uint64_t kNsPerSecond = 1'000'000'000;

}  // namespace

std::uint64_t Replayer::wait_ns() const {
  return static_cast<std::uint64_t>(opt_.wait_seconds * static_cast<double>(kNsPerSecond));
}

std::string Replayer::wait_limit() const {
  char s[32];
  std::snprintf(s, sizeof s, "%g s", opt_.wait_seconds);
  return s;
}

bool Replayer::queue_idle(VkQueue queue) {
  const auto q = queues_.find(queue);
  if (q == queues_.end()) return true;
  const VkDevice device = q->second.first;
  // An empty batch's fence is signalled once all work submitted before it is
  // done: vkQueueWaitIdle with a limit.
  const VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  VkFence fence = VK_NULL_HANDLE;
  if (vkCreateFence(device, &fci, nullptr, &fence) != VK_SUCCESS) return vkQueueWaitIdle(queue) == VK_SUCCESS;
  if (vkQueueSubmit(queue, 0, nullptr, fence) != VK_SUCCESS) {
    vkDestroyFence(device, fence, nullptr);
    return false;
  }
  if (vkWaitForFences(device, 1, &fence, VK_TRUE, wait_ns()) != VK_SUCCESS) return false;  // still in use: kept
  vkDestroyFence(device, fence, nullptr);
  return true;
}

bool Replayer::device_idle(VkDevice device) {
  for (const auto& [queue, owner] : queues_)
    if (owner.first == device && !queue_idle(queue)) return false;
  return true;
}

void Replayer::wait_queue(VkQueue queue) {
  if (queue_idle(queue)) return;
  throw Error(Errc::bad_record, current_call(),
              "the queue's work did not finish in " + wait_limit() +
                  ": it waits on a semaphore nothing signals (a vkQueueSubmit or vkAcquireNextImageKHR missing from "
                  "the capture?)");
}

std::string Replayer::current_call() const {
  return current_ ? "call " + std::to_string(current_->no) + " " + std::string(current_->name()) : "the replay's end";
}

void Replayer::submitted(const apitrace::Call& c, VkFence fence) {
  if (fence) signaller_[fence] = "call " + std::to_string(c.no) + " " + std::string(c.name());
}

void Replayer::waits_on(const apitrace::Call& c, const VkSemaphore* semaphores, std::uint32_t n) {
  for (std::uint32_t i = 0; semaphores && i < n; ++i) {
    if (!semaphores[i] || timeline_.count(semaphores[i])) continue;
    // A binary semaphore waited for before anything signals it blocks
    // vkQueueSubmit itself in some drivers (lavapipe): no timeout reaches it.
    if (!pending_.erase(semaphores[i]))
      fail(c,
           "it waits on a semaphore that no call before it signals (a vkQueueSubmit or vkAcquireNextImageKHR "
           "missing from the capture?)");
  }
}

void Replayer::signals(const VkSemaphore* semaphores, std::uint32_t n) {
  for (std::uint32_t i = 0; semaphores && i < n; ++i)
    if (semaphores[i] && !timeline_.count(semaphores[i])) pending_.insert(semaphores[i]);
}

namespace {

std::vector<VkSemaphore> of(const VkSemaphoreSubmitInfo* infos, std::uint32_t n) {
  std::vector<VkSemaphore> out;
  for (std::uint32_t i = 0; infos && i < n; ++i) out.push_back(infos[i].semaphore);
  return out;
}

}  // namespace

void Replayer::submit(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);  // queue, count, batches, fence
  if (slots.size() != 4) return generic(c, cmd);
  if (!d.problems().empty()) fail(c, d.problems().front());
  const auto n = static_cast<std::uint32_t>(slots[1]);
  const std::string_view name = c.name();
  for (std::uint32_t i = 0; slots[2] && i < n; ++i) {
    if (name == "vkQueueSubmit") {
      const auto& b = reinterpret_cast<const VkSubmitInfo*>(slots[2])[i];
      waits_on(c, b.pWaitSemaphores, b.waitSemaphoreCount);
      signals(b.pSignalSemaphores, b.signalSemaphoreCount);
    } else if (name == "vkQueueBindSparse") {
      const auto& b = reinterpret_cast<const VkBindSparseInfo*>(slots[2])[i];
      waits_on(c, b.pWaitSemaphores, b.waitSemaphoreCount);
      signals(b.pSignalSemaphores, b.signalSemaphoreCount);
    } else {  // vkQueueSubmit2
      const auto& b = reinterpret_cast<const VkSubmitInfo2*>(slots[2])[i];
      const auto w = of(b.pWaitSemaphoreInfos, b.waitSemaphoreInfoCount);
      const auto s = of(b.pSignalSemaphoreInfos, b.signalSemaphoreInfoCount);
      waits_on(c, w.data(), static_cast<std::uint32_t>(w.size()));
      signals(s.data(), static_cast<std::uint32_t>(s.size()));
    }
  }
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r >= 0) submitted(c, reinterpret_cast<VkFence>(slots[3]));
}

void Replayer::create_semaphore(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);  // device, create info, allocator, out
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r < 0 || slots.size() != 4) return;
  map_outputs(c, cmd, d, ptrs);
  const auto* made = reinterpret_cast<const VkSemaphore*>(slots[3]);
  if (!made || !*made) return;
  pending_.erase(*made);  // a handle value the driver gives again
  timeline_.erase(*made);
  for (auto* s =
           static_cast<const VkBaseInStructure*>(reinterpret_cast<const VkSemaphoreCreateInfo*>(slots[1])
                                                     ? reinterpret_cast<const VkSemaphoreCreateInfo*>(slots[1])->pNext
                                                     : nullptr);
       s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO &&
        reinterpret_cast<const VkSemaphoreTypeCreateInfo*>(s)->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE)
      timeline_.insert(*made);
}

void Replayer::wait_for_fences(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);  // device, fenceCount, pFences, waitAll, timeout
  if (slots.size() != 5) return generic(c, cmd);
  slots[4] = std::min(slots[4], wait_ns());
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  const std::int64_t captured = c.ret == apitrace::kNil ? 0 : c.value(c.ret).num.i;
  if (r != VK_TIMEOUT || captured == VK_TIMEOUT) return;
  const auto device = reinterpret_cast<VkDevice>(slots[0]);
  const auto* fences = reinterpret_cast<const VkFence*>(slots[2]);
  for (std::uint32_t i = 0; fences && i < static_cast<std::uint32_t>(slots[1]); ++i) {
    if (vkGetFenceStatus(device, fences[i]) != VK_NOT_READY) continue;
    const auto by = signaller_.find(fences[i]);
    if (by == signaller_.end())
      fail(c, "fence " + std::to_string(i) + " was not signalled in " + wait_limit() +
                  ": no call of the capture signals it (its vkQueueSubmit or vkAcquireNextImageKHR is missing?)");
    fail(c, "fence " + std::to_string(i) + " was not signalled in " + wait_limit() + ": the work of " + by->second +
                " that signals it waits on a semaphore nothing signals (a call missing from the capture?)");
  }
  fail(c, "the fences were not signalled in " + wait_limit());
}

void Replayer::wait_semaphores(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);  // device, pWaitInfo, timeout
  if (slots.size() != 3) return generic(c, cmd);
  slots[2] = std::min(slots[2], wait_ns());
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  const std::int64_t captured = c.ret == apitrace::kNil ? 0 : c.value(c.ret).num.i;
  if (r == VK_TIMEOUT && captured != VK_TIMEOUT)
    fail(c,
         "the semaphore values were not reached in " + wait_limit() + " (a signalling call missing from the capture?)");
}

void Replayer::wait_idle(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  bool missing = false;
  const std::uint64_t h = handles_.get(d.uint_of(d.arg(0)), &missing);
  if (missing || !h) fail(c, "a queue or device the replay never made");
  if (c.name() == "vkQueueWaitIdle")
    wait_queue(reinterpret_cast<VkQueue>(h));
  else if (!device_idle(reinterpret_cast<VkDevice>(h)))
    fail(c, "the device's work did not finish in " + wait_limit() +
                ": it waits on a semaphore nothing signals (a vkQueueSubmit or vkAcquireNextImageKHR missing?)");
}

void Replayer::end_device(VkDevice device) {
  end_objects(reinterpret_cast<std::uint64_t>(device));
  if (window_ && window_->device() == device) window_.reset();
  for (auto it = swapchains_.begin(); it != swapchains_.end();) {
    if (it->second.device != device) {
      ++it;
      continue;
    }
    for (VkImage i : it->second.images) vkDestroyImage(device, i, nullptr);
    for (VkDeviceMemory m : it->second.memories) vkFreeMemory(device, m, nullptr);
    it = swapchains_.erase(it);
  }
  free_objects(device);
  for (auto& [family, pool] : pools_[device]) vkDestroyCommandPool(device, pool, nullptr);
  pools_.erase(device);
  if (cache_device_ == device) cache_ = VK_NULL_HANDLE;
  std::erase_if(queues_, [&](const auto& q) { return q.second.first == device; });
  signaller_.clear();  // fences and semaphores are the device's
  pending_.clear();
  timeline_.clear();
  device_queue_.erase(device);
  devices_.erase(device);
}

void Replayer::destroy_instance(const apitrace::Call& c, const registry::Command& cmd) {
  // A program may leave its devices to the process's end; the driver does
  // not outlive their instance.
  for (const auto& [device, gpu] : std::unordered_map(devices_)) {
    if (!device_idle(device))
      fail(c, "the device's work did not finish in " + wait_limit() + " (a semaphore nothing signals?)");
    if (device == cache_device_) save_pipeline_cache();
    end_device(device);
    vkDestroyDevice(device, nullptr);
  }
  window_.reset();
  end_objects(reinterpret_cast<std::uint64_t>(instance_));
  generic(c, cmd);
  instance_ = VK_NULL_HANDLE;
  gpu_ = VK_NULL_HANDLE;
  procs_.clear();
}

bool Replayer::shutdown() noexcept {
  bool all = true;
  for (const auto& [device, gpu] : std::unordered_map(devices_)) {
    // Work that does not finish keeps its device (and the instance): the
    // driver would free what its threads still use.
    if (!device_idle(device)) {
      all = false;
      continue;
    }
    end_device(device);
    vkDestroyDevice(device, nullptr);
  }
  if (all && instance_) {
    window_.reset();
    end_objects(reinterpret_cast<std::uint64_t>(instance_));
    vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
  return all;
}

}  // namespace libtrace::replay_trace
