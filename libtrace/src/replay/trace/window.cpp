// SPDX-License-Identifier: MIT
#include "replay/trace/window.hpp"

#include <xcb/xcb.h>
#define VK_USE_PLATFORM_XCB_KHR
#include <volk.h>

#include <algorithm>
#include <vector>

#include "libtrace/core/error.hpp"
#include "libtrace/vk/device.hpp"

namespace libtrace::replay_trace {

struct Window::Impl {
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  xcb_connection_t* conn = nullptr;
  xcb_window_t window = 0;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  std::vector<VkImage> images;
  VkExtent2D extent{};
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkSemaphore acquired = VK_NULL_HANDLE, blitted = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;

  ~Impl() {
    if (device) vkDeviceWaitIdle(device);
    if (done) vkDestroyFence(device, done, nullptr);
    if (acquired) vkDestroySemaphore(device, acquired, nullptr);
    if (blitted) vkDestroySemaphore(device, blitted, nullptr);
    if (pool) vkDestroyCommandPool(device, pool, nullptr);
    if (swapchain) vkDestroySwapchainKHR(device, swapchain, nullptr);
    if (surface) vkDestroySurfaceKHR(instance, surface, nullptr);
    if (conn) xcb_disconnect(conn);
  }
};

Window::Window(VkInstance instance, VkPhysicalDevice gpu, VkDevice device, VkQueue queue, std::uint32_t family,
               VkExtent2D extent)
    : impl_(std::make_unique<Impl>()), device_(device) {
  Impl& w = *impl_;
  w.instance = instance;
  w.device = device;
  w.queue = queue;
  w.extent = extent;
  w.conn = xcb_connect(nullptr, nullptr);
  if (!w.conn || xcb_connection_has_error(w.conn)) throw Error(Errc::unsupported, "--present window", "no X display");
  const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(w.conn)).data;
  w.window = xcb_generate_id(w.conn);
  xcb_create_window(w.conn, XCB_COPY_FROM_PARENT, w.window, screen->root, 0, 0,
                    static_cast<std::uint16_t>(extent.width), static_cast<std::uint16_t>(extent.height), 0,
                    XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, nullptr);
  xcb_map_window(w.conn, w.window);
  xcb_flush(w.conn);
  const auto create =
      reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR"));
  if (!create) throw Error(Errc::unsupported, "--present window", "the instance has no VK_KHR_xcb_surface");
  const VkXcbSurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR, nullptr, 0, w.conn, w.window};
  vk::check(create(instance, &sci, nullptr, &w.surface), "vkCreateXcbSurfaceKHR");
  VkBool32 supported = VK_FALSE;
  vkGetPhysicalDeviceSurfaceSupportKHR(gpu, family, w.surface, &supported);
  if (!supported) throw Error(Errc::unsupported, "--present window", "this queue cannot present to the window");
  VkSurfaceCapabilitiesKHR caps{};
  vkGetPhysicalDeviceSurfaceCapabilitiesKHR(gpu, w.surface, &caps);
  std::uint32_t n = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(gpu, w.surface, &n, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(n);
  vkGetPhysicalDeviceSurfaceFormatsKHR(gpu, w.surface, &n, formats.data());
  if (formats.empty()) throw Error(Errc::unsupported, "--present window", "the window has no surface formats");
  vkGetPhysicalDeviceSurfacePresentModesKHR(gpu, w.surface, &n, nullptr);
  std::vector<VkPresentModeKHR> modes(n);
  vkGetPhysicalDeviceSurfacePresentModesKHR(gpu, w.surface, &n, modes.data());
  // Not paced by the display: the replay's speed is what is measured.
  const bool immediate = std::find(modes.begin(), modes.end(), VK_PRESENT_MODE_IMMEDIATE_KHR) != modes.end();
  const VkExtent2D size = caps.currentExtent.width == UINT32_MAX ? extent : caps.currentExtent;
  const VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
                                    nullptr,
                                    0,
                                    w.surface,
                                    std::max(2u, caps.minImageCount),
                                    formats[0].format,
                                    formats[0].colorSpace,
                                    size,
                                    1,
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                    VK_SHARING_MODE_EXCLUSIVE,
                                    0,
                                    nullptr,
                                    caps.currentTransform,
                                    VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
                                    immediate ? VK_PRESENT_MODE_IMMEDIATE_KHR : VK_PRESENT_MODE_FIFO_KHR,
                                    VK_TRUE,
                                    VK_NULL_HANDLE};
  vk::check(vkCreateSwapchainKHR(device, &ci, nullptr, &w.swapchain), "vkCreateSwapchainKHR");
  w.extent = size;
  vkGetSwapchainImagesKHR(device, w.swapchain, &n, nullptr);
  w.images.resize(n);
  vkGetSwapchainImagesKHR(device, w.swapchain, &n, w.images.data());
  const VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                    VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family};
  vk::check(vkCreateCommandPool(device, &pci, nullptr, &w.pool), "vkCreateCommandPool");
  const VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, w.pool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  vk::check(vkAllocateCommandBuffers(device, &cai, &w.cmd), "vkAllocateCommandBuffers");
  const VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, nullptr, 0};
  vk::check(vkCreateSemaphore(device, &sem, nullptr, &w.acquired), "vkCreateSemaphore");
  vk::check(vkCreateSemaphore(device, &sem, nullptr, &w.blitted), "vkCreateSemaphore");
  const VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  vk::check(vkCreateFence(device, &fci, nullptr, &w.done), "vkCreateFence");
}

