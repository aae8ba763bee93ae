// SPDX-License-Identifier: MIT
// Object-based memory on replay: the application's allocations, maps and
// binds are not replayed as recorded. Each buffer and image is placed in a
// memory type of this device chosen from what the capture says the
// application needed (the virtual types: host-visible or device-local), at
// this device's size and alignment, in blocks of the replay's own shared by
// objects of one type (trak's free-list suballocation); the capture's update
// records are written into it.
#include <volk.h>

#include <algorithm>
#include <cstring>

#include "libtrace/vk/device.hpp"
#include "replay/trace/replayer.hpp"
#include "vktrace/calls.hpp"
#include "vktrace/values.hpp"

namespace libtrace::replay_trace {

namespace {

constexpr VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
// The replay's device memory objects: objects share blocks of this size;
// one larger than half of it gets its own.
constexpr VkDeviceSize kBlockSize = 64ull << 20;

// A member of a recorded struct value by name (the raw value: captured handles stay captured).
std::uint64_t member_of(const CallDecoder& d, std::uint32_t v, std::string_view name) {
  return d.uint_of(d.field(v, name));
}

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

VkMemoryPropertyFlags Replayer::needs(std::uint32_t capture_type) const {
  // Unknown needs (a stream without trakPhysicalDevice): host-visible, so
  // that updates can be written.
  const VkMemoryPropertyFlags captured = capture_.known ? capture_.shown_flags(capture_type) : kHost;
  return captured & (kHost | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
}

void begin_one_time(VkDevice device, VkCommandPool pool, VkCommandBuffer& cmd) {
  const VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  vk::check(vkAllocateCommandBuffers(device, &cai, &cmd), "vkAllocateCommandBuffers");
  const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  vkBeginCommandBuffer(cmd, &begin);
}

std::uint32_t Replayer::choose_type(VkPhysicalDevice gpu, std::uint32_t bits, VkMemoryPropertyFlags want) const {
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(gpu, &props);
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < props.memoryTypeCount; ++i) order.push_back(i);
  if (opt_.shuffle_memory) std::reverse(order.begin(), order.end());
  auto pick = [&](VkMemoryPropertyFlags need) -> std::uint32_t {
    for (const std::uint32_t i : order)
      if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & need) == need) return i;
    return UINT32_MAX;
  };
  for (const VkMemoryPropertyFlags need :
       {want | ((want & kHost) ? VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_HOST_COHERENT_BIT} : 0u), want, want & kHost,
        0u})
    if (const std::uint32_t t = pick(need); t != UINT32_MAX) return t;
  return UINT32_MAX;
}

Block& Replayer::block_for(const apitrace::Call& c, VkDevice device, std::uint32_t type, VkDeviceSize size,
                           VkDeviceSize alignment, alloc::Kind kind, bool dedicated, VkDeviceSize& offset) {
  const alloc::Request request{size, std::max<VkDeviceSize>(alignment, 1), kind, false};
  if (!dedicated && size <= kBlockSize / 2) {
    for (const auto& b : blocks_) {
      if (b->device != device || b->type != type || b->dedicated) continue;
      if (const auto at = b->ranges->find(request)) {
        b->ranges->allocate(*at, request, nullptr);
        offset = *at;
        return *b;
      }
    }
  }
  auto b = std::make_unique<Block>();
  b->device = device;
  b->type = type;
  b->dedicated = dedicated || size > kBlockSize / 2;
  const VkDeviceSize block_size = b->dedicated ? size : kBlockSize;
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(devices_.at(device), &props);
  b->ranges = alloc::make_suballocator(alloc::Algorithm::free_list, block_size,
                                       std::max<VkDeviceSize>(props.limits.bufferImageGranularity, 1), 0);
  const VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, block_size, type};
  const VkResult r = vkAllocateMemory(device, &ai, nullptr, &b->memory);
  if (r != VK_SUCCESS) fail(c, "memory for objects: " + std::string(vk::result_name(r)));
  VkPhysicalDeviceMemoryProperties mem{};
  vkGetPhysicalDeviceMemoryProperties(devices_.at(device), &mem);
  void* p = nullptr;
  if ((mem.memoryTypes[type].propertyFlags & kHost) &&
      vkMapMemory(device, b->memory, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS)
    b->mapped = static_cast<char*>(p);
  const auto at = b->ranges->find(request);
  if (!at) fail(c, "an object larger than its own block");
  b->ranges->allocate(*at, request, nullptr);
  offset = *at;
  blocks_.push_back(std::move(b));
  return *blocks_.back();
}

