// SPDX-License-Identifier: MIT
// Device listings for people and for machines (trak-replay --list-devices).

#include <cstdio>

#include "core/report.hpp"
#include "libtrace/vk/device.hpp"

namespace libtrace::vk {

namespace {

std::string driver_of(const PhysicalDeviceInfo& d) {
  if (d.driver_name.empty()) return "driver " + std::to_string(d.properties.driverVersion);
  return d.driver_info.empty() ? d.driver_name : d.driver_name + " " + d.driver_info;
}

}  // namespace

std::string format_devices(const std::vector<PhysicalDeviceInfo>& devices) {
  std::string o;
  char line[512];
  for (const auto& d : devices) {
    const auto& p = d.properties;
    std::snprintf(line, sizeof line, "%u: %s\n    %s, vendor 0x%x, device 0x%x, Vulkan %s, %s\n", d.index, p.deviceName,
                  std::string(device_type_name(p.deviceType)).c_str(), p.vendorID, p.deviceID,
                  version_string(p.apiVersion).c_str(), driver_of(d).c_str());
    o += line;
    for (std::uint32_t h = 0; h < d.memory.memoryHeapCount; ++h) {
      std::snprintf(line, sizeof line, "    heap %u: %llu bytes, %s\n", h,
                    static_cast<unsigned long long>(d.memory.memoryHeaps[h].size),
                    memory_heap_names(d.memory.memoryHeaps[h].flags).c_str());
      o += line;
    }
    for (std::uint32_t t = 0; t < d.memory.memoryTypeCount; ++t) {
      std::snprintf(line, sizeof line, "    memory type %u: heap %u, %s\n", t, d.memory.memoryTypes[t].heapIndex,
                    memory_property_names(d.memory.memoryTypes[t].propertyFlags).c_str());
      o += line;
    }
  }
  return o;
}

std::string format_devices_json(const std::vector<PhysicalDeviceInfo>& devices) {
  libtrace::detail::JsonReport report;
  auto& w = report.writer();
  w.StartObject();
  w.Key("devices");
  w.StartArray();
  for (const auto& d : devices) {
    const auto& p = d.properties;
    w.StartObject();
    w.Key("index");
    w.Uint(d.index);
    w.Key("name");
    w.String(p.deviceName);
    w.Key("type");
    w.String(std::string(device_type_name(p.deviceType)).c_str());
    w.Key("vendor_id");
    w.Uint(p.vendorID);
    w.Key("device_id");
    w.Uint(p.deviceID);
    w.Key("api_version");
    w.String(version_string(p.apiVersion).c_str());
    w.Key("driver_version");
    w.Uint(p.driverVersion);
    w.Key("driver_name");
    w.String(d.driver_name.c_str());
    w.Key("driver_info");
    w.String(d.driver_info.c_str());
    w.Key("buffer_image_granularity");
    w.Uint64(p.limits.bufferImageGranularity);
    w.Key("non_coherent_atom_size");
    w.Uint64(p.limits.nonCoherentAtomSize);
    w.Key("max_memory_allocation_count");
    w.Uint(p.limits.maxMemoryAllocationCount);
    w.Key("heaps");
    w.StartArray();
    for (std::uint32_t h = 0; h < d.memory.memoryHeapCount; ++h) {
      w.StartObject();
      w.Key("size");
      w.Uint64(d.memory.memoryHeaps[h].size);
      w.Key("flags");
      w.String(memory_heap_names(d.memory.memoryHeaps[h].flags).c_str());
      w.EndObject();
    }
    w.EndArray();
    w.Key("memory_types");
    w.StartArray();
    for (std::uint32_t t = 0; t < d.memory.memoryTypeCount; ++t) {
      w.StartObject();
      w.Key("heap");
      w.Uint(d.memory.memoryTypes[t].heapIndex);
      w.Key("flags");
      w.String(memory_property_names(d.memory.memoryTypes[t].propertyFlags).c_str());
      w.EndObject();
    }
    w.EndArray();
    w.Key("extensions");
    w.Uint64(d.extensions.size());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return report.finish();
}

}  // namespace libtrace::vk
