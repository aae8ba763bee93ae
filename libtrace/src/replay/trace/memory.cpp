// SPDX-License-Identifier: MIT
// Object-based memory on replay: the application's allocations, maps and
// binds are not replayed as recorded. Each buffer and image gets memory of
// its own, of a type of this device chosen from what the capture says the
// application needed (the virtual types: host-visible or device-local), at
// this device's size and alignment; the capture's update records are
// written into it.
#include <volk.h>

#include <algorithm>
#include <cstring>

#include "libtrace/vk/device.hpp"
#include "replay/trace/replayer.hpp"

namespace libtrace::replay_trace {

namespace {

constexpr VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;

// A member of a recorded struct value by name (the raw value: captured handles stay captured).
std::uint64_t member_of(const CallDecoder& d, std::uint32_t v, std::string_view name) { return d.uint_of(d.field(v, name)); }

}  // namespace

void Replayer::allocate_memory(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  const auto recorded = d.handles_of(d.arg(3));
  if (recorded.empty()) return;
  const auto type = static_cast<std::uint32_t>(member_of(d, d.arg(1), "memoryTypeIndex"));
  const VkDeviceSize size = member_of(d, d.arg(1), "allocationSize");
  capture_memory_[recorded[0]] = {type, size};
  MemoryUse& u = used_capture_[type];
  ++u.objects;
  u.bytes += size;
  ++r_.skipped_calls;
}

std::uint32_t Replayer::choose_type(VkPhysicalDevice gpu, std::uint32_t bits, std::uint32_t capture_type) const {
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(gpu, &props);
  // Unknown needs (a stream without trakPhysicalDevice): host-visible, so
  // that updates can be written.
  const VkMemoryPropertyFlags captured = capture_.known ? capture_.shown_flags(capture_type) : kHost;
  const VkMemoryPropertyFlags want = captured & (kHost | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < props.memoryTypeCount; ++i) order.push_back(i);
  if (opt_.shuffle_memory) std::reverse(order.begin(), order.end());
  auto pick = [&](VkMemoryPropertyFlags need) -> std::uint32_t {
    for (const std::uint32_t i : order)
      if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & need) == need) return i;
    return UINT32_MAX;
  };
  for (const VkMemoryPropertyFlags need :
       {want | ((want & kHost) ? VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_HOST_COHERENT_BIT} : 0u), want, want & kHost, 0u})
    if (const std::uint32_t t = pick(need); t != UINT32_MAX) return t;
  return UINT32_MAX;
}

void Replayer::place(const apitrace::Call& c, VkDevice device, std::uint64_t object, bool image,
                     std::uint64_t captured_memory) {
  if (!device || !object) fail(c, "binding an object the replay does not have");
  const auto gpu = devices_.find(device);
  if (gpu == devices_.end()) fail(c, "a device the replay does not have");
  VkMemoryRequirements req{};
  if (image) vkGetImageMemoryRequirements(device, reinterpret_cast<VkImage>(object), &req);
  else vkGetBufferMemoryRequirements(device, reinterpret_cast<VkBuffer>(object), &req);
  const auto cm = capture_memory_.find(captured_memory);
  const std::uint32_t capture_type = cm == capture_memory_.end() ? 0 : cm->second.first;
  const std::uint32_t type = choose_type(gpu->second, req.memoryTypeBits, capture_type);
  if (type == UINT32_MAX) fail(c, "no memory type here for this object");
  // --shuffle-memory (tests): the object away from the allocation's start.
  const VkDeviceSize offset =
      opt_.shuffle_memory ? ((req.alignment * 3 + 4096 + req.alignment - 1) / req.alignment) * req.alignment : 0;
  const VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size + offset, type};
  ObjectMemory om;
  om.device = device;
  om.size = req.size;
  om.type = type;
  om.capture_type = capture_type;
  om.image = image;
  VkResult r = vkAllocateMemory(device, &ai, nullptr, &om.memory);
  if (r != VK_SUCCESS) fail(c, "memory for an object: " + std::string(vk::result_name(r)));
  r = image ? vkBindImageMemory(device, reinterpret_cast<VkImage>(object), om.memory, offset)
            : vkBindBufferMemory(device, reinterpret_cast<VkBuffer>(object), om.memory, offset);
  if (r != VK_SUCCESS) fail(c, "binding an object's memory: " + std::string(vk::result_name(r)));
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(gpu->second, &props);
  if (props.memoryTypes[type].propertyFlags & kHost) {
    void* p = nullptr;
    if (vkMapMemory(device, om.memory, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS) {
      om.mapped = static_cast<char*>(p) + offset;
      std::memset(om.mapped, 0, req.size);  // as the capture left new memory: zeros
    }
  }
  if (const auto old = objects_.find(object); old != objects_.end()) vkFreeMemory(device, old->second.memory, nullptr);
  objects_[object] = om;
  MemoryUse& u = used_here_[type];
  u.flags = vk::memory_property_names(props.memoryTypes[type].propertyFlags);
  ++u.objects;
  u.bytes += req.size;
}

