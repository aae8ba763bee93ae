// SPDX-License-Identifier: MIT
// The trace's hand-written parts: what the registry cannot say a command
// does. Here memory (virtual types, allocations, maps, binds), queues,
// swapchains and the snapshots at presents; in hooks_commands.cpp what
// command buffers name and the update records before each submit.
// Everything else is recorded as vk.xml describes it.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

#include "capture/trace/call.hpp"
#include "capture/trace/device.hpp"
#include "capture/trace/encode.hpp"
#include "capture/trace/hooks.hpp"
#include "capture/trace/snapshot.hpp"

namespace libtrace::capture::trace {

namespace {

// ---- memory types as the application sees them ----

void physical_device_record(Call& c) {
  // Before vkCreateDevice: what a replay on another device must know of this one.
  const VkPhysicalDevice gpu = arg<VkPhysicalDevice>(c, 0);
  Stream* s = Stream::get();
  Keeper* k = trim_asked() ? Trim::get()->keeper() : nullptr;
  if (!s && !k) return;
  VkPhysicalDeviceProperties props{};
  c.inst->t.GetPhysicalDeviceProperties(gpu, &props);
  const VirtualTypes& v = virtual_types(gpu, c.inst->t.GetPhysicalDeviceMemoryProperties);
  static const registry::Struct* props_s = registry::find_struct("VkPhysicalDeviceProperties");
  static const registry::Struct* mem_s = registry::find_struct("VkPhysicalDeviceMemoryProperties");
  const std::uint32_t tid = Stream::thread_id();
  const auto serialize = [&](Event& e) {
    begin_own_call(e, tid, vktrace::OwnCall::physical_device);
    put_arg(e, vktrace::kPhysicalDevice);
    put_pointer(e, reinterpret_cast<std::uintptr_t>(gpu));
    put_arg(e, vktrace::kDeviceProperties);
    put_struct(e, *props_s, &props);
    put_arg(e, vktrace::kMemoryProperties);
    put_struct(e, *mem_s, &v.real);
    put_arg(e, vktrace::kMemoryTypes);
    put_array(e, v.to_real.size());  // the real type of each type the application sees
    for (const std::uint32_t r : v.to_real) put_uint(e, r);
    end_details(e);
  };
  if (s) {
    Event e(*s);
    serialize(e);
    s->commit(e, Stream::Kind::whole, serialize);
  }
  if (k) {  // kept while the physical device is: until the instance goes
    Event e;
    serialize(e);
    const std::uint64_t seq = k->enter(e, true, {{reinterpret_cast<std::uintptr_t>(gpu), Kind::none}});
    k->leave(seq, true, nullptr);
    k->own_by_object(seq, reinterpret_cast<std::uintptr_t>(gpu));
    k->settle(seq);
  }
}

void memory_properties(Call& c) {
  const VkPhysicalDevice gpu = arg<VkPhysicalDevice>(c, 0);
  auto* out = arg<VkPhysicalDeviceMemoryProperties*>(c, 1);
  if (out) *out = virtual_types(gpu, c.inst->t.GetPhysicalDeviceMemoryProperties).shown;
}

void memory_properties2(Call& c) {
  const VkPhysicalDevice gpu = arg<VkPhysicalDevice>(c, 0);
  auto* out = arg<VkPhysicalDeviceMemoryProperties2*>(c, 1);
  if (out) out->memoryProperties = virtual_types(gpu, c.inst->t.GetPhysicalDeviceMemoryProperties).shown;
}

template <std::size_t I>
void requirements(Call& c) {
  if (auto* r = arg<VkMemoryRequirements*>(c, I); r && trace_of(c))
    r->memoryTypeBits = trace_of(c)->types.shown_bits(r->memoryTypeBits);
}
template <std::size_t I>
void requirements2(Call& c) {
  if (auto* r = arg<VkMemoryRequirements2*>(c, I); r && trace_of(c))
    r->memoryRequirements.memoryTypeBits = trace_of(c)->types.shown_bits(r->memoryRequirements.memoryTypeBits);
}
// VkMemoryFdPropertiesKHR and VkMemoryHostPointerPropertiesEXT: sType, pNext, memoryTypeBits.
void type_bits_props(Call& c) {
  if (auto* p = arg<VkMemoryFdPropertiesKHR*>(c, 3); p && trace_of(c) && ok(c))
    p->memoryTypeBits = trace_of(c)->types.shown_bits(p->memoryTypeBits);
}

// ---- memory ----

void allocate_before(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const VkMemoryAllocateInfo* ai = arg<const VkMemoryAllocateInfo*>(c, 1);
  if (!dt || !ai || ai->memoryTypeIndex >= dt->types.to_real.size()) return;
  auto copy = std::make_shared<VkMemoryAllocateInfo>(*ai);
  copy->memoryTypeIndex = dt->types.to_real[ai->memoryTypeIndex];
  arg<const VkMemoryAllocateInfo*>(c, 1) = copy.get();
  c.keep = std::move(copy);
}

void allocate_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const VkMemoryAllocateInfo* ai = arg<const VkMemoryAllocateInfo*>(c, 1);  // the real type now
  if (!dt || !ok(c) || !ai) return;
  Memory m;
  m.size = ai->allocationSize;
  m.real_type = ai->memoryTypeIndex;
  m.host_visible = m.real_type < dt->types.real.memoryTypeCount &&
                   (dt->types.real.memoryTypes[m.real_type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  const VkDeviceMemory memory = *arg<VkDeviceMemory*>(c, 3);
  if (m.host_visible) {
    // A new allocation's bytes are undefined, so the layer may choose them:
    // zeros, the same on both sides, so that a host write of the bytes a
    // reused block happened to hold is not mistaken for no write at all.
    void* p = nullptr;
    if (dt->next.MapMemory(dt->device, memory, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS) {
      std::memset(p, 0, m.size);
      dt->next.UnmapMemory(dt->device, memory);
      m.zeroed = true;
    }
  }
  const std::lock_guard lock(dt->mu);
  dt->memories[handle_bits(memory)] = std::move(m);
}

void free_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  const std::lock_guard lock(dt->mu);
  const auto it = dt->memories.find(handle_bits(arg<VkDeviceMemory>(c, 1)));
  if (it == dt->memories.end()) return;
  for (const auto& [offset, b] : it->second.objects) dt->bound_at.erase(b.handle);
  dt->memories.erase(it);
}

void mapped(DeviceTrace& dt, std::uint64_t memory, VkDeviceSize offset, VkDeviceSize size, void* p) {
  const std::lock_guard lock(dt.mu);
  const auto it = dt.memories.find(memory);
  if (it == dt.memories.end() || !p) return;
  Memory& m = it->second;
  m.mapped = static_cast<const char*>(p);
  m.map_offset = offset;
  m.map_size = size == VK_WHOLE_SIZE ? m.size - offset : size;
  // The copy the host's writes are diffed against, kept while the memory
  // lives: zeros, as the layer left the allocation. (Memory it could not
  // clear starts from what the host sees at its first map.)
  if (m.shadow.size() != m.size) {
    m.shadow.assign(m.size, 0);
    if (!m.zeroed) std::memcpy(m.shadow.data() + m.map_offset, m.mapped, m.map_size);
  }
}

void map_after(Call& c) {
  if (DeviceTrace* dt = trace_of(c); dt && ok(c))
    mapped(*dt, handle_bits(arg<VkDeviceMemory>(c, 1)), arg<VkDeviceSize>(c, 2), arg<VkDeviceSize>(c, 3),
           *arg<void**>(c, 5));
}

#ifdef VK_KHR_map_memory2
void map2_after(Call& c) {
  const auto* info = arg<const VkMemoryMapInfoKHR*>(c, 1);
  if (DeviceTrace* dt = trace_of(c); dt && ok(c) && info)
    mapped(*dt, handle_bits(info->memory), info->offset, info->size, *arg<void**>(c, 2));
}
#endif

void unmapped(DeviceTrace& dt, std::uint64_t memory) {
  const std::lock_guard lock(dt.mu);
  if (const auto it = dt.memories.find(memory); it != dt.memories.end()) it->second.mapped = nullptr;
}

void unmap_before(Call& c) {
  if (DeviceTrace* dt = trace_of(c)) dt->record_host_writes(handle_bits(arg<VkDeviceMemory>(c, 1)));
}
void unmap_after(Call& c) {
  if (DeviceTrace* dt = trace_of(c)) unmapped(*dt, handle_bits(arg<VkDeviceMemory>(c, 1)));
}
#ifdef VK_KHR_map_memory2
void unmap2_before(Call& c) {
  if (DeviceTrace* dt = trace_of(c); dt && arg<const VkMemoryUnmapInfoKHR*>(c, 1))
    dt->record_host_writes(handle_bits(arg<const VkMemoryUnmapInfoKHR*>(c, 1)->memory));
}
void unmap2_after(Call& c) {
  if (DeviceTrace* dt = trace_of(c); dt && arg<const VkMemoryUnmapInfoKHR*>(c, 1))
    unmapped(*dt, handle_bits(arg<const VkMemoryUnmapInfoKHR*>(c, 1)->memory));
}
#endif

void bind(DeviceTrace& dt, std::uint64_t object, bool image, std::uint64_t memory, VkDeviceSize offset) {
  VkDeviceSize size = 0;
  if (image) {
    VkMemoryRequirements req{};
    dt.next.GetImageMemoryRequirements(dt.device, reinterpret_cast<VkImage>(object), &req);
    size = req.size;
  }
  const std::lock_guard lock(dt.mu);
  if (!image) {
    const auto s = dt.buffer_sizes.find(object);
    if (s == dt.buffer_sizes.end()) return;
    size = s->second;
  }
  const auto it = dt.memories.find(memory);
  if (it == dt.memories.end()) return;
  Bound b;
  b.handle = object;
  b.image = image;
  b.size = std::min(size, it->second.size - std::min(offset, it->second.size));
  Memory& m = it->second;
  // The bytes objects bound there now hold are this one's too (aliases).
  // Those of objects gone (a suballocator reusing the range) are left, and
  // a replay has zeros there: giving them wrote zink's stale slab data (a
  // 19 MB capture became 32), though an application that rewrites them with
  // the same bytes then replays zeros (the diff sees no write).
  std::vector<Run> owed;
  for (auto o = m.objects.begin(); o != m.objects.end() && o->first < offset + b.size; ++o) {
    const VkDeviceSize lo = std::max(o->first, offset), hi = std::min(o->first + o->second.size, offset + b.size);
    if (lo >= hi) continue;
    m.aliased = true;
    if (m.shadow.size() != m.size) continue;
    for (const Run& r : nonzero_runs(m.shadow.data() + lo, hi - lo)) owed.push_back({r.lo + lo, r.hi + lo});
  }
  m.objects.emplace(offset, b);
  dt.bound_at[object] = {memory, offset};
  if (!owed.empty()) {
    merge_runs(owed);
    m.owed[object] = std::move(owed);
  }
}

void unbind(DeviceTrace& dt, std::uint64_t object) {
  const std::lock_guard lock(dt.mu);
  const auto at = dt.bound_at.find(object);
  if (at == dt.bound_at.end()) return;
  if (const auto m = dt.memories.find(at->second.first); m != dt.memories.end()) {
    auto [lo, hi] = m->second.objects.equal_range(at->second.second);
    for (auto it = lo; it != hi; ++it)
      if (it->second.handle == object) {
        m->second.objects.erase(it);
        break;
      }
    m->second.owed.erase(object);
  }
  dt.bound_at.erase(at);
}

template <bool Image>
void bind_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt || !ok(c)) return;
  bind(*dt, arg<std::uint64_t>(c, 1), Image, handle_bits(arg<VkDeviceMemory>(c, 2)), arg<VkDeviceSize>(c, 3));
}

void bind_buffers2_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt || !ok(c)) return;
  const auto* infos = arg<const VkBindBufferMemoryInfo*>(c, 2);
  for (std::uint32_t i = 0; infos && i < arg<std::uint32_t>(c, 1); ++i)
    bind(*dt, handle_bits(infos[i].buffer), false, handle_bits(infos[i].memory), infos[i].memoryOffset);
}

