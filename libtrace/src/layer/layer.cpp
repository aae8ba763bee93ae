// SPDX-License-Identifier: MIT
#include "layer/layer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <new>
#include <set>

namespace libtrace::layer {

VkResult negotiate(VkNegotiateLayerInterface* v, PFN_vkGetInstanceProcAddr gipa, PFN_vkGetDeviceProcAddr gdpa) {
  if (!v || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (v->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  v->loaderLayerInterfaceVersion = 2;
  v->pfnGetInstanceProcAddr = gipa;
  v->pfnGetDeviceProcAddr = gdpa;
  v->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

namespace {

// The loader's link structs sit in the create info's pNext chain with their
// own sType; walking them needs the non-const view the loader intends.
template <typename Info, typename CreateInfo>
Info* find_link(const CreateInfo* ci, VkStructureType s_type) {
  for (auto* p = static_cast<const VkBaseInStructure*>(ci->pNext); p; p = p->pNext) {
    if (p->sType != s_type) continue;
    auto* info = const_cast<Info*>(reinterpret_cast<const Info*>(p));
    if (info->function == VK_LAYER_LINK_INFO) return info;
  }
  return nullptr;
}

}  // namespace

PFN_vkGetInstanceProcAddr take_instance_link(const VkInstanceCreateInfo* ci) {
  auto* info = find_link<VkLayerInstanceCreateInfo>(ci, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!info || !info->u.pLayerInfo) return nullptr;
  const PFN_vkGetInstanceProcAddr next = info->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  info->u.pLayerInfo = info->u.pLayerInfo->pNext;
  return next;
}

DeviceLink take_device_link(const VkDeviceCreateInfo* ci) {
  auto* info = find_link<VkLayerDeviceCreateInfo>(ci, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!info || !info->u.pLayerInfo) return {};
  DeviceLink link{info->u.pLayerInfo->pfnNextGetInstanceProcAddr, info->u.pLayerInfo->pfnNextGetDeviceProcAddr};
  info->u.pLayerInfo = info->u.pLayerInfo->pNext;
  return link;
}

void log(std::string_view layer, std::string_view message) {
  std::string line;
  line.reserve(layer.size() + message.size() + 3);
  line.append(layer).append(": ").append(message).push_back('\n');
  const char* p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nowhere to complain to
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

namespace {

std::mutex& log_mutex() {
  static std::mutex mu;
  return mu;
}

}  // namespace

void log_before_fork() { log_mutex().lock(); }
void log_after_fork_in_parent() { log_mutex().unlock(); }
void log_after_fork_in_child() { new (&log_mutex()) std::mutex; }

void log_once(std::string_view layer, std::string_view what, std::string_view detail) {
  static std::set<std::string, std::less<>> seen;
  {
    const std::lock_guard lock(log_mutex());
    if (seen.find(what) != seen.end()) return;
    seen.emplace(what);
  }
  log(layer, detail.empty() ? what : std::string(what) + ": " + std::string(detail));
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace libtrace::layer