void Replayer::release(const ObjectMemory& om) {
  Block* b = om.block;
  b->ranges->free(om.offset);
  if (!b->ranges->empty()) return;
  vkFreeMemory(b->device, b->memory, nullptr);  // unmapped with it
  blocks_.erase(std::find_if(blocks_.begin(), blocks_.end(), [&](const auto& x) { return x.get() == b; }));
}

void Replayer::place(const apitrace::Call& c, VkDevice device, std::uint64_t object, bool image,
                     std::uint64_t captured_memory) {
  if (!device || !object) fail(c, "binding an object the replay does not have");
  const auto gpu = devices_.find(device);
  if (gpu == devices_.end()) fail(c, "a device the replay does not have");
  // This device's size, alignment and types for the object, and whether it
  // must have memory of its own.
  VkMemoryDedicatedRequirements dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS, nullptr, VK_FALSE, VK_FALSE};
  VkMemoryRequirements2 req2{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &dedicated, {}};
  // Through the device's own pointers: on a Vulkan 1.0 instance (vkcube's)
  // the loader has trampolines for vkGet*MemoryRequirements2 that lead
  // nowhere. Without them nothing can require dedicated memory.
  const auto image2 =
      reinterpret_cast<PFN_vkGetImageMemoryRequirements2>(vkGetDeviceProcAddr(device, "vkGetImageMemoryRequirements2"));
  const auto buffer2 = reinterpret_cast<PFN_vkGetBufferMemoryRequirements2>(
      vkGetDeviceProcAddr(device, "vkGetBufferMemoryRequirements2"));
  if (image && image2) {
    const VkImageMemoryRequirementsInfo2 info{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2, nullptr,
                                              reinterpret_cast<VkImage>(object)};
    image2(device, &info, &req2);
  } else if (!image && buffer2) {
    const VkBufferMemoryRequirementsInfo2 info{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, nullptr,
                                               reinterpret_cast<VkBuffer>(object)};
    buffer2(device, &info, &req2);
  } else if (image) {
    vkGetImageMemoryRequirements(device, reinterpret_cast<VkImage>(object), &req2.memoryRequirements);
  } else {
    vkGetBufferMemoryRequirements(device, reinterpret_cast<VkBuffer>(object), &req2.memoryRequirements);
  }
  const VkMemoryRequirements& req = req2.memoryRequirements;
  const auto cm = capture_memory_.find(captured_memory);
  const std::uint32_t capture_type = cm == capture_memory_.end() ? 0 : cm->second.first;
  const std::uint32_t type = choose_type(gpu->second, req.memoryTypeBits, needs(capture_type));
  if (type == UINT32_MAX) fail(c, "no memory type here for this object");
  // --shuffle-memory (tests): every object at a larger alignment than it asks for.
  const VkDeviceSize alignment = opt_.shuffle_memory ? std::max<VkDeviceSize>(req.alignment, 64 * 1024) : req.alignment;
  VkDeviceSize offset = 0;
  Block& b = block_for(c, device, type, req.size, alignment, image ? alloc::Kind::image_unknown : alloc::Kind::buffer,
                       dedicated.requiresDedicatedAllocation, offset);
  ObjectMemory om;
  om.block = &b;
  om.offset = offset;
  om.size = req.size;
  om.capture_type = capture_type;
  om.image = image;
  const VkResult r = image ? vkBindImageMemory(device, reinterpret_cast<VkImage>(object), b.memory, offset)
                           : vkBindBufferMemory(device, reinterpret_cast<VkBuffer>(object), b.memory, offset);
  if (r != VK_SUCCESS) fail(c, "binding an object's memory: " + std::string(vk::result_name(r)));
  if (b.mapped && !(opt_.stage_updates && !image)) {
    om.mapped = b.mapped + offset;
    std::memset(om.mapped, 0, req.size);  // as the capture left new memory: zeros
  } else if (!image) {
    upload(c, device, reinterpret_cast<VkBuffer>(object), {}, nullptr, 0);  // zeros, by the device
  }
  if (const auto old = objects_.find(object); old != objects_.end()) release(old->second);
  objects_[object] = om;
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(gpu->second, &props);
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
  images_.erase(object);
  const auto it = objects_.find(object);
  if (it == objects_.end()) return;
  release(it->second);
  objects_.erase(it);
}

