// SPDX-License-Identifier: MIT
// Replayed creations: real buffers and images with re-queried requirements,
// memory types chosen for this device, allocations from trak's allocator,
// and what becomes of each (stored, counted as failed, or destroyed again
// when the recording says the original failed).
#include <bit>

#include "replay/vma/internal.hpp"

namespace libtrace::vma::detail {

namespace {

// VmaAllocationCreateFlagBits (VMA 2.x).
constexpr std::uint64_t kDedicated = 0x1, kNeverAllocate = 0x2, kMapped = 0x4, kCanBecomeLost = 0x8,
                        kCanMakeOtherLost = 0x10, kUpperAddress = 0x40;

bool retryable(vk::Failure f) {
  return f == vk::Failure::heap_budget || f == vk::Failure::device || f == vk::Failure::too_large ||
         f == vk::Failure::allocation_count || f == vk::Failure::never_allocate;
}

}  // namespace

vk::Allocation* Replayer::allocate(const Call& c, const Aci& aci, vk::AllocRequest q, std::uint32_t allowed,
                                   std::uint32_t recorded_requirement_bits, vk::Failure& why) {
  q.dedicated = aci.flags & kDedicated;
  q.never_allocate = aci.flags & kNeverAllocate;
  q.mapped = aci.flags & kMapped;
  q.can_become_lost = aci.flags & kCanBecomeLost;
  q.can_make_other_lost = aci.flags & kCanMakeOtherLost;
  q.upper_address = aci.flags & kUpperAddress;
  q.frame = c.frame;
  const PoolState* ps = nullptr;
  if (aci.pool) {
    auto it = pools_.find(aci.pool);
    if (it != pools_.end() && it->second.pool) {
      ps = &it->second;
    } else {
      compromise(Compromise::pool_unknown);
      if (it == pools_.end()) ++r_.unknown_objects;
    }
  }
  const int rt = ps ? ps->recorded_type
                    : types_.recorded(aci.usage, aci.required, aci.preferred, aci.type_bits, recorded_requirement_bits);
  if (ps) {
    const std::uint32_t pt = alloc_.pool_type(ps->pool);
    if (allowed & (1u << pt)) {
      q.type = pt;
      q.pool = ps->pool;
      vk::Allocation* a = alloc_.allocate(q, why);
      if (a && types_.count(rt, pt)) compromise(Compromise::missing_flags);
      return a;
    }
    compromise(Compromise::pool_type_incompatible);
    q.upper_address = false;  // the pool's double stack is not where it goes
  }
  const auto choice = types_.choose(rt, aci.usage, aci.required, aci.preferred, allowed);
  if (choice.type < 0) {
    why = vk::Failure::no_memory_type;
    return nullptr;
  }
  if (choice.required_unmet) compromise(Compromise::required_flags_unmet);
  q.type = static_cast<std::uint32_t>(choice.type);
  vk::Allocation* a = alloc_.allocate(q, why);
  // VMA tries the other types that have the required flags.
  std::uint32_t tried = 1u << q.type;
  while (!a && retryable(why)) {
    const auto next = types_.choose(rt, aci.usage, aci.required, aci.preferred, allowed & ~tried, false);
    if (next.type < 0) break;
    q.type = static_cast<std::uint32_t>(next.type);
    tried |= 1u << q.type;
    vk::Failure again = vk::Failure::none;
    a = alloc_.allocate(q, again);
    if (a) compromise(Compromise::type_fallback);
  }
  if (a && types_.count(rt, a->type)) compromise(Compromise::missing_flags);
  return a;
}

void Replayer::outcome(const Call& c, std::uint64_t ptr, Live l, vk::Failure why) {
  const bool ok = l.a != nullptr;
  if (ok && l.a->dedicated) ++r_.dedicated_allocations;
  if (!ptr) {
    // The original failed: VmaReplay also tries, and destroys a success.
    if (ok)
      ++r_.succeeded_originally_failed;
    else
      ++r_.failed_also_originally;
    destroy(l);
    return;
  }
  if (!ok) {
    ++r_.failed[static_cast<std::size_t>(why)];
    warn(c, std::string(function_name(c.function)) + " failed here (" + std::string(vk::failure_name(why)) +
                "), while it succeeded in the recording");
    destroy(l);  // the resource, if any; the pointer stays known
  }
  auto [it, fresh] = live_.try_emplace(ptr);
  if (!fresh) {
    // A live pointer handed out again: its destruction was not recorded.
    warn(c, "allocation " + hex(ptr) + " created again while live; the old one is freed");
    destroy(it->second);
  }
  it->second = l;
  if (it->second.a) it->second.a->user = &it->second;
}

void Replayer::destroy(Live& l) {
  if (l.buffer) vkDestroyBuffer(dev_.handle(), l.buffer, nullptr);
  if (l.image) vkDestroyImage(dev_.handle(), l.image, nullptr);
  alloc_.free(l.a);
  l = Live{};
}

void Replayer::create_buffer(const Call& c) {
  const auto& n = c.num;
  const std::uint64_t ptr = n[10];
  if (ptr)
    ++r_.buffers;
  else
    ++r_.originally_failed;
  const BufferSpec spec = buffer_spec(n, device_address_);
  if (spec.adjusted) compromise(Compromise::buffer_adjusted);
  Live l;
  l.buffer_info = spec.info;
  if (!spec.valid) return outcome(c, ptr, l, vk::Failure::invalid);
  if (vkCreateBuffer(dev_.handle(), &spec.info, nullptr, &l.buffer) != VK_SUCCESS) {
    l.buffer = VK_NULL_HANDLE;
    ++r_.resource_failures;
    return outcome(c, ptr, l, vk::Failure::invalid);
  }
  const auto req = dev_.requirements(l.buffer);
  vk::AllocRequest q;
  q.size = req.memory.size;
  q.alignment = req.memory.alignment;
  q.kind = alloc::Kind::buffer;
  q.prefers_dedicated = req.prefers_dedicated;
  q.requires_dedicated = req.requires_dedicated;
  vk::Failure why = vk::Failure::none;
  l.a = allocate(c, aci_at(n, 4), q, req.memory.memoryTypeBits, ~0u, why);
  if (l.a && vkBindBufferMemory(dev_.handle(), l.buffer, l.a->memory, l.a->offset) != VK_SUCCESS)
    ++r_.resource_failures;
  outcome(c, ptr, l, why);
}

void Replayer::create_image(const Call& c) {
  const auto& n = c.num;
  const std::uint64_t ptr = n[19];
  if (ptr)
    ++r_.images;
  else
    ++r_.originally_failed;
  const ImageSpec spec = image_spec(n, dev_.info());
  Live l;
  vk::AllocRequest q;
  std::uint32_t allowed = types_.all_types();
  q.kind = n[9] == VK_IMAGE_TILING_LINEAR ? alloc::Kind::image_linear : alloc::Kind::image_optimal;
  bool have_image = false;
  if (spec.supported) {
    if (spec.adjusted) compromise(Compromise::image_adjusted);
    l.image_info = spec.info;
    if (vkCreateImage(dev_.handle(), &spec.info, nullptr, &l.image) == VK_SUCCESS) {
      have_image = true;
      const auto req = dev_.requirements(l.image);
      q.size = req.memory.size;
      q.alignment = req.memory.alignment;
      q.prefers_dedicated = req.prefers_dedicated;
      q.requires_dedicated = req.requires_dedicated;
      q.kind = spec.info.tiling == VK_IMAGE_TILING_LINEAR ? alloc::Kind::image_linear : alloc::Kind::image_optimal;
      allowed = req.memory.memoryTypeBits;
    } else {
      l.image = VK_NULL_HANDLE;
      ++r_.resource_failures;
    }
  }
  if (!have_image) {
    // No such image here: its memory still counts, as plain memory of the
    // estimated size.
    compromise(Compromise::image_unsupported);
    q.size = alloc::align_up(spec.estimated_bytes, 4096);
    q.alignment = 4096;
  }
  vk::Failure why = vk::Failure::none;
  l.a = allocate(c, aci_at(n, 13), q, allowed, ~0u, why);
  if (l.a && l.image && vkBindImageMemory(dev_.handle(), l.image, l.a->memory, l.a->offset) != VK_SUCCESS)
    ++r_.resource_failures;
  outcome(c, ptr, l, why);
}

void Replayer::allocate_memory(const Call& c, alloc::Kind kind) {
  // vmaAllocateMemory: size, alignment, memoryTypeBits, aci..., allocation.
  // ForBuffer/ForImage: the same with requiresDedicated, prefersDedicated
  // between the requirements and aci.
  const auto& n = c.num;
  const bool for_resource = c.function != Function::AllocateMemory;
  const std::size_t aci = for_resource ? 5 : 3;
  const std::uint64_t ptr = n[aci + 6];
  if (ptr)
    ++r_.memory_allocations;
  else
    ++r_.originally_failed;
  vk::AllocRequest q;
  q.size = n[0];
  q.alignment = n[1] ? n[1] : 1;
  q.kind = kind;
  if (for_resource) {
    q.requires_dedicated = n[3];
    q.prefers_dedicated = n[4];
  }
  if (!std::has_single_bit(q.alignment)) {
    compromise(Compromise::alignment_rounded);
    q.alignment = q.alignment > (1ull << 62) ? 1ull << 62 : std::bit_ceil(q.alignment);
  }
  // No resource to ask: the recorded size and alignment stand.
  compromise(Compromise::recorded_requirements);
  Live l;
  vk::Failure why = vk::Failure::none;
  if (q.size)
    l.a = allocate(c, aci_at(n, aci), q, types_.all_types(), static_cast<std::uint32_t>(n[2]), why);
  else
    why = vk::Failure::invalid;
  outcome(c, ptr, l, why);
}

void Replayer::allocate_pages(const Call& c) {
  const auto& n = c.num;
  // A failed call leaves every page null (trak-stat counts each).
  std::vector<std::uint64_t> pages;
  for (std::uint64_t p : c.lists[0]) {
    if (p)
      pages.push_back(p);
    else
      ++r_.originally_failed;
  }
  if (c.lists[0].empty()) ++r_.originally_failed;
  if (pages.empty()) return;
  r_.pages += pages.size();
  compromise(Compromise::recorded_requirements);
  vk::AllocRequest q;
  q.size = n[0];
  q.alignment = n[1] && std::has_single_bit(n[1]) ? n[1] : 1;
  if (n[1] && !std::has_single_bit(n[1])) compromise(Compromise::alignment_rounded);
  // All or nothing, as vmaAllocateMemoryPages.
  std::vector<Live> made(pages.size());
  vk::Failure why = q.size ? vk::Failure::none : vk::Failure::invalid;
  bool failed = !q.size;
  for (std::size_t i = 0; i < pages.size() && !failed; ++i) {
    made[i].a = allocate(c, aci_at(n, 3), q, types_.all_types(), static_cast<std::uint32_t>(n[2]), why);
    failed = !made[i].a;
  }
  if (failed)
    for (Live& l : made) destroy(l);
  for (std::size_t i = 0; i < pages.size(); ++i) outcome(c, pages[i], made[i], why);
}

void Replayer::rebind(vk::Allocation& a) {
  // A moved allocation's resource is created again and bound at the new
  // place, as an application does after VMA's defragmentation.
  Live& l = *static_cast<Live*>(a.user);
  if (l.buffer) {
    VkBuffer fresh = VK_NULL_HANDLE;
    if (vkCreateBuffer(dev_.handle(), &l.buffer_info, nullptr, &fresh) != VK_SUCCESS) return;
    (void)dev_.requirements(fresh);  // valid usage: query before binding
    vkBindBufferMemory(dev_.handle(), fresh, a.memory, a.offset);
    vkDestroyBuffer(dev_.handle(), l.buffer, nullptr);
    l.buffer = fresh;
    ++r_.ops.rebinds;
  } else if (l.image) {
    VkImage fresh = VK_NULL_HANDLE;
    if (vkCreateImage(dev_.handle(), &l.image_info, nullptr, &fresh) != VK_SUCCESS) return;
    (void)dev_.requirements(fresh);
    vkBindImageMemory(dev_.handle(), fresh, a.memory, a.offset);
    vkDestroyImage(dev_.handle(), l.image, nullptr);
    l.image = fresh;
    ++r_.ops.rebinds;
  }
}

}  // namespace libtrace::vma::detail
