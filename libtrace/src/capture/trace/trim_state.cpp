// SPDX-License-Identifier: MIT
// A trimmed capture's state beyond the kept calls, written where its range
// starts (the device idle):
//   - fences, events and timeline semaphores whose state differs from the
//     one they were made in: the calls that put them there (an empty
//     vkQueueSubmit signals a fence, vkResetFences, vkSetEvent,
//     vkSignalSemaphore);
//   - every buffer's bytes and every linear image's, as trakUpdateBuffer and
//     trakUpdateImage (only the parts that are not zeros: a replay starts
//     objects from zeros), read where the host sees them or through a
//     copy of the layer's own;
//   - every other image's texels, read by a copy into a buffer
//     (trakImageContents), with the layout it is in: render targets and
//     storage images hold what only the device wrote.
// Staging buffers (a copy source and nothing else) are written too: what
// the host wrote into one before the range may be copied in it (an upload
// made once and copied every frame, or first used later).
// Buffers bound over memory that an earlier buffer of the state covers
// (aliases: zink binds pairs of buffers to one range) get that part by a
// trakCopyBuffer from it instead of the bytes again: a replay places each
// object apart, so each needs them, but the stream needs them once.
// Not written: attachments that no render pass has loaded (only a load
// would see what they hold: a target cleared each frame), multisampled
// images, multi-planar formats, images in no known layout (their contents
// are undefined anyway), query results.
#include <algorithm>
#include <cstring>

#include "capture/names.hpp"
#include "capture/trace/call.hpp"
#include "capture/trace/device.hpp"
#include "capture/trace/trim.hpp"
#include "layer/layer.hpp"
#include "libtrace/core/error.hpp"
#include "vktrace/values.hpp"

namespace libtrace::capture::trace {

namespace {

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw Error(Errc::io, what, "VkResult " + std::to_string(r));
}

template <typename T>
std::uint64_t bits(T h) {
  return reinterpret_cast<std::uintptr_t>(h);
}

// One call as the application would have made it, with VK_SUCCESS.
void emit(Stream& s, const char* name, std::vector<void*> args) {
  const CommandInfo& info = command_info(name, Level::device);
  if (!info.cmd) return;
  const std::uint32_t tid = Stream::thread_id();
  const VkResult ok = VK_SUCCESS;
  const auto enter = [&](Event& to) { put_enter(to, tid, info, args.data()); };
  Event e(s);
  enter(e);
  const std::uint64_t no = s.commit(e, Stream::Kind::enter, enter);
  const auto leave = [&](Event& to) {
    begin_leave(to, no);
    put_leave_details(to, info, args.data(), info.ret == Ret::result ? &ok : nullptr);
  };
  Event l(s);
  leave(l);
  s.commit(l, Stream::Kind::leave, leave);
}

// The layer's own copies on one queue of the device: a buffer the host
// sees, and one command buffer at a time.
class Copier {
 public:
  Copier(DeviceTrace& dt, VkQueue queue, std::uint32_t family) : dt_(dt), queue_(queue) {
    const VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                     VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family};
    check(dt.next.CreateCommandPool(dt.device, &ci, nullptr, &pool_), "vkCreateCommandPool");
    const VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
    check(dt.next.CreateFence(dt.device, &fci, nullptr, &fence_), "vkCreateFence");
  }
  ~Copier() {
    free_buffer();
    if (fence_) dt_.next.DestroyFence(dt_.device, fence_, nullptr);
    if (pool_) dt_.next.DestroyCommandPool(dt_.device, pool_, nullptr);
  }
  Copier(const Copier&) = delete;
  Copier& operator=(const Copier&) = delete;

