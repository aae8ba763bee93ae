// SPDX-License-Identifier: MIT
// capture_trim_accumulate [FRAMES]: frames (40 by default) in an X11 window
// whose pictures are what every frame before left on the device, which the
// host never sees: a trimmed capture must read it back to start later.
//   A  an array image, 16 layers of 32x32: each frame clears one layer to a
//      colour of its own (vkCmdClearColorImage), and copies B into a corner
//      of another (vkCmdCopyBufferToImage);
//   B  a buffer of 16x16 texels: each frame fills 64 bytes of it and updates
//      16 more, at places that move (vkCmdFillBuffer, vkCmdUpdateBuffer);
//   S  a staging buffer (TRANSFER_SRC usage alone) of two 16x16 patches the
//      host writes once at the start: each frame copies one into the layer
//      of A it cleared, so what the host wrote long ago is in every frame;
//      odd frames copy it through S2, a second buffer bound to S's memory
//      after the host wrote it (an alias, or a suballocator's reused range:
//      it holds those bytes, though nothing was written through it);
//   R  a render target, and D its depth/stencil image: a render pass that
//      loads both clears a rectangle of each (vkCmdClearAttachments).
// The presented image is A's layers as a 4x4 grid, R beside it, then D's
// depth and stencil bytes, copied through a buffer, as colour.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "vk_app.hpp"
// Xlib last: its macros (None, Bool, Status) would clash with names in the headers above.
#include <X11/Xlib.h>
#include <vulkan/vulkan_xlib.h>

namespace test_apps {
namespace {

constexpr std::uint32_t kTile = 32, kLayers = 16, kSize = 128, kPatch = 16;
constexpr std::uint32_t kWidth = 3 * kSize, kHeight = kSize + 32;  // D's stencil bytes: 32 more rows
constexpr VkFormat kColour = VK_FORMAT_R8G8B8A8_UNORM, kDepth = VK_FORMAT_D32_SFLOAT_S8_UINT;
constexpr VkDeviceSize kPatchBytes = kPatch * kPatch * 4, kDepthBytes = kSize * kSize * 4;
constexpr VkImageAspectFlags kDepthStencil = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;

// An X11 window of the picture's size, and its Vulkan surface.
class XWindow {
 public:
  explicit XWindow(const Instance& instance) : instance_(instance.handle()) {
    display_ = XOpenDisplay(nullptr);
    if (!display_) throw VkError("no X display (DISPLAY)");
    window_ = XCreateSimpleWindow(display_, DefaultRootWindow(display_), 0, 0, kWidth, kHeight, 0, 0, 0);
    XMapWindow(display_, window_);
    XSync(display_, False);
    auto create =
        reinterpret_cast<PFN_vkCreateXlibSurfaceKHR>(vkGetInstanceProcAddr(instance_, "vkCreateXlibSurfaceKHR"));
    VkXlibSurfaceCreateInfoKHR ci{};
    ci.sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR;
    ci.dpy = display_;
    ci.window = window_;
    if (!create) throw VkError("no vkCreateXlibSurfaceKHR");
    APP_CHECK(create(instance_, &ci, nullptr, &surface_));
  }
  ~XWindow() {
    if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    XDestroyWindow(display_, window_);
    XCloseDisplay(display_);
  }
  XWindow(const XWindow&) = delete;
  XWindow& operator=(const XWindow&) = delete;
  VkSurfaceKHR surface() const { return surface_; }