void Replayer::free_objects(VkDevice device) {
  std::erase_if(objects_, [&](const auto& o) { return o.second.block->device == device; });
  for (const auto& b : blocks_)
    if (b->device == device) vkFreeMemory(device, b->memory, nullptr);
  std::erase_if(blocks_, [&](const auto& b) { return b->device == device; });
}

void Replayer::update(const apitrace::Call& c) {
  CallDecoder d(c, arena_, handles_);
  const std::uint64_t object = handles_.get(d.uint_of(d.arg(vktrace::kUpdateObject)));
  const auto it = objects_.find(object);
  if (it == objects_.end()) fail(c, "an update of an object that has no memory here");
  ObjectMemory& om = it->second;
  if (!om.mapped && om.image) {
    adapted("updates of images placed where the host cannot see them: left out");
    return;
  }
  const std::uint32_t runs = d.arg(vktrace::kUpdateRuns);
  if (runs == apitrace::kNil || d.value(runs).kind != apitrace::Kind::array) return;
  std::vector<VkBufferCopy> regions;  // memory the host cannot see: through a staging buffer
  std::string staged;
  for (std::uint32_t v = d.value(runs).first; v != apitrace::kNil; v = d.value(v).next) {
    if (d.value(v).kind != apitrace::Kind::structure) continue;
    // The members in vktrace::UpdateRunMember's order: offset, data.
    const std::uint32_t off = d.value(v).first;
    const std::uint32_t data = off == apitrace::kNil ? apitrace::kNil : d.value(off).next;
    if (data == apitrace::kNil || d.value(data).kind != apitrace::Kind::blob) continue;
    const std::uint64_t offset = d.value(off).num.u, n = d.value(data).len;
    if (offset > om.size || n > om.size - offset)
      fail(c, "an update past the object's end (" + std::to_string(offset + n) + " > " + std::to_string(om.size) + ")");
    if (om.mapped) {
      std::memcpy(om.mapped + offset, c.bytes.data() + d.value(data).data, n);
    } else {
      regions.push_back({staged.size(), offset, n});
      staged.append(c.bytes.data() + d.value(data).data, n);
    }
    ++r_.updates;
    r_.update_bytes += n;
  }
  if (!regions.empty()) {
    upload(c, om.block->device, reinterpret_cast<VkBuffer>(object), regions, staged.data(), staged.size());
    adapted("updates of buffers the host cannot see: through staging copies");
  }
}

void Replayer::upload(const apitrace::Call& c, VkDevice device, VkBuffer dst, const std::vector<VkBufferCopy>& regions,
                      const char* data, VkDeviceSize bytes) {
  upload(c, device, data, bytes, [&](VkCommandBuffer cmd, VkBuffer staging) {
    if (bytes)
      vkCmdCopyBuffer(cmd, staging, dst, static_cast<std::uint32_t>(regions.size()), regions.data());
    else
      vkCmdFillBuffer(cmd, dst, 0, VK_WHOLE_SIZE, 0);
  });
}

