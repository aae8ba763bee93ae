// SPDX-License-Identifier: MIT
// Offscreen: surfaces are not made, a swapchain is images of the replay's
// own (as many as the capture got, in its format and size), an acquire
// signals what the application waits on and gives the index the capture
// got, a present waits for what it would have waited for and ends a frame:
// snapshots and the comparison with the capture's happen there.
#include <sys/stat.h>
#include <volk.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "libtrace/image/png.hpp"
#include "libtrace/vk/device.hpp"
#include "libtrace/vktrace/dialect.hpp"
#include "replay/trace/replayer.hpp"
#include "vktrace/calls.hpp"
#include "vktrace/readback.hpp"
#include "vktrace/values.hpp"

namespace libtrace::replay_trace {

void Replayer::create_surface(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  const auto recorded = d.handles_of(d.arg(cmd.params().size() - 1));
  // No window: a stand-in handle, so that the calls that name it decode.
  if (!recorded.empty()) handles_.set(recorded[0], recorded[0]);
  ++r_.skipped_calls;
}

void Replayer::create_swapchain(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  VkSwapchainCreateInfoKHR ci{};
  d.structure(*registry::find_struct("VkSwapchainCreateInfoKHR"), d.arg(1), &ci);
  const auto recorded = d.handles_of(d.arg(3));
  if (recorded.empty()) return;
  Swapchain sc;
  sc.device = reinterpret_cast<VkDevice>(handles_.get(d.uint_of(d.arg(0))));
  sc.format = ci.imageFormat;
  sc.extent = ci.imageExtent;
  sc.usage = ci.imageUsage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  sc.layers = std::max(1u, ci.imageArrayLayers);
  swapchains_[recorded[0]] = sc;
  handles_.set(recorded[0], recorded[0]);
  adapted("swapchains: offscreen images of the replay's own");
}

void Replayer::swapchain_images(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  const auto it = swapchains_.find(d.uint_of(d.arg(1)));
  const auto recorded = d.handles_of(d.arg(3));
  if (it == swapchains_.end() || recorded.empty()) return;
  Swapchain& sc = it->second;
  const VkDevice dev = sc.device;
  while (sc.images.size() < recorded.size()) {
    const VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                               nullptr,
                               0,
                               VK_IMAGE_TYPE_2D,
                               sc.format,
                               {sc.extent.width, sc.extent.height, 1},
                               1,
                               sc.layers,
                               VK_SAMPLE_COUNT_1_BIT,
                               VK_IMAGE_TILING_OPTIMAL,
                               sc.usage,
                               VK_SHARING_MODE_EXCLUSIVE,
                               0,
                               nullptr,
                               VK_IMAGE_LAYOUT_UNDEFINED};
    VkImage image = VK_NULL_HANDLE;
    if (vkCreateImage(dev, &ci, nullptr, &image) != VK_SUCCESS) fail(c, "cannot make a swapchain image");
    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(dev, image, &req);
    const std::uint32_t type = choose_type(devices_.at(dev), req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    const VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
    VkDeviceMemory mem = VK_NULL_HANDLE;
    if (type == UINT32_MAX || vkAllocateMemory(dev, &ai, nullptr, &mem) != VK_SUCCESS ||
        vkBindImageMemory(dev, image, mem, 0) != VK_SUCCESS)
      fail(c, "no memory for a swapchain image");
    sc.images.push_back(image);
    sc.memories.push_back(mem);
  }
  for (std::size_t i = 0; i < recorded.size(); ++i)
    handles_.set(recorded[i], reinterpret_cast<std::uintptr_t>(sc.images[i]));
}

void Replayer::destroy_swapchain(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  const auto it = swapchains_.find(d.uint_of(d.arg(1)));
  if (it == swapchains_.end()) return;
  if (!device_idle(it->second.device)) fail(c, "the device's work did not finish in " + wait_limit());
  for (VkImage i : it->second.images) vkDestroyImage(it->second.device, i, nullptr);
  for (VkDeviceMemory m : it->second.memories) vkFreeMemory(it->second.device, m, nullptr);
  swapchains_.erase(it);
}

void Replayer::signal(VkDevice device, VkSemaphore semaphore, VkFence fence, const VkSemaphore* waits,
                      std::uint32_t n) {
  const auto q = device_queue_.find(device);
  if (q == device_queue_.end()) return;
  const std::vector<VkPipelineStageFlags> stages(n, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  const VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr,   n, waits, stages.data(), 0, nullptr,
                        semaphore ? 1u : 0u,           &semaphore};
  vkQueueSubmit(q->second, 1, &si, fence);
}

void Replayer::acquire(const apitrace::Call& c, const registry::Command& cmd) {
  CallDecoder d(c, arena_, handles_);
  const auto device = reinterpret_cast<VkDevice>(handles_.get(d.uint_of(d.arg(0))));
  if (cmd.params().size() == 3) {  // vkAcquireNextImage2KHR(device, pAcquireInfo, pImageIndex)
    VkAcquireNextImageInfoKHR info{};
    d.structure(*registry::find_struct("VkAcquireNextImageInfoKHR"), d.arg(1), &info);
    signal(device, info.semaphore, info.fence, nullptr, 0);
    signals(&info.semaphore, 1);
    submitted(c, info.fence);
  } else {
    const auto fence = reinterpret_cast<VkFence>(handles_.get(d.uint_of(d.arg(4))));
    const auto semaphore = reinterpret_cast<VkSemaphore>(handles_.get(d.uint_of(d.arg(3))));
    signal(device, semaphore, fence, nullptr, 0);
    signals(&semaphore, 1);
    submitted(c, fence);
  }
  ++r_.skipped_calls;
}

void Replayer::present(const apitrace::Call& c, const registry::Command&) {
  CallDecoder d(c, arena_, handles_);
  const auto queue = reinterpret_cast<VkQueue>(handles_.get(d.uint_of(d.arg(0))));
  VkPresentInfoKHR info{};
  d.structure(*registry::find_struct("VkPresentInfoKHR"), d.arg(1), &info);
  const auto q = queues_.find(queue);
  if (q == queues_.end()) fail(c, "a present on a queue the replay does not have");
  const VkDevice device = q->second.first;
  waits_on(c, info.pWaitSemaphores, info.waitSemaphoreCount);
  ++frame_;
  if (vkQueueInsertDebugUtilsLabelEXT) {  // for profilers: where the frame ended
    const VkDebugUtilsLabelEXT label{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, nullptr, vktrace::kFrameEndLabel, {0, 0, 0, 0}};
    vkQueueInsertDebugUtilsLabelEXT(queue, &label);
  }
  const bool timed = frame_ >= opt_.first_frame && frame_ <= opt_.last_frame;
  const bool write = opt_.snapshots.count(frame_) != 0;
  const bool check = opt_.compare && capture_snapshots_.count(frame_) != 0;
  if (!write && !check) {
    signal(device, VK_NULL_HANDLE, VK_NULL_HANDLE, info.pWaitSemaphores, info.waitSemaphoreCount);
  } else {
    // The frame is read back once its work is done.
    signal(device, VK_NULL_HANDLE, VK_NULL_HANDLE, info.pWaitSemaphores, info.waitSemaphoreCount);
    wait_queue(queue);
    const auto shown = d.handles_of(d.field(d.arg(1), "pSwapchains"));
    const auto sc = swapchains_.find(shown.empty() ? 0 : shown[0]);
    if (sc != swapchains_.end() && info.pImageIndices) snapshot(queue, sc->second, info.pImageIndices[0], frame_);
  }
  if (opt_.present_window) {
    const auto shown = d.handles_of(d.field(d.arg(1), "pSwapchains"));
    const auto sc = swapchains_.find(shown.empty() ? 0 : shown[0]);
    if (sc != swapchains_.end() && info.pImageIndices && info.pImageIndices[0] < sc->second.images.size()) {
      if (!window_) {
        window_ = std::make_unique<Window>(instance_, devices_.at(device), device, queue, q->second.second,
                                           sc->second.extent);
        adapted("frames shown in an X11 window too");
      }
      window_->show(sc->second.images[info.pImageIndices[0]], sc->second.extent);
    }
  }
  // Frame k is timed from the end of frame k-1 (frame 1 from the replay's
  // start: with the setup), the work of both ends waited for.
  if (frame_ + 1 == opt_.first_frame) {
    wait_queue(queue);
    frame_start_ = std::chrono::steady_clock::now();
  } else if (timed) {
    if (frame_ == opt_.last_frame) wait_queue(queue);
    const auto end = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(end - frame_start_).count();
    r_.frame_ms.push_back(ms);
    r_.seconds += ms / 1000;
    ++r_.timed_frames;
    frame_start_ = end;
  }
  r_.frames = frame_;
}

void Replayer::snapshot_record(const apitrace::Call& c) {
  CallDecoder d(c, arena_, handles_);
  const std::uint32_t file = d.arg(vktrace::kSnapshotFile);
  if (file == apitrace::kNil || d.value(file).kind != apitrace::Kind::string) return;
  capture_snapshots_[d.uint_of(d.arg(vktrace::kSnapshotFrame))] = std::string(c.str(d.value(file)));
}

void Replayer::snapshot(VkQueue queue, const Swapchain& sc, std::uint32_t index, std::uint64_t frame) {
  if (index >= sc.images.size() || !image::snapshot_format(sc.format)) {
    adapted("snapshots: only of 8-bit RGBA or BGRA swapchains");
    return;
  }
  const VkDevice dev = sc.device;
  const std::uint32_t family = queues_.at(queue).second;
  VkCommandPool& pool = pools_[dev][family];
  if (!pool) {
    const VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                     VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family};
    vk::check(vkCreateCommandPool(dev, &ci, nullptr, &pool), "vkCreateCommandPool");
  }
  const VkExtent2D ex = sc.extent;
  const VkDeviceSize size = VkDeviceSize{ex.width} * ex.height * 4;
  const VkBufferCreateInfo bci = vktrace::readback_buffer_info(size);
  VkBuffer buffer = VK_NULL_HANDLE;
  vk::check(vkCreateBuffer(dev, &bci, nullptr, &buffer), "vkCreateBuffer");
  struct Cleanup {
    VkDevice dev;
    VkBuffer buffer;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkCommandPool pool;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    ~Cleanup() {
      if (cmd) vkFreeCommandBuffers(dev, pool, 1, &cmd);
      vkDestroyBuffer(dev, buffer, nullptr);
      if (memory) vkFreeMemory(dev, memory, nullptr);
    }
  } k{dev, buffer, VK_NULL_HANDLE, pool};
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(dev, buffer, &req);
  const std::uint32_t type = choose_type(devices_.at(dev), req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  const VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  vk::check(vkAllocateMemory(dev, &ai, nullptr, &k.memory), "vkAllocateMemory");
  vk::check(vkBindBufferMemory(dev, buffer, k.memory, 0), "vkBindBufferMemory");
  begin_one_time(dev, pool, k.cmd);
  vktrace::record_readback(vkCmdPipelineBarrier, vkCmdCopyImageToBuffer, k.cmd, sc.images[index], buffer, ex,
                           VK_ACCESS_MEMORY_WRITE_BIT);
  vkEndCommandBuffer(k.cmd);
  const VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &k.cmd, 0, nullptr};
  vk::check(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
  wait_queue(queue);
  void* p = nullptr;
  vk::check(vkMapMemory(dev, k.memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
  const image::Rgb rgb = image::from_pixels(sc.format, p, ex.width, ex.height);
  vkUnmapMemory(dev, k.memory);
  // The reference is read before any PNG of the replay's is written: were
  // the folders one, the comparison would otherwise be with itself.
  const auto cap = capture_snapshots_.find(frame);
  if (opt_.compare && cap != capture_snapshots_.end()) {
    FrameCheck fc;
    fc.frame = frame;
    fc.capture_file = opt_.capture_snapshots + "/" + cap->second;
    std::uint32_t width = 0, height = 0;
    image::png_size(fc.capture_file, width, height);
    fc.size_differs = width != rgb.width || height != rgb.height;
    image::Rgb captured;
    if (!fc.size_differs) {
      captured = image::read_png(fc.capture_file);
      const image::Difference diff = image::compare(captured, rgb);
      fc.max_difference = diff.max_channel;
      fc.psnr = diff.psnr;
    }
    fc.passed =
        !fc.size_differs && (fc.max_difference <= opt_.tolerance || (opt_.min_psnr && fc.psnr >= *opt_.min_psnr));
    if (!fc.passed && !fc.size_differs) {
      if (::mkdir(opt_.snapshot_dir.c_str(), 0755) != 0 && errno != EEXIST)
        throw Error(Errc::io, opt_.snapshot_dir, std::strerror(errno));
      fc.difference_file = opt_.snapshot_dir + "/difference-" + image::frame_file_name(frame);
      image::write_png(fc.difference_file, image::difference_picture(rgb, captured));
    }
    r_.checks.push_back(fc);
  }
  if (opt_.snapshots.count(frame)) {
    if (::mkdir(opt_.snapshot_dir.c_str(), 0755) != 0 && errno != EEXIST)
      throw Error(Errc::io, opt_.snapshot_dir, std::strerror(errno));
    const std::string path = opt_.snapshot_dir + "/" + image::frame_file_name(frame);
    image::write_png(path, rgb);
    r_.snapshots.push_back(path);
  }
}

}  // namespace libtrace::replay_trace
