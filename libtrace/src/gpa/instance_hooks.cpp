// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_gpa at instance level: the extension listed where the
// emulation can run, its features and properties filled in. Where the driver
// has the extension itself (AMD's), the driver's answers stand.
#include <pthread.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpa/counters.hpp"
#include "gpa/state.hpp"

namespace libtrace::gpa {

namespace {

void before_fork() {
  layer::log_before_fork();
  global().instances.before_fork();
  global().devices.before_fork();
}
void after_fork_in_parent() {
  global().devices.after_fork_in_parent();
  global().instances.after_fork_in_parent();
  layer::log_after_fork_in_parent();
}
void after_fork_in_child() {
  global().devices.after_fork_in_child();
  global().instances.after_fork_in_child();
  layer::log_after_fork_in_child();
}

}  // namespace

Global& global() {
  static Global* g = [] {
    auto* n = new Global;
    ::pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    return n;
  }();
  return *g;
}

std::shared_ptr<layer::Instance> instance_of(const void* dispatchable) {
  return global().instances.find(layer::dispatch_key(dispatchable));
}

std::shared_ptr<Device> device_of(const void* dispatchable) {
  return global().devices.find(layer::dispatch_key(dispatchable));
}

namespace {

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
  for (const auto& e : list)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

std::vector<VkExtensionProperties> driver_extensions(const layer::Instance& inst, VkPhysicalDevice pd) {
  std::uint32_t n = 0;
  inst.t.EnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> out(n);
  inst.t.EnumerateDeviceExtensionProperties(pd, nullptr, &n, out.data());
  out.resize(n);
  return out;
}

}  // namespace

Support support_of(const layer::Instance& inst, VkPhysicalDevice pd) {
  Support s;
  const auto exts = driver_extensions(inst, pd);
  s.native = has_extension(exts, kExtension);
  inst.t.GetPhysicalDeviceProperties(pd, &s.properties);
  VkPhysicalDeviceFeatures f{};
  inst.t.GetPhysicalDeviceFeatures(pd, &f);
  // Core 1.2 commands exist for the lower of the application's and the
  // device's version; below 1.2 host query reset is an extension.
  const std::uint32_t api = std::min(inst.api_version, s.properties.apiVersion);
  const bool core_reset = VK_API_VERSION_MAJOR(api) > 1 || VK_API_VERSION_MINOR(api) >= 2;
  s.host_reset_extension = !core_reset && has_extension(exts, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
  s.offered = !s.native && s.properties.limits.timestampComputeAndGraphics && (core_reset || s.host_reset_extension);
  if (f.pipelineStatisticsQuery) {
    for (const Counter& c : counters()) s.statistics |= c.statistic;
    if (!f.geometryShader)
      s.statistics &= ~VkQueryPipelineStatisticFlags{VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT |
                                                     VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT};
    if (!f.tessellationShader)
      s.statistics &=
          ~VkQueryPipelineStatisticFlags{VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT |
                                         VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT};
  }
  return s;
}

// ---- instance level ----

VkResult CreateInstance(const VkInstanceCreateInfo* ci, const VkAllocationCallbacks* alloc, VkInstance* out) {
  return layer::create_instance(ci, alloc, out, global().instances);
}

void DestroyInstance(VkInstance instance, const VkAllocationCallbacks* alloc) {
  layer::destroy_instance(instance, alloc, global().instances);
}

VkResult EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char* layer_name, std::uint32_t* count,
                                            VkExtensionProperties* out) {
  const auto inst = instance_of(pd);
  std::vector<VkExtensionProperties> list;
  if (layer_name && std::strcmp(layer_name, kLayerName) == 0) {
    list.push_back({});
  } else if (layer_name) {
    return inst->t.EnumerateDeviceExtensionProperties(pd, layer_name, count, out);
  } else {
    list = driver_extensions(*inst, pd);
    if (support_of(*inst, pd).offered) list.push_back({});
  }
  if (!list.empty() && list.back().extensionName[0] == '\0') {
    std::strncpy(list.back().extensionName, kExtension, VK_MAX_EXTENSION_NAME_SIZE - 1);
    list.back().specVersion = VK_AMD_GPA_INTERFACE_SPEC_VERSION;
  }
  if (!out) {
    *count = static_cast<std::uint32_t>(list.size());
    return VK_SUCCESS;
  }
  const std::uint32_t n = std::min<std::uint32_t>(*count, static_cast<std::uint32_t>(list.size()));
  std::memcpy(out, list.data(), n * sizeof *out);
  *count = n;
  return n < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

namespace {

// The extension's own structs leave the chain while the driver fills the
// rest (it does not know them), and come back after.
class HiddenFromDriver {
 public:
  explicit HiddenFromDriver(void* head) {
    for (auto* p = static_cast<VkBaseOutStructure*>(head); p && p->pNext;) {
      const auto s = static_cast<std::uint32_t>(p->pNext->sType);
      if (s >= 1000133000u && s < 1000134000u) {
        hidden_.push_back({p, p->pNext});
        p->pNext = p->pNext->pNext;
      } else {
        p = p->pNext;
      }
    }
  }
  ~HiddenFromDriver() {
    for (auto it = hidden_.rbegin(); it != hidden_.rend(); ++it) it->first->pNext = it->second;
  }
  HiddenFromDriver(const HiddenFromDriver&) = delete;
  HiddenFromDriver& operator=(const HiddenFromDriver&) = delete;

 private:
  std::vector<std::pair<VkBaseOutStructure*, VkBaseOutStructure*>> hidden_;  // (before, the hidden one)
};

template <PFN_vkGetPhysicalDeviceFeatures2 layer::InstanceTable::*Next>
void features2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2* f) {
  const auto inst = instance_of(pd);
  {
    const HiddenFromDriver hide(f);
    (inst->t.*Next)(pd, f);
  }
  const Support s = support_of(*inst, pd);
  if (!s.offered) return;
  for (auto* p = static_cast<VkBaseOutStructure*>(f->pNext); p; p = p->pNext) {
    if (p->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD) continue;
    auto* g = reinterpret_cast<VkPhysicalDeviceGpaFeaturesAMD*>(p);
    g->perfCounters = s.statistics ? VK_TRUE : VK_FALSE;
    g->streamingPerfCounters = VK_FALSE;
    g->sqThreadTracing = VK_FALSE;
    g->clockModes = VK_FALSE;
  }
}

template <PFN_vkGetPhysicalDeviceProperties2 layer::InstanceTable::*Next>
void properties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2* props) {
  const auto inst = instance_of(pd);
  {
    const HiddenFromDriver hide(props);
    (inst->t.*Next)(pd, props);
  }
  const Support s = support_of(*inst, pd);
  if (!s.offered) return;
  for (auto* p = static_cast<VkBaseOutStructure*>(props->pNext); p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD) {
      auto* g = reinterpret_cast<VkPhysicalDeviceGpaPropertiesAMD*>(p);
      g->flags = 0;
      g->maxSqttSeBufferSize = 0;
      g->shaderEngineCount = 1;
      const std::uint32_t blocks = s.statistics ? 1 : 0;
      if (g->pPerfBlocks && g->perfBlockCount && blocks) {
        VkGpaPerfBlockPropertiesAMD& b = g->pPerfBlocks[0];
        b.blockType = kStatsBlock;
        b.flags = 0;
        b.instanceCount = 1;
        b.maxEventID = static_cast<std::uint32_t>(counters().size() - 1);
        b.maxGlobalOnlyCounters = 0;
        b.maxGlobalSharedCounters = static_cast<std::uint32_t>(std::popcount(s.statistics));
        b.maxStreamingCounters = 0;
        g->perfBlockCount = 1;
      } else if (!g->pPerfBlocks) {
        g->perfBlockCount = blocks;
      } else {
        g->perfBlockCount = 0;
      }
    } else if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD) {
      // No AMD revision to report: 0 says "emulated".
      reinterpret_cast<VkPhysicalDeviceGpaProperties2AMD*>(p)->revisionId = 0;
    }
  }
}

}  // namespace

void GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2* f) {
  features2<&layer::InstanceTable::GetPhysicalDeviceFeatures2>(pd, f);
}
void GetPhysicalDeviceFeatures2KHR(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2* f) {
  features2<&layer::InstanceTable::GetPhysicalDeviceFeatures2KHR>(pd, f);
}
void GetPhysicalDeviceProperties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2* p) {
  properties2<&layer::InstanceTable::GetPhysicalDeviceProperties2>(pd, p);
}
void GetPhysicalDeviceProperties2KHR(VkPhysicalDevice pd, VkPhysicalDeviceProperties2* p) {
  properties2<&layer::InstanceTable::GetPhysicalDeviceProperties2KHR>(pd, p);
}

}  // namespace libtrace::gpa