void Replayer::upload(const apitrace::Call& c, VkDevice device, const char* data, VkDeviceSize bytes,
                      const std::function<void(VkCommandBuffer, VkBuffer)>& record) {
  const auto q = device_queue_.find(device);
  if (q == device_queue_.end()) fail(c, "no queue for the replay's own copies");
  const std::uint32_t family = queues_.at(q->second).second;
  VkCommandPool& pool = pools_[device][family];
  if (!pool) {
    const VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                     VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family};
    vk::check(vkCreateCommandPool(device, &ci, nullptr, &pool), "vkCreateCommandPool");
  }
  struct Staging {
    VkDevice device;
    VkCommandPool pool;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    ~Staging() {
      if (cmd) vkFreeCommandBuffers(device, pool, 1, &cmd);
      if (buffer) vkDestroyBuffer(device, buffer, nullptr);
      if (memory) vkFreeMemory(device, memory, nullptr);
    }
  } s{device, pool};
  if (bytes) {
    const VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                 nullptr,
                                 0,
                                 bytes,
                                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                 VK_SHARING_MODE_EXCLUSIVE,
                                 0,
                                 nullptr};
    vk::check(vkCreateBuffer(device, &bci, nullptr, &s.buffer), "vkCreateBuffer");
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device, s.buffer, &req);
    const std::uint32_t type = choose_type(devices_.at(device), req.memoryTypeBits, kHost);
    const VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
    vk::check(vkAllocateMemory(device, &ai, nullptr, &s.memory), "vkAllocateMemory");
    vk::check(vkBindBufferMemory(device, s.buffer, s.memory, 0), "vkBindBufferMemory");
    void* p = nullptr;
    vk::check(vkMapMemory(device, s.memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    std::memcpy(p, data, bytes);
    vkUnmapMemory(device, s.memory);
  }
  begin_one_time(device, pool, s.cmd);
  record(s.cmd, s.buffer);
  // What the application submits next reads it.
  const VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                                VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  vkCmdPipelineBarrier(s.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
  vkEndCommandBuffer(s.cmd);
  const VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &s.cmd, 0, nullptr};
  vk::check(vkQueueSubmit(q->second, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
  wait_queue(q->second);
}

void Replayer::create_image(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);  // device, create info, allocator, out
  auto* ci = slots.size() == 4 ? reinterpret_cast<VkImageCreateInfo*>(slots[1]) : nullptr;
  if (trimmed_ && ci && !(ci->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT)) {
    ci->usage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    adapted("images of a trimmed capture: TRANSFER_DST usage added, for their texels at the range's start");
  }
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r < 0) return;
  map_outputs(c, cmd, d, ptrs);
  const auto* made = slots.size() == 4 ? reinterpret_cast<const VkImage*>(slots[3]) : nullptr;
  if (trimmed_ && ci && made && *made) {
    VkImageCreateInfo kept = *ci;
    kept.pNext = nullptr;
    kept.pQueueFamilyIndices = nullptr;
    images_[reinterpret_cast<std::uint64_t>(*made)] = kept;
  }
}

void Replayer::create_buffer(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  d.params(cmd.params(), slots, ptrs);  // device, create info, allocator, out
  auto* ci = slots.size() == 4 ? reinterpret_cast<VkBufferCreateInfo*>(slots[1]) : nullptr;
  // Updates of memory the host cannot see here arrive by a copy into the
  // buffer, and a trakCopyBuffer copies out of one.
  constexpr VkBufferUsageFlags kCopies = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (ci && (ci->usage & kCopies) != kCopies) {
    ci->usage |= kCopies;
    adapted("buffers: TRANSFER_SRC and TRANSFER_DST usage added, for the replay's own copies");
  }
  VkResult r = VK_SUCCESS;
  invoke(c, cmd, d, ptrs, &r);
  if (r >= 0) map_outputs(c, cmd, d, ptrs);
}