  // A command buffer to record `size` bytes' copy into the buffer.
  VkCommandBuffer begin(VkDeviceSize size) {
    if (size > size_) grow(size);
    auto& t = dt_.next;
    if (!cmd_) {
      const VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_,
                                           VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
      check(t.AllocateCommandBuffers(dt_.device, &ai, &cmd_), "vkAllocateCommandBuffers");
      // A dispatchable handle made below the loader carries the device's dispatch pointer.
      *reinterpret_cast<void**>(cmd_) = *reinterpret_cast<void**>(dt_.device);
    }
    const VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                      VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
    check(t.BeginCommandBuffer(cmd_, &bi), "vkBeginCommandBuffer");
    return cmd_;
  }
  // Runs it, waits, and returns the buffer's bytes.
  const char* finish() {
    auto& t = dt_.next;
    check(t.EndCommandBuffer(cmd_), "vkEndCommandBuffer");
    const VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cmd_, 0, nullptr};
    check(t.ResetFences(dt_.device, 1, &fence_), "vkResetFences");
    check(t.QueueSubmit(queue_, 1, &si, fence_), "vkQueueSubmit");
    check(t.WaitForFences(dt_.device, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    if (!coherent_) {
      const VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, memory_, 0, VK_WHOLE_SIZE};
      t.InvalidateMappedMemoryRanges(dt_.device, 1, &r);
    }
    return mapped_;
  }
  VkBuffer buffer() const { return buffer_; }

 private:
  void grow(VkDeviceSize size) {
    free_buffer();
    auto& t = dt_.next;
    const VkBufferCreateInfo bci = vktrace::readback_buffer_info(size);
    check(t.CreateBuffer(dt_.device, &bci, nullptr, &buffer_), "vkCreateBuffer");
    VkMemoryRequirements req{};
    t.GetBufferMemoryRequirements(dt_.device, buffer_, &req);
    std::uint32_t type = UINT32_MAX;
    for (const VkMemoryPropertyFlags want :
         {VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT},
          VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT}})
      for (std::uint32_t i = 0; i < dt_.types.real.memoryTypeCount && type == UINT32_MAX; ++i)
        if ((req.memoryTypeBits & (1u << i)) && (dt_.types.real.memoryTypes[i].propertyFlags & want) == want) type = i;
    if (type == UINT32_MAX) throw Error(Errc::io, "the trimmed capture's state", "no memory type the host sees");
    coherent_ = dt_.types.real.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
    check(t.AllocateMemory(dt_.device, &ai, nullptr, &memory_), "vkAllocateMemory");
    check(t.BindBufferMemory(dt_.device, buffer_, memory_, 0), "vkBindBufferMemory");
    void* p = nullptr;
    check(t.MapMemory(dt_.device, memory_, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    mapped_ = static_cast<const char*>(p);
    size_ = size;
  }
  void free_buffer() {
    if (buffer_) dt_.next.DestroyBuffer(dt_.device, buffer_, nullptr);
    if (memory_) dt_.next.FreeMemory(dt_.device, memory_, nullptr);  // unmapped with it
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
    size_ = 0;
  }

  DeviceTrace& dt_;
  VkQueue queue_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  const char* mapped_ = nullptr;
  VkDeviceSize size_ = 0;
  bool coherent_ = true;
};

void write_sync(Stream& s, DeviceTrace& dt, VkQueue queue) {
  auto& t = dt.next;
  VkDevice device = dt.device;
  for (const auto& [handle, made_signalled] : dt.fences) {
    auto fence = reinterpret_cast<VkFence>(handle);
    const bool signalled = t.GetFenceStatus(device, fence) == VK_SUCCESS;
    if (signalled == made_signalled) continue;
    std::uint32_t n = signalled ? 0 : 1;
    const VkSubmitInfo* none = nullptr;
    if (signalled && queue)
      emit(s, "vkQueueSubmit", {&queue, &n, &none, &fence});
    else if (!signalled)
      emit(s, "vkResetFences", {&device, &n, &fence});
  }
  for (const std::uint64_t handle : dt.events) {
    auto event = reinterpret_cast<VkEvent>(handle);
    if (t.GetEventStatus(device, event) == VK_EVENT_SET) emit(s, "vkSetEvent", {&device, &event});
  }
  for (const auto& [handle, first] : dt.timelines) {
    std::uint64_t value = 0;
    if (!t.GetSemaphoreCounterValue ||
        t.GetSemaphoreCounterValue(device, reinterpret_cast<VkSemaphore>(handle), &value) != VK_SUCCESS ||
        value == first)
      continue;
    const VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr,
                                     reinterpret_cast<VkSemaphore>(handle), value};
    const VkSemaphoreSignalInfo* p = &info;
    emit(s, "vkSignalSemaphore", {&device, &p});
  }
}

struct Part {
  VkImageAspectFlagBits aspect;
  std::uint32_t mip, layer;
  VkExtent3D extent;
  VkDeviceSize offset, size;
};