Window::~Window() = default;

void Window::show(VkImage image, VkExtent2D extent) {
  Impl& w = *impl_;
  std::uint32_t index = 0;
  const VkResult a = vkAcquireNextImageKHR(w.device, w.swapchain, UINT64_MAX, w.acquired, VK_NULL_HANDLE, &index);
  if (a != VK_SUCCESS && a != VK_SUBOPTIMAL_KHR) return;  // resized or gone: the frame is not shown
  vkResetCommandBuffer(w.cmd, 0);
  const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  vkBeginCommandBuffer(w.cmd, &begin);
  const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageMemoryBarrier to[2] = {
      {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
       VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_QUEUE_FAMILY_IGNORED,
       VK_QUEUE_FAMILY_IGNORED, image, all},
      {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, 0, VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, w.images[index], all}};
  vkCmdPipelineBarrier(w.cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 2, to);
  const VkImageBlit blit{
      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
      {{0, 0, 0}, {static_cast<std::int32_t>(extent.width), static_cast<std::int32_t>(extent.height), 1}},
      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
      {{0, 0, 0}, {static_cast<std::int32_t>(w.extent.width), static_cast<std::int32_t>(w.extent.height), 1}}};
  vkCmdBlitImage(w.cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, w.images[index],
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
  VkImageMemoryBarrier back[2] = {to[0], to[1]};
  std::swap(back[0].oldLayout, back[0].newLayout);
  back[0].srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  back[0].dstAccessMask = VK_ACCESS_MEMORY_READ_BIT;
  back[1].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  back[1].newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  back[1].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  back[1].dstAccessMask = VK_ACCESS_MEMORY_READ_BIT;
  vkCmdPipelineBarrier(w.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                       nullptr, 2, back);
  vkEndCommandBuffer(w.cmd);
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  const VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 1, &w.acquired, &stage, 1, &w.cmd, 1, &w.blitted};
  vk::check(vkQueueSubmit(w.queue, 1, &si, w.done), "vkQueueSubmit");
  const VkPresentInfoKHR present{
      VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, nullptr, 1, &w.blitted, 1, &w.swapchain, &index, nullptr};
  vkQueuePresentKHR(w.queue, &present);
  vkWaitForFences(w.device, 1, &w.done, VK_TRUE, UINT64_MAX);
  vkResetFences(w.device, 1, &w.done);
}

}  // namespace libtrace::replay_trace