void Replayer::copy_buffer(const apitrace::Call& c) {
  CallDecoder d(c, arena_, handles_);
  const std::uint64_t source = handles_.get(d.uint_of(d.arg(vktrace::kCopySource)));
  const std::uint64_t object = handles_.get(d.uint_of(d.arg(vktrace::kCopyObject)));
  const auto from = objects_.find(source), to = objects_.find(object);
  if (from == objects_.end() || to == objects_.end() || from->second.image || to->second.image)
    fail(c, "a copy between buffers that have no memory here");
  const ObjectMemory &src = from->second, &dst = to->second;
  const std::uint32_t list = d.arg(vktrace::kCopyRegions);
  if (list == apitrace::kNil || d.value(list).kind != apitrace::Kind::array) return;
  std::vector<VkBufferCopy> regions;
  for (std::uint32_t v = d.value(list).first; v != apitrace::kNil; v = d.value(v).next) {
    const VkBufferCopy r{member_of(d, v, "srcOffset"), member_of(d, v, "dstOffset"), member_of(d, v, "size")};
    if (r.srcOffset > src.size || r.size > src.size - r.srcOffset || r.dstOffset > dst.size ||
        r.size > dst.size - r.dstOffset)
      fail(c, "a copy past a buffer's end");
    if (!r.size) continue;
    if (src.mapped && dst.mapped)
      std::memmove(dst.mapped + r.dstOffset, src.mapped + r.srcOffset, r.size);
    else
      regions.push_back(r);
    ++r_.updates;
    r_.update_bytes += r.size;
  }
  if (regions.empty()) return;
  upload(c, dst.block->device, nullptr, 0, [&](VkCommandBuffer cmd, VkBuffer) {
    // The source's last writes were the host's or the replay's own copies.
    const VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                                 VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
    vkCmdCopyBuffer(cmd, reinterpret_cast<VkBuffer>(source), reinterpret_cast<VkBuffer>(object),
                    static_cast<std::uint32_t>(regions.size()), regions.data());
  });
  adapted("buffers the host cannot see that share bytes with another: by device copies");
}

namespace {

// Whether a trakImagePart fits the image it is for: a subresource it has,
// the extent of that mip level, the bytes that extent packs into.
std::string part_problem(const VkImageCreateInfo& ci, const VkBufferImageCopy& r, std::uint64_t bytes) {
  const registry::FormatInfo* f = registry::find_format(ci.format);
  if (!f || f->planes || ci.samples != VK_SAMPLE_COUNT_1_BIT)
    return "texels of an image whose format or samples a copy cannot take";
  const VkImageSubresourceLayers& sub = r.imageSubresource;
  if (sub.mipLevel >= ci.mipLevels || sub.baseArrayLayer >= ci.arrayLayers)
    return "a mip level or layer past the image's";
  const VkExtent3D e{std::max(1u, ci.extent.width >> sub.mipLevel), std::max(1u, ci.extent.height >> sub.mipLevel),
                     std::max(1u, ci.extent.depth >> sub.mipLevel)};
  if (r.imageExtent.width != e.width || r.imageExtent.height != e.height || r.imageExtent.depth != e.depth)
    return "an extent other than the mip level's";
  const std::uint64_t want = vktrace::image_part_bytes(*f, sub.aspectMask, e);
  if (!want) return "an aspect the image's format does not have";
  if (bytes != want) return "texel data of another size than the subresource's";
  return {};
}

}  // namespace

