// SPDX-License-Identifier: MIT
// Device listings for people and for machines (trak-replay --list-devices).

#include <cstdio>
#include <span>

#include "core/report.hpp"
#include "libtrace/vk/device.hpp"

namespace libtrace::vk {

namespace {

using libtrace::detail::appendf;

std::string driver_of(const PhysicalDeviceInfo& d) {
  if (d.driver_name.empty()) return "driver " + std::to_string(d.properties.driverVersion);
  return d.driver_info.empty() ? d.driver_name : d.driver_name + " " + d.driver_info;
}

}  // namespace

std::string report_devices(const std::vector<PhysicalDeviceInfo>& devices) {
  std::string o;
  for (const auto& d : devices) {
    const auto& p = d.properties;
    appendf(o, "%u: %s\n    %s, vendor 0x%x, device 0x%x, Vulkan %s, %s\n", d.index, p.deviceName,
            std::string(device_type_name(p.deviceType)).c_str(), p.vendorID, p.deviceID,
            version_string(p.apiVersion).c_str(), driver_of(d).c_str());
    for (std::uint32_t h = 0; h < d.memory.memoryHeapCount; ++h) {
      appendf(o, "    heap %u: %llu bytes, %s\n", h, static_cast<unsigned long long>(d.memory.memoryHeaps[h].size),
              memory_heap_names(d.memory.memoryHeaps[h].flags).c_str());
    }
    for (std::uint32_t t = 0; t < d.memory.memoryTypeCount; ++t) {
      appendf(o, "    memory type %u: heap %u, %s\n", t, d.memory.memoryTypes[t].heapIndex,
              memory_property_names(d.memory.memoryTypes[t].propertyFlags).c_str());
    }
  }
  return o;
}

std::string report_devices_json(const std::vector<PhysicalDeviceInfo>& devices) {
  libtrace::detail::JsonReport report;
  report.object([&] {
    report.array("devices", devices, [&](const PhysicalDeviceInfo& d) {
      const auto& p = d.properties;
      report.object([&] {
        report.members("index", d.index, "name", p.deviceName, "type", device_type_name(p.deviceType), "vendor_id",
                       p.vendorID, "device_id", p.deviceID, "api_version", version_string(p.apiVersion),
                       "driver_version", p.driverVersion, "driver_name", d.driver_name, "driver_info", d.driver_info,
                       "buffer_image_granularity", p.limits.bufferImageGranularity, "non_coherent_atom_size",
                       p.limits.nonCoherentAtomSize, "max_memory_allocation_count", p.limits.maxMemoryAllocationCount);
        const std::span heaps(d.memory.memoryHeaps, d.memory.memoryHeapCount);
        report.objects("heaps", heaps, [&](const VkMemoryHeap& h) {
          report.u64("size", h.size);
          report.text("flags", memory_heap_names(h.flags));
        });
        const std::span types(d.memory.memoryTypes, d.memory.memoryTypeCount);
        report.objects("memory_types", types, [&](const VkMemoryType& t) {
          report.u64("heap", t.heapIndex);
          report.text("flags", memory_property_names(t.propertyFlags));
        });
        report.u64("extensions", d.extensions.size());
      });
    });
  });
  return report.finish();
}

}  // namespace libtrace::vk