void bind_images2_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt || !ok(c)) return;
  const auto* infos = arg<const VkBindImageMemoryInfo*>(c, 2);
  for (std::uint32_t i = 0; infos && i < arg<std::uint32_t>(c, 1); ++i)
    if (infos[i].memory)
      bind(*dt, handle_bits(infos[i].image), true, handle_bits(infos[i].memory), infos[i].memoryOffset);
}

void create_buffer_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt || !ok(c)) return;
  const auto* ci = arg<const VkBufferCreateInfo*>(c, 1);  // the layer's copy where it added usage
  const std::lock_guard lock(dt->mu);
  dt->buffer_sizes[handle_bits(*arg<VkBuffer*>(c, 3))] = ci->size;
  if (ci->usage & VK_BUFFER_USAGE_TRANSFER_SRC_BIT) dt->readable_buffers.insert(handle_bits(*arg<VkBuffer*>(c, 3)));
}

void destroy_buffer_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  const std::uint64_t b = arg<std::uint64_t>(c, 1);
  unbind(*dt, b);
  const std::lock_guard lock(dt->mu);
  dt->buffer_sizes.erase(b);
  dt->addressed.erase(b);
  dt->readable_buffers.erase(b);
}

void destroy_image_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  unbind(*dt, arg<std::uint64_t>(c, 1));
  const std::lock_guard lock(dt->mu);
  dt->images.erase(arg<std::uint64_t>(c, 1));
  dt->layouts.erase(arg<std::uint64_t>(c, 1));
}