void Replayer::bind_memory(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  const auto device = reinterpret_cast<VkDevice>(handles_.get(d.uint_of(d.arg(0))));
  const bool image = std::string_view(c.name()).find("Image") != std::string_view::npos;
  place(c, device, handles_.get(d.uint_of(d.arg(1))), image, d.uint_of(d.arg(2)));
}

void Replayer::bind_memory2(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  const auto device = reinterpret_cast<VkDevice>(handles_.get(d.uint_of(d.arg(0))));
  const bool image = std::string_view(c.name()).find("Image") != std::string_view::npos;
  const std::uint32_t infos = d.arg(2);
  if (infos == apitrace::kNil || d.value(infos).kind != apitrace::Kind::array) return;
  for (std::uint32_t v = d.value(infos).first; v != apitrace::kNil; v = d.value(v).next) {
    const std::uint64_t object = member_of(d, v, image ? "image" : "buffer");
    const std::uint64_t memory = member_of(d, v, "memory");
    if (memory) place(c, device, handles_.get(object), image, memory);
  }
}

void Replayer::destroy_object(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  const std::uint64_t object = handles_.get(d.uint_of(d.arg(1)));
  generic(c, cmd);
  const auto it = objects_.find(object);
  if (it == objects_.end()) return;
  vkFreeMemory(it->second.device, it->second.memory, nullptr);
  objects_.erase(it);
}

void Replayer::free_objects(VkDevice device) {
  for (auto it = objects_.begin(); it != objects_.end();) {
    if (it->second.device == device) {
      vkFreeMemory(device, it->second.memory, nullptr);
      it = objects_.erase(it);
    } else {
      ++it;
    }
  }
}

void Replayer::update(const apitrace::Call& c) {
  CallDecoder d(c, arena_, handles_);
  const std::uint64_t object = handles_.get(d.uint_of(d.arg(1)));
  const auto it = objects_.find(object);
  if (it == objects_.end()) fail(c, "an update of an object that has no memory here");
  ObjectMemory& om = it->second;
  if (!om.mapped) {
    adapted("updates of objects placed in memory the host cannot see: left out");
    return;
  }
  const std::uint32_t runs = d.arg(2);
  if (runs == apitrace::kNil || d.value(runs).kind != apitrace::Kind::array) return;
  for (std::uint32_t v = d.value(runs).first; v != apitrace::kNil; v = d.value(v).next) {
    if (d.value(v).kind != apitrace::Kind::structure) continue;
    const std::uint32_t off = d.value(v).first;
    const std::uint32_t data = off == apitrace::kNil ? apitrace::kNil : d.value(off).next;
    if (data == apitrace::kNil || d.value(data).kind != apitrace::Kind::blob) continue;
    const std::uint64_t offset = d.value(off).num.u, n = d.value(data).len;
    if (offset > om.size || n > om.size - offset)
      fail(c, "an update past the object's end (" + std::to_string(offset + n) + " > " + std::to_string(om.size) + ")");
    std::memcpy(om.mapped + offset, c.bytes.data() + d.value(data).data, n);
    ++r_.updates;
    r_.update_bytes += n;
  }
}

}  // namespace libtrace::replay_trace
