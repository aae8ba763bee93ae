// SPDX-License-Identifier: MIT
#include "capture/trace_device.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "capture/trace_encode.hpp"
#include "capture/trace_snapshot.hpp"

namespace libtrace::capture::trace {

namespace {

// Granularity of the diff: a changed byte records the block around it.
constexpr VkDeviceSize kBlock = 256;

constexpr VkMemoryPropertyFlags kHostFlags =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

struct Run {
  VkDeviceSize lo, hi;  // memory offsets
};

void write_update(Stream& s, VkDevice device, const Bound& b, VkDeviceSize object_offset,
                  const std::vector<Run>& runs, const char* shadow) {
  static const char* const kArgs[] = {"device", "object", "runs"};
  static const char* const kRun[] = {"offset", "data"};
  const std::uint32_t tid = s.thread_id();
  const auto serialize = [&](Event& e) {
    const bool image = b.image;
    begin_enter(e, tid, own_function_id(image ? kOwnUpdateImage : kOwnUpdateBuffer),
                image ? "trakUpdateImage" : "trakUpdateBuffer", kArgs, true);
    e.byte(0x01);
    e.uint(0);
    put_pointer(e, reinterpret_cast<std::uintptr_t>(device));
    e.byte(0x01);
    e.uint(1);
    put_pointer(e, b.handle);
    e.byte(0x01);
    e.uint(2);
    put_array(e, runs.size());
    for (const Run& r : runs) {
      put_own_struct(e, kOwnRun, "trakUpdateRun", kRun);
      put_uint(e, r.lo - object_offset);
      put_blob(e, shadow + r.lo, r.hi - r.lo);
    }
    e.byte(0x00);
  };
  Event e(s);
  serialize(e);
  s.commit(e, Stream::Kind::fake, serialize);
}

}  // namespace

std::uint32_t VirtualTypes::shown_bits(std::uint32_t real_bits) const {
  std::uint32_t out = 0;
  for (std::uint32_t i = 0; i < to_real.size(); ++i)
    if (real_bits & (1u << to_real[i])) out |= 1u << i;
  return out;
}

const VirtualTypes& virtual_types(VkPhysicalDevice gpu, PFN_vkGetPhysicalDeviceMemoryProperties get) {
  static std::mutex mu;
  static auto* known = new std::unordered_map<VkPhysicalDevice, std::unique_ptr<VirtualTypes>>;
  const std::lock_guard lock(mu);
  auto& v = (*known)[gpu];
  if (v) return *v;
  v = std::make_unique<VirtualTypes>();
  get(gpu, &v->real);
  v->shown = v->real;
  for (std::uint32_t i = 0; i < v->real.memoryTypeCount; ++i) v->to_real.push_back(i);
  for (std::uint32_t i = 0; i < v->real.memoryTypeCount; ++i) {
    const VkMemoryType t = v->real.memoryTypes[i];
    const bool both = (t.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
                      (t.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    if (!both || v->shown.memoryTypeCount >= VK_MAX_MEMORY_TYPES) continue;
    v->shown.memoryTypes[i].propertyFlags &= ~kHostFlags;
    VkMemoryType host = t;
    host.propertyFlags &= ~VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT};
    v->shown.memoryTypes[v->shown.memoryTypeCount++] = host;
    v->to_real.push_back(i);
  }
  return *v;
}

DeviceTrace::DeviceTrace(Stream& s, VkDevice d, VkPhysicalDevice g, const layer::DeviceTable& n,
                         const VirtualTypes& t)
    : stream(s), device(d), gpu(g), next(n), types(t) {}

DeviceTrace::~DeviceTrace() = default;

void DeviceTrace::record_host_writes() {
  const std::lock_guard lock(mu);
  for (auto& [handle, m] : memories) record_locked(handle, m);
}

void DeviceTrace::record_host_writes(std::uint64_t memory) {
  const std::lock_guard lock(mu);
  const auto it = memories.find(memory);
  if (it != memories.end()) record_locked(it->first, it->second);
}

void DeviceTrace::record_locked(std::uint64_t, Memory& m) {
  if (!m.mapped) return;
  const VkDeviceSize map_lo = m.map_offset, map_hi = m.map_offset + m.map_size;
  std::vector<Run> runs;
  for (auto& [offset, b] : m.objects) {
    const VkDeviceSize lo = std::max(offset, map_lo), hi = std::min(offset + b.size, map_hi);
    if (lo >= hi) continue;
    const char* now = m.mapped + (lo - map_lo);
    char* old = m.shadow.data() + lo;
    runs.clear();
    for (VkDeviceSize x = 0; x < hi - lo; x += kBlock) {
      const VkDeviceSize n = std::min(kBlock, hi - lo - x);
      if (std::memcmp(now + x, old + x, n) == 0) continue;
      std::memcpy(old + x, now + x, n);
      if (!runs.empty() && runs.back().hi == lo + x) runs.back().hi = lo + x + n;
      else runs.push_back({lo + x, lo + x + n});
    }
    if (!runs.empty()) write_update(stream, device, b, offset, runs, m.shadow.data());
  }
}

}  // namespace libtrace::capture::trace