// ---- queues, swapchains, presents ----

void queue_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt || !*arg<VkQueue*>(c, 3)) return;
  const std::lock_guard lock(dt->mu);
  dt->queue_families[*arg<VkQueue*>(c, 3)] = arg<std::uint32_t>(c, 1);
}

void queue2_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* info = arg<const VkDeviceQueueInfo2*>(c, 1);
  if (!dt || !info || !*arg<VkQueue*>(c, 2)) return;
  const std::lock_guard lock(dt->mu);
  dt->queue_families[*arg<VkQueue*>(c, 2)] = info->queueFamilyIndex;
}

struct SwapchainCopy {
  VkSwapchainCreateInfoKHR ci;
  bool readable;
};

void swapchain_before(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* ci = arg<const VkSwapchainCreateInfoKHR*>(c, 1);
  if (!dt || !ci) return;
  auto copy =
      std::make_shared<SwapchainCopy>(SwapchainCopy{*ci, (ci->imageUsage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0});
  if (dt->snapshots && !copy->readable) {
    // Snapshots read the presented image back: the layer asks for that
    // usage where the surface allows it.
    VkSurfaceCapabilitiesKHR caps{};
    const auto inst = find_instance(dt->gpu);
    if (inst && inst->t.GetPhysicalDeviceSurfaceCapabilitiesKHR &&
        inst->t.GetPhysicalDeviceSurfaceCapabilitiesKHR(dt->gpu, ci->surface, &caps) == VK_SUCCESS &&
        (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT)) {
      copy->ci.imageUsage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
      copy->readable = true;
    }
  }
  arg<const VkSwapchainCreateInfoKHR*>(c, 1) = &copy->ci;
  c.keep = std::move(copy);
}

void swapchain_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt || !ok(c) || !c.keep) return;
  const auto* copy = static_cast<const SwapchainCopy*>(c.keep.get());
  Swapchain sc;
  sc.format = copy->ci.imageFormat;
  sc.extent = copy->ci.imageExtent;
  sc.readable = copy->readable;
  const std::lock_guard lock(dt->mu);
  dt->swapchains[handle_bits(*arg<VkSwapchainKHR*>(c, 3))] = sc;
}