std::vector<Part> image_parts(const ImageInfo& img, const registry::FormatInfo& f) {
  std::vector<VkImageAspectFlagBits> aspects;
  if (f.depth_bits) aspects.push_back(VK_IMAGE_ASPECT_DEPTH_BIT);
  if (f.stencil_bits) aspects.push_back(VK_IMAGE_ASPECT_STENCIL_BIT);
  if (aspects.empty()) aspects.push_back(VK_IMAGE_ASPECT_COLOR_BIT);
  std::vector<Part> parts;
  VkDeviceSize at = 0;
  const VkDeviceSize align = VkDeviceSize{f.block_size} * 4;  // a multiple of every block size of it, and of 4
  for (const VkImageAspectFlagBits aspect : aspects)
    for (std::uint32_t mip = 0; mip < img.mips; ++mip)
      for (std::uint32_t layer = 0; layer < img.layers; ++layer) {
        const VkExtent3D e{std::max(1u, img.extent.width >> mip), std::max(1u, img.extent.height >> mip),
                           std::max(1u, img.extent.depth >> mip)};
        const VkDeviceSize size = vktrace::image_part_bytes(f, aspect, e);
        at = (at + align - 1) / align * align;
        parts.push_back({aspect, mip, layer, e, at, size});
        at += size;
      }
  return parts;
}

void write_image(Stream& s, DeviceTrace& dt, Copier& copier, std::uint64_t handle, const ImageInfo& img,
                 VkImageLayout layout) {
  const registry::FormatInfo* f = registry::find_format(img.format);
  if (!f || f->planes || img.samples != VK_SAMPLE_COUNT_1_BIT || !img.readable) return;
  const std::vector<Part> parts = image_parts(img, *f);
  if (parts.empty()) return;
  const VkImageAspectFlags aspects = (f->depth_bits ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                     (f->stencil_bits ? VK_IMAGE_ASPECT_STENCIL_BIT : 0) |
                                     (f->depth_bits || f->stencil_bits ? 0 : VK_IMAGE_ASPECT_COLOR_BIT);
  auto image = reinterpret_cast<VkImage>(handle);
  VkCommandBuffer cmd = copier.begin(parts.back().offset + parts.back().size);
  auto& t = dt.next;
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               nullptr,
                               VK_ACCESS_MEMORY_WRITE_BIT,
                               VK_ACCESS_TRANSFER_READ_BIT,
                               layout,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               VK_QUEUE_FAMILY_IGNORED,
                               VK_QUEUE_FAMILY_IGNORED,
                               image,
                               {aspects, 0, img.mips, 0, img.layers}};
  t.CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &barrier);
  std::vector<VkBufferImageCopy> regions;
  for (const Part& p : parts)
    regions.push_back(
        {p.offset, 0, 0, {static_cast<VkImageAspectFlags>(p.aspect), p.mip, p.layer, 1}, {0, 0, 0}, p.extent});
  t.CmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copier.buffer(),
                         static_cast<std::uint32_t>(regions.size()), regions.data());
  std::swap(barrier.oldLayout, barrier.newLayout);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  t.CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &barrier);
  const char* bytes = copier.finish();
  static const registry::Enum* layouts = registry::find_enum("VkImageLayout");
  const std::uint32_t tid = Stream::thread_id();
  const auto serialize = [&](Event& e) {
    begin_own_call(e, tid, vktrace::OwnCall::image_contents);
    put_arg(e, vktrace::kContentsDevice);
    put_pointer(e, bits(dt.device));
    put_arg(e, vktrace::kContentsImage);
    put_pointer(e, handle);
    put_arg(e, vktrace::kContentsLayout);
    put_enum(e, *layouts, layout);
    put_arg(e, vktrace::kContentsParts);
    put_array(e, parts.size());
    for (const Part& p : parts) {
      put_own_struct(e, vktrace::OwnStruct::image_part);
      for (const std::uint32_t v :
           {static_cast<std::uint32_t>(p.aspect), p.mip, p.layer, p.extent.width, p.extent.height, p.extent.depth})
        put_uint(e, v);
      put_blob(e, bytes + p.offset, p.size);
    }
    end_details(e);
  };
  Event e(s);
  serialize(e);
  s.commit(e, Stream::Kind::whole, serialize);
}