 private:
  VkInstance instance_;
  Display* display_ = nullptr;
  ::Window window_ = 0;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
};

class App {
 public:
  App(const Instance& instance, const Device& device, const XWindow& window)
      : instance_(instance), device_(device), vk_(device.vk()), dev_(device.handle()) {
    vk_.vkGetDeviceQueue(dev_, instance.queue_family(), 0, &queue_);
    make_swapchain(window.surface());
    constexpr VkImageUsageFlags copies = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    constexpr VkBufferUsageFlags both = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    constexpr VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    a_ = make_image(device, kColour, kTile, kLayers, copies | VK_IMAGE_USAGE_SAMPLED_BIT, local);
    r_ = make_image(device, kColour, kSize, 1, copies | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, local);
    d_ = make_image(device, kDepth, kSize, 1, copies | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, local);
    b_ = make_buffer(device, kPatchBytes, both, local);
    c_ = make_buffer(device, kDepthBytes + kSize * kSize, both, local);
    // S: written by the host once, here, and copied from every frame.
    s_ = make_buffer(device, 2 * kPatchBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    void* const bytes = map(device, s_.memory);
    for (std::uint32_t i = 0; i < 2 * kPatchBytes; ++i) static_cast<unsigned char*>(bytes)[i] = (i * 7) | 0x80;
    const VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, s_.memory.get(), 0, VK_WHOLE_SIZE};
    APP_CHECK(vk_.vkFlushMappedMemoryRanges(dev_, 1, &range));
    vk_.vkUnmapMemory(dev_, s_.memory.get());
    s2_ = make<Buffer, &VolkDeviceTable::vkCreateBuffer>(
        device, VkBufferCreateInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, 2 * kPatchBytes,
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                   VK_SHARING_MODE_EXCLUSIVE, 0, nullptr});
    VkMemoryRequirements req{};
    vk_.vkGetBufferMemoryRequirements(dev_, s2_.get(), &req);
    APP_CHECK(vk_.vkBindBufferMemory(dev_, s2_.get(), s_.memory.get(), 0));
    r_view_ = make_view(device, r_.get(), kColour, VK_IMAGE_ASPECT_COLOR_BIT);
    d_view_ = make_view(device, d_.get(), kDepth, kDepthStencil);
    make_render_pass();
    framebuffer_ = make_framebuffer(device, pass_.get(), {r_view_.get(), d_view_.get()}, kSize);
    pool_ = make_command_pool(device, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
    const VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_.get(),
                                         VK_COMMAND_BUFFER_LEVEL_PRIMARY, 2};
    APP_CHECK(vk_.vkAllocateCommandBuffers(dev_, &ai, cmds_));
    const VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, nullptr, 0};
    for (int i = 0; i < 2; ++i) {
      fences_[i] = make_fence(device, VK_FENCE_CREATE_SIGNALED_BIT);
      acquired_[i] = make<Semaphore, &VolkDeviceTable::vkCreateSemaphore>(device, sci);
    }
    for (std::size_t i = 0; i < targets_.size(); ++i)
      rendered_.push_back(make<Semaphore, &VolkDeviceTable::vkCreateSemaphore>(device, sci));
  }
  ~App() { vk_.vkDeviceWaitIdle(dev_); }

