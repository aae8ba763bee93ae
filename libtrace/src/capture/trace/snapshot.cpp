// SPDX-License-Identifier: MIT
#include "capture/trace/snapshot.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "capture/launcher_report.hpp"
#include "capture/names.hpp"
#include "capture/trace/device.hpp"
#include "capture/trace/encode.hpp"
#include "layer/layer.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/image/png.hpp"
#include "libtrace/vktrace/dialect.hpp"
#include "vktrace/readback.hpp"
#include "vktrace/values.hpp"

namespace libtrace::capture::trace {

namespace {

// The layer's own objects of one read-back, destroyed in any case.
struct Readback {
  DeviceTrace& dt;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ~Readback() {
    auto& t = dt.next;
    if (cmd) t.FreeCommandBuffers(dt.device, pool, 1, &cmd);
    if (fence) t.DestroyFence(dt.device, fence, nullptr);
    if (buffer) t.DestroyBuffer(dt.device, buffer, nullptr);
    if (memory) t.FreeMemory(dt.device, memory, nullptr);
  }
};

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw Error(Errc::io, what, "VkResult " + std::to_string(r));
}

void write_snapshot_call(Stream& s, VkQueue queue, std::uint64_t frame, const std::string& file) {
  const std::uint32_t tid = Stream::thread_id();
  const auto serialize = [&](Event& e) {
    begin_own_call(e, tid, vktrace::OwnCall::snapshot);
    put_arg(e, vktrace::kSnapshotQueue);
    put_pointer(e, reinterpret_cast<std::uintptr_t>(queue));
    put_arg(e, vktrace::kSnapshotFrame);
    put_uint(e, frame);
    put_arg(e, vktrace::kSnapshotFile);
    put_string(e, file);
    end_details(e);
  };
  Event e(s);
  serialize(e);
  s.commit(e, Stream::Kind::whole, serialize);
}

}  // namespace

Snapshots::Snapshots(std::set<std::uint64_t> frames, std::string dir)
    : frames_(std::move(frames)), dir_(std::move(dir)) {}
Snapshots::~Snapshots() = default;

void Snapshots::release(DeviceTrace& dt) {
  const std::lock_guard lock(mu_);
  for (VkSemaphore s : semaphores_) dt.next.DestroySemaphore(dt.device, s, nullptr);
  for (auto& [family, pool] : pools_) dt.next.DestroyCommandPool(dt.device, pool, nullptr);
  semaphores_.clear();
  pools_.clear();
}

