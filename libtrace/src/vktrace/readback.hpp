// SPDX-License-Identifier: MIT
// The commands that read a presentable image back into a buffer: the
// capture's snapshots and the replay's read the same swapchain images the
// same way. Given the two commands as pointers: the capture calls the next
// layer's, the replay the loader's (volk).
#pragma once

#include <vulkan/vulkan_core.h>

#include <utility>

namespace libtrace::vktrace {

// Into `cmd`: `image` (presentable, `extent`, 4 bytes a texel) from the
// present layout to a transfer source, copied to `buffer`, and back.
// `src_access` is what the caller's side last did to the image.
inline void record_readback(PFN_vkCmdPipelineBarrier pipeline_barrier, PFN_vkCmdCopyImageToBuffer copy_to_buffer,
                            VkCommandBuffer cmd, VkImage image, VkBuffer buffer, VkExtent2D extent,
                            VkAccessFlags src_access) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               nullptr,
                               src_access,
                               VK_ACCESS_TRANSFER_READ_BIT,
                               VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               VK_QUEUE_FAMILY_IGNORED,
                               VK_QUEUE_FAMILY_IGNORED,
                               image,
                               {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
  pipeline_barrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                   1, &barrier);
  const VkBufferImageCopy copy{
      0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {extent.width, extent.height, 1}};
  copy_to_buffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  std::swap(barrier.oldLayout, barrier.newLayout);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT;
  pipeline_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0, nullptr,
                   1, &barrier);
}

}  // namespace libtrace::vktrace