  // Frame |k| (from 1): recorded, submitted and presented.
  void frame(std::uint32_t k) {
    const int slot = k % 2;
    const VkFence fence = fences_[slot].get();
    APP_CHECK(vk_.vkWaitForFences(dev_, 1, &fence, VK_TRUE, UINT64_MAX));
    APP_CHECK(vk_.vkResetFences(dev_, 1, &fence));
    std::uint32_t index = 0;
    APP_CHECK(
        vk_.vkAcquireNextImageKHR(dev_, swapchain_.get(), UINT64_MAX, acquired_[slot].get(), VK_NULL_HANDLE, &index));
    const VkCommandBuffer cmd = cmds_[slot];
    const VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                      VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
    APP_CHECK(vk_.vkBeginCommandBuffer(cmd, &bi));
    if (k == 1) record_start(cmd);
    record(cmd, k, targets_[index]);
    APP_CHECK(vk_.vkEndCommandBuffer(cmd));

    const VkSemaphore wait = acquired_[slot].get(), signal = rendered_[index].get();
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    const VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 1, &wait, &stage, 1, &cmd, 1, &signal};
    APP_CHECK(vk_.vkQueueSubmit(queue_, 1, &si, fence));
    const VkSwapchainKHR swapchain = swapchain_.get();
    const VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, nullptr, 1, &signal, 1, &swapchain, &index, nullptr};
    APP_CHECK(vk_.vkQueuePresentKHR(queue_, &pi));
  }

 private:
  void make_swapchain(VkSurfaceKHR surface) {
    VkBool32 supported = VK_FALSE;
    APP_CHECK(
        vkGetPhysicalDeviceSurfaceSupportKHR(instance_.physical(), instance_.queue_family(), surface, &supported));
    VkSurfaceCapabilitiesKHR caps{};
    APP_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(instance_.physical(), surface, &caps));
    std::uint32_t n = 0;
    APP_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(instance_.physical(), surface, &n, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(n);
    APP_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(instance_.physical(), surface, &n, formats.data()));
    const VkSurfaceFormatKHR* format = nullptr;
    for (const auto& f : formats)
      if (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) format = &f;
    if (!supported || !format || !(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
      throw VkError("the surface takes no 8-bit UNORM image written by transfers");
    const std::uint32_t count =
        caps.maxImageCount ? std::min(caps.minImageCount + 1, caps.maxImageCount) : caps.minImageCount + 1;
    swapchain_ = make<Swapchain, &VolkDeviceTable::vkCreateSwapchainKHR>(
        device_, VkSwapchainCreateInfoKHR{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
                                          nullptr,
                                          0,
                                          surface,
                                          count,
                                          format->format,
                                          format->colorSpace,
                                          {kWidth, kHeight},
                                          1,
                                          VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                          VK_SHARING_MODE_EXCLUSIVE,
                                          0,
                                          nullptr,
                                          caps.currentTransform,
                                          VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
                                          VK_PRESENT_MODE_FIFO_KHR,
                                          VK_TRUE,
                                          VK_NULL_HANDLE});
    const VkSwapchainKHR s = swapchain_.get();
    APP_CHECK(vk_.vkGetSwapchainImagesKHR(dev_, s, &n, nullptr));
    targets_.resize(n);
    APP_CHECK(vk_.vkGetSwapchainImagesKHR(dev_, s, &n, targets_.data()));
  }

  // R and D are loaded and kept in TRANSFER_SRC_OPTIMAL between frames.
  void make_render_pass() {
    VkAttachmentDescription a[2]{};
    for (auto& d : a) {
      d.samples = VK_SAMPLE_COUNT_1_BIT;
      d.loadOp = d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
      d.storeOp = d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
      d.initialLayout = d.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    }
    a[0].format = kColour;
    a[1].format = kDepth;
    const VkAttachmentReference colour{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    const VkAttachmentReference depth{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    const VkSubpassDescription subpass{
        0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &colour, nullptr, &depth, 0, nullptr};
    const VkPipelineStageFlags draw = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                      VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                      VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    const VkAccessFlags drawn = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
    const VkSubpassDependency deps[2] = {
        {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, draw,
         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, drawn, 0},
        {0, VK_SUBPASS_EXTERNAL, draw, VK_PIPELINE_STAGE_TRANSFER_BIT, drawn, VK_ACCESS_TRANSFER_READ_BIT, 0}};
    pass_ = make<RenderPass, &VolkDeviceTable::vkCreateRenderPass>(
        device_,
        VkRenderPassCreateInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, nullptr, 0, 2, a, 1, &subpass, 2, deps});
  }

  void barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspects, VkImageLayout from, VkImageLayout to,
               std::uint32_t layers = 1) const {
    VkImageMemoryBarrier b{};
    b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    b.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {aspects, 0, 1, 0, layers};
    vk_.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &b);
  }
  // Transfers before it, transfers after: B's writes and reads.
  void transfers(VkCommandBuffer cmd) const {
    VkMemoryBarrier b{};
    b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    b.srcAccessMask = b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vk_.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &b, 0, nullptr,
                             0, nullptr);
  }

  // Frame 1 first: every object from a known start, in TRANSFER_SRC_OPTIMAL.
  void record_start(VkCommandBuffer cmd) const {
    const VkClearColorValue grey{{0.25f, 0.25f, 0.25f, 1.0f}}, navy{{0.0f, 0.0f, 0.3f, 1.0f}};
    const VkClearDepthStencilValue far{1.0f, 0};
    const VkImageSubresourceRange all_a{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers},
        colour{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}, depth{kDepthStencil, 0, 1, 0, 1};
    barrier(cmd, a_.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            kLayers);
    barrier(cmd, r_.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    barrier(cmd, d_.get(), kDepthStencil, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vk_.vkCmdClearColorImage(cmd, a_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grey, 1, &all_a);
    vk_.vkCmdClearColorImage(cmd, r_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &navy, 1, &colour);
    vk_.vkCmdClearDepthStencilImage(cmd, d_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &depth);
    vk_.vkCmdFillBuffer(cmd, b_.get(), 0, VK_WHOLE_SIZE, 0xff404040u);
    barrier(cmd, a_.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kLayers);
    barrier(cmd, r_.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    barrier(cmd, d_.get(), kDepthStencil, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  }

  // What frame |k| adds to A, B, R and D, then the picture of them in |target|.
  void record(VkCommandBuffer cmd, std::uint32_t k, VkImage target) const {
    const auto unit = [](std::uint32_t v) { return static_cast<float>(v % 256) / 255.0f; };
    transfers(cmd);
    // B: 64 bytes filled, 16 updated, at offsets that move with the frame.
    vk_.vkCmdFillBuffer(cmd, b_.get(), (k * 68) % (kPatchBytes - 64), 64, 0xff000000u | (k * 0x0a1b2c));
    const std::uint32_t words[4] = {0xff0000ffu | k << 8, 0xff00ff00u | k, 0xffff0000u | k << 8, 0xffffffffu};
    vk_.vkCmdUpdateBuffer(cmd, b_.get(), (k * 148 + 512) % (kPatchBytes - 16), sizeof(words), words);
    transfers(cmd);
    // A: one layer cleared and half of S copied into it, B copied into a corner of another.
    barrier(cmd, a_.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, kLayers);
    const VkClearColorValue c{{unit(k * 37), unit(k * 91 + 40), unit(255 - k * 13), 1.0f}};
    const VkImageSubresourceRange layer{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, (k * 7) % kLayers, 1};
    vk_.vkCmdClearColorImage(cmd, a_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &layer);
    const std::int32_t at = static_cast<std::int32_t>(k % (kTile - kPatch + 1));
    const VkBufferImageCopy patch{
        0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, (k * 5 + 3) % kLayers, 1}, {at, at, 0}, {kPatch, kPatch, 1}};
    vk_.vkCmdCopyBufferToImage(cmd, b_.get(), a_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &patch);
    const VkBufferImageCopy staged{
        k % 2 * kPatchBytes, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, (k * 7) % kLayers, 1}, {16, 16, 0},
        {kPatch, kPatch, 1}};
    vk_.vkCmdCopyBufferToImage(cmd, k % 2 ? s2_.get() : s_.get(), a_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &staged);
    barrier(cmd, a_.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kLayers);
    // R and D: a rectangle of each cleared inside a render pass that loads them.
    VkRenderPassBeginInfo rbi{};
    rbi.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    rbi.renderPass = pass_.get();
    rbi.framebuffer = framebuffer_.get();
    rbi.renderArea = {{0, 0}, {kSize, kSize}};
    vk_.vkCmdBeginRenderPass(cmd, &rbi, VK_SUBPASS_CONTENTS_INLINE);
    VkClearAttachment clears[2]{};
    clears[0].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    clears[0].clearValue.color = {{unit(k * 53), unit(200 - k * 17), unit(k * 29 + 100), 1.0f}};
    clears[1].aspectMask = kDepthStencil;
    clears[1].clearValue.depthStencil = {static_cast<float>(k % 64) / 64.0f, (k * 41) % 256};
    const VkClearRect rects[2] = {
        {{{static_cast<std::int32_t>((k * 23) % 104), static_cast<std::int32_t>((k * 41) % 112)}, {24, 16}}, 0, 1},
        {{{static_cast<std::int32_t>((k * 31) % 96), static_cast<std::int32_t>((k * 17) % 100)}, {32, 28}}, 0, 1}};
    vk_.vkCmdClearAttachments(cmd, 1, &clears[0], 1, &rects[0]);
    vk_.vkCmdClearAttachments(cmd, 1, &clears[1], 1, &rects[1]);
    vk_.vkCmdEndRenderPass(cmd);
    // D's depth and stencil bytes into C.
    const VkBufferImageCopy d_parts[2] = {
        {0, 0, 0, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}},
        {kDepthBytes, 0, 0, {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}}};
    vk_.vkCmdCopyImageToBuffer(cmd, d_.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c_.get(), 2, d_parts);
    transfers(cmd);
    // The picture: A's layers as a grid, R, then C (D's bytes) as texels.
    barrier(cmd, target, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkClearColorValue black{{0.0f, 0.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vk_.vkCmdClearColorImage(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &whole);
    transfers(cmd);
    std::vector<VkImageCopy> tiles;
    for (std::uint32_t l = 0; l < kLayers; ++l)
      tiles.push_back({{VK_IMAGE_ASPECT_COLOR_BIT, 0, l, 1},
                       {0, 0, 0},
                       {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                       {static_cast<std::int32_t>(l % 4 * kTile), static_cast<std::int32_t>(l / 4 * kTile), 0},
                       {kTile, kTile, 1}});
    vk_.vkCmdCopyImage(cmd, a_.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, kLayers, tiles.data());
    const VkImageCopy r_copy{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             {0, 0, 0},
                             {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             {kSize, 0, 0},
                             {kSize, kSize, 1}};
    vk_.vkCmdCopyImage(cmd, r_.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r_copy);
    const VkBufferImageCopy c_copy{
        0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {2 * kSize, 0, 0}, {kSize, kSize + 32, 1}};
    vk_.vkCmdCopyBufferToImage(cmd, c_.get(), target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c_copy);
    VkImageMemoryBarrier present{};
    present.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    present.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    present.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    present.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    present.srcQueueFamilyIndex = present.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    present.image = target;
    present.subresourceRange = whole;
    vk_.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &present);
  }

  const Instance& instance_;
  const Device& device_;
  const VolkDeviceTable& vk_;
  VkDevice dev_;
  VkQueue queue_ = VK_NULL_HANDLE;
  Swapchain swapchain_;
  std::vector<VkImage> targets_;
  BoundImage a_, r_, d_;
  BoundBuffer b_, c_, s_;
  Buffer s2_;  // bound to s_.memory: destroyed before it
  ImageView r_view_, d_view_;
  RenderPass pass_;
  Framebuffer framebuffer_;
  CommandPool pool_;
  VkCommandBuffer cmds_[2] = {};
  Fence fences_[2];
  Semaphore acquired_[2];
  std::vector<Semaphore> rendered_;
};

}  // namespace
}  // namespace test_apps

int main(int argc, char** argv) {
  using namespace test_apps;
  const int frames = argc > 1 ? std::atoi(argv[1]) : 40;
  if (frames < 1) {
    std::fprintf(stderr, "usage: capture_trim_accumulate [FRAMES]\n");
    return 2;
  }
  return run_main("capture_trim_accumulate", [&] {
    const Instance instance("capture_trim_accumulate",
                            {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XLIB_SURFACE_EXTENSION_NAME});
    DeviceWants wants;
    wants.swapchain = true;
    const Device device(instance, wants);
    const XWindow window(instance);
    App app(instance, device, window);
    for (int k = 1; k <= frames; ++k) app.frame(static_cast<std::uint32_t>(k));
    return 0;
  });
}