VkSemaphore Snapshots::take(DeviceTrace& dt, VkQueue queue, const VkPresentInfoKHR& present, std::uint64_t frame) {
  if (present.swapchainCount == 0) return VK_NULL_HANDLE;
  Swapchain sc;
  std::uint32_t family = 0;
  {
    const std::lock_guard lock(dt.mu);
    const auto it = dt.swapchains.find(reinterpret_cast<std::uint64_t>(present.pSwapchains[0]));
    const auto q = dt.queue_families.find(queue);
    if (it == dt.swapchains.end() || q == dt.queue_families.end()) return VK_NULL_HANDLE;
    sc = it->second;
    family = q->second;
  }
  const std::uint32_t index = present.pImageIndices[0];
  if (!sc.readable || index >= sc.images.size() || !image::snapshot_format(sc.format)) {
    layer::log_once(kLayerName, "cannot snapshot this swapchain",
                    sc.readable ? "its format is not 8-bit RGBA or BGRA" : "its images cannot be read back");
    return VK_NULL_HANDLE;
  }
  // A folder that cannot be made skips the frame before anything is
  // submitted: the present then waits on the application's semaphores as
  // it would without the layer.
  // Beside the file being written: each range of a trimmed capture has
  // its own (outside the ranges, the name asked for).
  const Stream* stream = Stream::get();
  const std::string dir = stream ? vktrace::snapshot_dir(stream->path()) : dir_;
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) throw Error(Errc::io, dir, std::strerror(errno));
  const std::lock_guard lock(mu_);
  auto& t = dt.next;
  const VkDevice dev = dt.device;
  Readback rb{dt};
  VkCommandPool& pool = pools_[family];
  if (!pool) {
    const VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                     VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family};
    check(t.CreateCommandPool(dev, &ci, nullptr, &pool), "vkCreateCommandPool");
  }
  rb.pool = pool;
  const VkExtent2D ex = sc.extent;
  const VkDeviceSize size = VkDeviceSize{ex.width} * ex.height * 4;
  const VkBufferCreateInfo bci = vktrace::readback_buffer_info(size);
  check(t.CreateBuffer(dev, &bci, nullptr, &rb.buffer), "vkCreateBuffer");
  VkMemoryRequirements req{};
  t.GetBufferMemoryRequirements(dev, rb.buffer, &req);
  std::uint32_t type = UINT32_MAX;
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (std::uint32_t i = 0; i < dt.types.real.memoryTypeCount && type == UINT32_MAX; ++i)
    if ((req.memoryTypeBits & (1u << i)) && (dt.types.real.memoryTypes[i].propertyFlags & want) == want) type = i;
  if (type == UINT32_MAX) throw Error(Errc::io, "snapshot", "no host-visible coherent memory type");
  const VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  check(t.AllocateMemory(dev, &ai, nullptr, &rb.memory), "vkAllocateMemory");
  check(t.BindBufferMemory(dev, rb.buffer, rb.memory, 0), "vkBindBufferMemory");

  const VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  check(t.AllocateCommandBuffers(dev, &cai, &rb.cmd), "vkAllocateCommandBuffers");
  // A dispatchable handle made below the loader carries the device's dispatch pointer.
  *reinterpret_cast<void**>(rb.cmd) = *reinterpret_cast<void**>(dev);
  const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  check(t.BeginCommandBuffer(rb.cmd, &begin), "vkBeginCommandBuffer");
  vktrace::record_readback(t.CmdPipelineBarrier, t.CmdCopyImageToBuffer, rb.cmd, sc.images[index], rb.buffer, ex,
                           VK_ACCESS_MEMORY_READ_BIT);
  check(t.EndCommandBuffer(rb.cmd), "vkEndCommandBuffer");

  const VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  check(t.CreateFence(dev, &fci, nullptr, &rb.fence), "vkCreateFence");
  VkSemaphore done = VK_NULL_HANDLE;
  const VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, nullptr, 0};
  check(t.CreateSemaphore(dev, &sci, nullptr, &done), "vkCreateSemaphore");
  semaphores_.push_back(done);
  const std::vector<VkPipelineStageFlags> stages(present.waitSemaphoreCount, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO,
                            nullptr,
                            present.waitSemaphoreCount,
                            present.pWaitSemaphores,
                            stages.data(),
                            1,
                            &rb.cmd,
                            1,
                            &done};
  check(t.QueueSubmit(queue, 1, &submit, rb.fence), "vkQueueSubmit");
  // The copy consumed the present's wait semaphores and signals `done`
  // instead: from here the present must wait on `done` whatever happens to
  // the file, or it would wait for what nobody will signal.
  try {
    check(t.WaitForFences(dev, 1, &rb.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    void* p = nullptr;
    check(t.MapMemory(dev, rb.memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    const image::Rgb rgb = image::from_pixels(sc.format, p, ex.width, ex.height);
    t.UnmapMemory(dev, rb.memory);
    const std::string name = image::frame_file_name(frame);
    image::write_png(dir + "/" + name, rgb);
    if (Stream* s = Stream::get()) write_snapshot_call(*s, queue, frame, name);
  } catch (const std::exception& e) {
    layer::log_once(kLayerName, "cannot write a snapshot; the frame is skipped", e.what());
    tell_launcher(kReportProblem,
                  std::string("cannot write the snapshot of frame ") + std::to_string(frame) + ": " + e.what());
  }
  return done;
}

}  // namespace libtrace::capture::trace