void Replayer::image_contents(const apitrace::Call& c) {
  CallDecoder d(c, arena_, handles_);
  const auto device = reinterpret_cast<VkDevice>(handles_.get(d.uint_of(d.arg(vktrace::kContentsDevice))));
  const std::uint64_t image = handles_.get(d.uint_of(d.arg(vktrace::kContentsImage)));
  if (!trimmed_) fail(c, "image texels in a capture that is not trimmed (no trak.first_frame)");
  const auto info = images_.find(image);
  if (!objects_.count(image) || info == images_.end()) fail(c, "texels of an image that has no memory here");
  const auto layout = static_cast<VkImageLayout>(d.uint_of(d.arg(vktrace::kContentsLayout)));
  static const registry::Enum* layouts = registry::find_enum("VkImageLayout");
  if (!registry::enum_value_name(*layouts, layout) || layout == VK_IMAGE_LAYOUT_UNDEFINED ||
      layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
    fail(c, "an image layout that texels cannot be left in");
  const std::uint32_t parts = d.arg(vktrace::kContentsParts);
  if (parts == apitrace::kNil || d.value(parts).kind != apitrace::Kind::array) return;
  std::vector<VkBufferImageCopy> regions;
  std::string staged;
  VkImageAspectFlags aspects = 0;
  for (std::uint32_t v = d.value(parts).first; v != apitrace::kNil; v = d.value(v).next) {
    if (d.value(v).kind != apitrace::Kind::structure) fail(c, "an image part that is not a trakImagePart");
    std::uint32_t m[vktrace::kPartData + 1];
    std::uint32_t x = d.value(v).first;
    for (std::uint32_t i = 0; i <= vktrace::kPartData; ++i, x = x == apitrace::kNil ? x : d.value(x).next) m[i] = x;
    for (const std::uint32_t i : m)
      if (i == apitrace::kNil) fail(c, "an image part with members missing");
    if (d.value(m[vktrace::kPartData]).kind != apitrace::Kind::blob) fail(c, "an image part without its data");
    // Each part where a copy may start: a multiple of 4 and of every texel block size.
    staged.resize((staged.size() + 95) / 96 * 96);
    VkBufferImageCopy r{};
    r.bufferOffset = staged.size();
    r.imageSubresource = {static_cast<VkImageAspectFlags>(d.uint_of(m[vktrace::kPartAspect])),
                          static_cast<std::uint32_t>(d.uint_of(m[vktrace::kPartMip])),
                          static_cast<std::uint32_t>(d.uint_of(m[vktrace::kPartLayer])), 1};
    r.imageExtent = {static_cast<std::uint32_t>(d.uint_of(m[vktrace::kPartWidth])),
                     static_cast<std::uint32_t>(d.uint_of(m[vktrace::kPartHeight])),
                     static_cast<std::uint32_t>(d.uint_of(m[vktrace::kPartDepth]))};
    aspects |= r.imageSubresource.aspectMask;
    const auto& data = d.value(m[vktrace::kPartData]);
    if (const std::string why = part_problem(info->second, r, data.len); !why.empty()) fail(c, why);
    staged.append(c.bytes.data() + data.data, data.len);
    regions.push_back(r);
  }
  if (regions.empty()) return;
  upload(c, device, staged.data(), staged.size(), [&](VkCommandBuffer cmd, VkBuffer staging) {
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                 nullptr,
                                 0,
                                 VK_ACCESS_TRANSFER_WRITE_BIT,
                                 VK_IMAGE_LAYOUT_UNDEFINED,
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 VK_QUEUE_FAMILY_IGNORED,
                                 VK_QUEUE_FAMILY_IGNORED,
                                 reinterpret_cast<VkImage>(image),
                                 {aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS}};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    vkCmdCopyBufferToImage(cmd, staging, reinterpret_cast<VkImage>(image), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           static_cast<std::uint32_t>(regions.size()), regions.data());
    barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.newLayout = layout;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
  });
  ++r_.updates;
  r_.update_bytes += staged.size();
}

}  // namespace libtrace::replay_trace
