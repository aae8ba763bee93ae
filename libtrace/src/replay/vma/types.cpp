// SPDX-License-Identifier: MIT
// Recorded memory types to replay memory types, and how the recorded device
// differs from this one.
#include <bit>
#include <cstdio>
#include <cstdlib>

#include "libtrace/vma/sim.hpp"
#include "replay/vma/internal.hpp"

namespace libtrace::vma::detail {

std::pair<std::uint32_t, std::uint32_t> usage_flags(std::uint64_t usage) {
  constexpr std::uint32_t kDeviceLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr std::uint32_t kHostVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  switch (usage) {
    case 1: return {0, kDeviceLocal};                                         // GPU_ONLY
    case 2: return {kHostVisible | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0};  // CPU_ONLY
    case 3: return {kHostVisible, kDeviceLocal};                              // CPU_TO_GPU
    case 4: return {kHostVisible, VK_MEMORY_PROPERTY_HOST_CACHED_BIT};        // GPU_TO_CPU
    case 6: return {VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, 0};              // GPU_LAZILY_ALLOCATED
    default: return {0, 0};                                                   // UNKNOWN, CPU_COPY
  }
}

TypeMapper::TypeMapper(const Config& recorded, const vk::Device& device) : config_(recorded), mem_(device.memory()) {
  for (std::uint32_t t = 0; t < mem_.memoryTypeCount; ++t) all_ |= 1u << t;
}

std::uint32_t TypeMapper::recorded_flags(int rt) const {
  return rt >= 0 && static_cast<std::size_t>(rt) < config_.types.size()
             ? config_.types[static_cast<std::size_t>(rt)].property_flags
             : 0;
}

int TypeMapper::recorded(std::uint64_t usage, std::uint64_t required, std::uint64_t preferred, std::uint64_t type_bits,
                         std::uint32_t requirement_bits) const {
  if (config_.types.empty()) return -1;
  return resolve_memory_type(config_, usage, required, preferred, type_bits, requirement_bits);
}

TypeMapper::Choice TypeMapper::choose(int rt, std::uint64_t usage, std::uint64_t required, std::uint64_t preferred,
                                      std::uint32_t allowed, bool allow_unmet) const {
  const auto [ureq, upref] = usage_flags(usage);
  const std::uint32_t req = static_cast<std::uint32_t>(required) | ureq;
  const bool by_record = rt >= 0;
  // With a recorded type, its flags are what to match; without one, VMA's
  // preferred flags on this device.
  const std::uint32_t want = by_record ? recorded_flags(rt) | req : static_cast<std::uint32_t>(preferred) | upref;
  Choice best;
  std::uint64_t best_cost = UINT64_MAX;
  for (int pass = 0; pass < 2 && best.type < 0; ++pass) {
    if (pass == 1 && !allow_unmet) break;
    for (std::uint32_t t = 0; t < mem_.memoryTypeCount; ++t) {
      if (!(allowed & (1u << t))) continue;
      const std::uint32_t flags = mem_.memoryTypes[t].propertyFlags;
      if (pass == 0 && (flags & req) != req) continue;
      std::uint64_t cost = static_cast<std::uint64_t>(std::popcount((want | (pass ? req : 0)) & ~flags)) * 64;
      if (by_record) cost += static_cast<std::uint64_t>(std::popcount(flags & ~want));
      if (cost < best_cost) {
        best_cost = cost;
        best.type = static_cast<int>(t);
        best.required_unmet = pass == 1;
      }
    }
  }
  return best;
}

bool TypeMapper::count(int rt, std::uint32_t replay_type) {
  TypeMapping& m = mappings_[{rt, replay_type}];
  if (m.allocations == 0) {
    m.recorded_type = rt;
    m.recorded_flags = recorded_flags(rt);
    m.replay_type = replay_type;
    m.replay_flags = mem_.memoryTypes[replay_type].propertyFlags;
    m.missing_flags = rt >= 0 ? m.recorded_flags & ~m.replay_flags : 0;
  }
  ++m.allocations;
  return m.missing_flags != 0;
}

std::vector<TypeMapping> TypeMapper::mappings() const {
  std::vector<TypeMapping> out;
  for (const auto& [k, m] : mappings_) out.push_back(m);
  return out;
}

std::vector<std::string> device_differences(const Config& c, const vk::Device& device) {
  std::vector<std::string> out;
  if (c.lines.empty()) return out;  // format < 1.3: nothing recorded
  const auto& props = device.info().properties;
  auto differ = [&](const std::string& what, const std::string& recorded, const std::string& here) {
    if (recorded != here) out.push_back(what + ": recorded " + recorded + ", here " + here);
  };
  auto field = [](const std::map<std::string, std::string>& m, const char* key) {
    auto it = m.find(key);
    return it == m.end() ? std::string("(not recorded)") : it->second;
  };
  if (!c.vulkan_api_version.empty())
    differ("VulkanApiVersion", c.vulkan_api_version,
           std::to_string(VK_API_VERSION_MAJOR(device.api_version())) + "," +
               std::to_string(VK_API_VERSION_MINOR(device.api_version())));
  differ("deviceName", "\"" + field(c.physical_device, "deviceName") + "\"",
         "\"" + std::string(props.deviceName) + "\"");
  auto version = [&](const char* key) {
    const std::string v = field(c.physical_device, key);
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    return end && *end == 0 && !v.empty() ? vk::version_string(static_cast<std::uint32_t>(n)) : v;
  };
  auto type_name = [&]() {
    const std::string v = field(c.physical_device, "deviceType");
    char* end = nullptr;
    const unsigned long n = std::strtoul(v.c_str(), &end, 10);
    // Past VK_PHYSICAL_DEVICE_TYPE_CPU the number is shown as written: no enum holds it.
    return end && *end == 0 && !v.empty() && n <= VK_PHYSICAL_DEVICE_TYPE_CPU
               ? std::string(vk::device_type_name(static_cast<VkPhysicalDeviceType>(n)))
               : v;
  };
  differ("deviceType", type_name(), std::string(vk::device_type_name(props.deviceType)));
  differ("vendorID", field(c.physical_device, "vendorID"), std::to_string(props.vendorID));
  differ("deviceID", field(c.physical_device, "deviceID"), std::to_string(props.deviceID));
  differ("apiVersion", version("apiVersion"), vk::version_string(props.apiVersion));
  differ("driverVersion", field(c.physical_device, "driverVersion"), std::to_string(props.driverVersion));
  differ("maxMemoryAllocationCount", field(c.limits, "maxMemoryAllocationCount"),
         std::to_string(props.limits.maxMemoryAllocationCount));
  differ("bufferImageGranularity", field(c.limits, "bufferImageGranularity"),
         std::to_string(props.limits.bufferImageGranularity));
  differ("nonCoherentAtomSize", field(c.limits, "nonCoherentAtomSize"),
         std::to_string(props.limits.nonCoherentAtomSize));
  // Heaps and types side by side only when the layouts have the same shape;
  // otherwise index i here has nothing to do with index i there.
  const auto& mem = device.memory();
  auto heap = [](std::uint64_t size, std::uint32_t flags) {
    return std::to_string(size) + " bytes " + vk::memory_heap_names(flags);
  };
  auto type = [](std::uint32_t heap_index, std::uint32_t flags) {
    return "heap " + std::to_string(heap_index) + " " + vk::memory_property_names(flags);
  };
  differ("memory heaps", std::to_string(c.heaps.size()), std::to_string(mem.memoryHeapCount));
  if (c.heaps.size() == mem.memoryHeapCount)
    for (std::size_t h = 0; h < c.heaps.size(); ++h)
      differ("heap " + std::to_string(h), heap(c.heaps[h].size, c.heaps[h].flags),
             heap(mem.memoryHeaps[h].size, mem.memoryHeaps[h].flags));
  differ("memory types", std::to_string(c.types.size()), std::to_string(mem.memoryTypeCount));
  if (c.types.size() == mem.memoryTypeCount)
    for (std::size_t t = 0; t < c.types.size(); ++t)
      differ("type " + std::to_string(t), type(c.types[t].heap, c.types[t].property_flags),
             type(mem.memoryTypes[t].heapIndex, mem.memoryTypes[t].propertyFlags));
  // Macros that change what VMA did and that this replay does not repeat
  // (VMA_DEBUG_MARGIN it does: the allocator leaves the same margins).
  for (const char* m : {"VMA_DEBUG_DETECT_CORRUPTION", "VMA_DEBUG_INITIALIZE_ALLOCATIONS"}) {
    auto it = c.macros.find(m);
    if (it != c.macros.end() && it->second != "0")
      out.push_back(std::string(m) + ": recorded " + it->second + ", not replayed");
  }
  return out;
}

}  // namespace libtrace::vma::detail