// The bytes of object `b` at `offset` in memory `m`: where the host sees
// them, else by a copy (buffers); null when neither can be.
const char* object_bytes(DeviceTrace& dt, Copier& copier, std::uint64_t memory, Memory& m, VkDeviceSize offset,
                         const Bound& b, void*& own_map) {
  if (m.host_visible) {
    if (m.mapped && offset >= m.map_offset && offset + b.size <= m.map_offset + m.map_size)
      return m.mapped + (offset - m.map_offset);
    if (!m.mapped) {
      if (!own_map && dt.next.MapMemory(dt.device, reinterpret_cast<VkDeviceMemory>(memory), 0, VK_WHOLE_SIZE, 0,
                                        &own_map) != VK_SUCCESS)
        own_map = nullptr;
      if (own_map) return static_cast<const char*>(own_map) + offset;
    }
  }
  if (b.image || !dt.readable_buffers.count(b.handle)) return nullptr;
  VkCommandBuffer cmd = copier.begin(b.size);
  const VkBufferCopy region{0, 0, b.size};
  dt.next.CmdCopyBuffer(cmd, reinterpret_cast<VkBuffer>(b.handle), copier.buffer(), 1, &region);
  return copier.finish();
}

}  // namespace

void write_state(Stream& s, DeviceTrace& dt) {
  const std::lock_guard lock(dt.mu);
  if (dt.queue_families.empty()) return;  // nothing was ever submitted on it
  const auto [queue, family] = *dt.queue_families.begin();
  write_sync(s, dt, queue);
  Copier copier(dt, queue, family);
  std::size_t skipped = 0;
  for (auto& [memory, m] : dt.memories) {
    m.owed.clear();  // every object's bytes follow
    void* own_map = nullptr;
    // Of the buffers whose bytes the stream has, the one that reaches
    // furthest into the memory: objects come by offset, so it covers the
    // start of every later one that begins before its end.
    std::uint64_t reach = 0;
    VkDeviceSize reach_lo = 0, reach_hi = 0;
    for (const auto& [offset, b] : m.objects) {
      if (b.image) {
        const auto img = dt.images.find(b.handle);
        if (img != dt.images.end() && img->second.tiling == VK_IMAGE_TILING_OPTIMAL) {
          const auto l = dt.layouts.find(b.handle);
          const VkImageLayout layout = l == dt.layouts.end() ? VK_IMAGE_LAYOUT_UNDEFINED : l->second;
          if (layout == VK_IMAGE_LAYOUT_UNDEFINED || layout == VK_IMAGE_LAYOUT_PREINITIALIZED) continue;
          if (img->second.attachment_only && !img->second.loaded) continue;
          if (img->second.readable)
            write_image(s, dt, copier, b.handle, img->second, layout);
          else
            ++skipped;
          continue;
        }
      }
      // Bytes [0, covered) are the reaching buffer's; the shadow has them.
      const VkDeviceSize covered = !b.image && reach && reach_hi > offset ? std::min(reach_hi - offset, b.size) : 0;
      if (covered) write_copy(s, dt.device, reach, b.handle, {{offset - reach_lo, 0, covered}});
      if (covered == b.size) continue;
      const char* bytes = object_bytes(dt, copier, memory, m, offset, b, own_map);
      if (!bytes) {
        ++skipped;
        continue;
      }
      std::vector<Run> runs = nonzero_runs(bytes + covered, b.size - covered);
      for (Run& r : runs) r = {r.lo + covered, r.hi + covered};
      if (!runs.empty()) write_update(s, dt.device, b, 0, runs, bytes);
      // What the stream now has of host-visible memory: later diffs start here.
      if (m.shadow.size() == m.size && offset + b.size <= m.size) std::memcpy(m.shadow.data() + offset, bytes, b.size);
      if (!b.image && offset + b.size > reach_hi) {
        reach = b.handle;
        reach_lo = offset;
        reach_hi = offset + b.size;
      }
    }
    if (own_map) dt.next.UnmapMemory(dt.device, reinterpret_cast<VkDeviceMemory>(memory));
  }
  if (skipped)
    layer::log_once(kLayerName, "a trimmed capture's state leaves out the contents of some objects",
                    std::to_string(skipped) + " could not be read back (no TRANSFER_SRC usage)");
}

}  // namespace libtrace::capture::trace