void swapchain_images_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const VkImage* images = arg<VkImage*>(c, 3);
  if (!dt || !images || (c.result() != VK_SUCCESS && c.result() != VK_INCOMPLETE)) return;
  const std::lock_guard lock(dt->mu);
  const auto it = dt->swapchains.find(arg<std::uint64_t>(c, 1));
  if (it != dt->swapchains.end()) it->second.images.assign(images, images + *arg<std::uint32_t*>(c, 2));
}

void swapchain_destroy_after(Call& c) {
  DeviceTrace* dt = trace_of(c);
  if (!dt) return;
  const std::lock_guard lock(dt->mu);
  dt->swapchains.erase(arg<std::uint64_t>(c, 1));
}

void present_before(Call& c) {
  DeviceTrace* dt = trace_of(c);
  const auto* info = arg<const VkPresentInfoKHR*>(c, 1);
  if (!dt || !info) return;
  const std::uint64_t frame = Stream::next_frame();
  if (!dt->snapshots || !dt->snapshots->wanted(frame)) return;
  const VkSemaphore done = dt->snapshots->take(*dt, arg<VkQueue>(c, 0), *info, frame);
  if (!done) return;
  struct Present {
    VkPresentInfoKHR info;
    VkSemaphore wait;
  };
  auto p = std::make_shared<Present>(Present{*info, done});
  p->info.waitSemaphoreCount = 1;
  p->info.pWaitSemaphores = &p->wait;
  arg<const VkPresentInfoKHR*>(c, 1) = &p->info;
  c.keep = std::move(p);
}

struct Named {
  const char* name;
  Hooks hooks;
};

// Sorted by name.
const Named kHooks[] = {
    {"vkAllocateMemory", {nullptr, allocate_before, allocate_after}},
    {"vkBindBufferMemory", {nullptr, nullptr, bind_after<false>}},
    {"vkBindBufferMemory2", {nullptr, nullptr, bind_buffers2_after}},
    {"vkBindBufferMemory2KHR", {nullptr, nullptr, bind_buffers2_after}},
    {"vkBindImageMemory", {nullptr, nullptr, bind_after<true>}},
    {"vkBindImageMemory2", {nullptr, nullptr, bind_images2_after}},
    {"vkBindImageMemory2KHR", {nullptr, nullptr, bind_images2_after}},
    {"vkCreateBuffer", {nullptr, trim_buffer_before, create_buffer_after}},
    {"vkCreateDevice", {physical_device_record, nullptr, nullptr}},
    {"vkCreateSwapchainKHR", {nullptr, swapchain_before, swapchain_after}},
    {"vkDestroyBuffer", {nullptr, nullptr, destroy_buffer_after}},
    {"vkDestroyImage", {nullptr, nullptr, destroy_image_after}},
    {"vkDestroySwapchainKHR", {nullptr, nullptr, swapchain_destroy_after}},
    {"vkFreeMemory", {nullptr, nullptr, free_after}},
    {"vkGetBufferMemoryRequirements", {nullptr, nullptr, requirements<2>}},
    {"vkGetBufferMemoryRequirements2", {nullptr, nullptr, requirements2<2>}},
    {"vkGetBufferMemoryRequirements2KHR", {nullptr, nullptr, requirements2<2>}},
    {"vkGetDeviceBufferMemoryRequirements", {nullptr, nullptr, requirements2<2>}},
    {"vkGetDeviceBufferMemoryRequirementsKHR", {nullptr, nullptr, requirements2<2>}},
    {"vkGetDeviceImageMemoryRequirements", {nullptr, nullptr, requirements2<2>}},
    {"vkGetDeviceImageMemoryRequirementsKHR", {nullptr, nullptr, requirements2<2>}},
    {"vkGetDeviceQueue", {nullptr, nullptr, queue_after}},
    {"vkGetDeviceQueue2", {nullptr, nullptr, queue2_after}},
    {"vkGetImageMemoryRequirements", {nullptr, nullptr, requirements<2>}},
    {"vkGetImageMemoryRequirements2", {nullptr, nullptr, requirements2<2>}},
    {"vkGetImageMemoryRequirements2KHR", {nullptr, nullptr, requirements2<2>}},
    {"vkGetMemoryFdPropertiesKHR", {nullptr, nullptr, type_bits_props}},
    {"vkGetMemoryHostPointerPropertiesEXT", {nullptr, nullptr, type_bits_props}},
    {"vkGetPhysicalDeviceMemoryProperties", {nullptr, nullptr, memory_properties}},
    {"vkGetPhysicalDeviceMemoryProperties2", {nullptr, nullptr, memory_properties2}},
    {"vkGetPhysicalDeviceMemoryProperties2KHR", {nullptr, nullptr, memory_properties2}},
    {"vkGetSwapchainImagesKHR", {nullptr, nullptr, swapchain_images_after}},
    {"vkMapMemory", {nullptr, nullptr, map_after}},
#ifdef VK_KHR_map_memory2
    {"vkMapMemory2KHR", {nullptr, nullptr, map2_after}},
#endif
    {"vkQueuePresentKHR", {nullptr, present_before, nullptr}},
    {"vkUnmapMemory", {unmap_before, nullptr, unmap_after}},
#ifdef VK_KHR_map_memory2
    {"vkUnmapMemory2KHR", {unmap2_before, nullptr, unmap2_after}},
#endif
};

}  // namespace

const Hooks* find_hooks(const char* name) {
  const Named* n = find_named(std::span<const Named>(kHooks), name);
  return n ? &n->hooks : find_command_hooks(name);
}

}  // namespace libtrace::capture::trace
