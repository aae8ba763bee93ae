// SPDX-License-Identifier: MIT
// gpa_work: a headless Vulkan program shaped like the applications that broke
// `trak-gpa profile`, for its tests. Each frame records (or, with
// --record-once, submits again) one command buffer per device: a render pass
// with a draw, then a dispatch; with --draws, every kind of draw and dispatch
// the device has instead. The frame ends with the queue label a replay uses
// in place of a present ("vkQueuePresentKHR", VK_EXT_debug_utils), which the
// profiler counts as a frame.
//
// It knows nothing of the layer: the shared test-app library only.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipelines.hpp"
#include "shaders.hpp"

namespace test_apps {
namespace {

const char* const kUsage =
    "usage: gpa_work [--frames N] [--devices N] [--record-once] [--draws | --no-work] [--fork] [--crash]\n"
    "                [--validate]\n"
    "  --frames N     frames per device (default 3)\n"
    "  --devices N    devices made at once, their frames taken in turns (default 1)\n"
    "  --record-once  record each command buffer once and submit it every frame, as vkcube does\n"
    "  --draws        every draw and dispatch command the device has, once each per frame;\n"
    "                 prints \"draws per frame: N\" on stdout\n"
    "  --no-work      command buffers with nothing in them\n"
    "  --fork         halfway, fork a child that leaves at once with exit(0)\n"
    "  --crash        die of SIGSEGV right after making the devices\n"
    "  --validate     enable VK_LAYER_KHRONOS_validation; each message of error severity is\n"
    "                 printed as \"validation error: <VUID>\" on stderr\n";

struct Options {
  unsigned frames = 3, devices = 1;
  bool record_once = false, draws = false, no_work = false, fork = false, crash = false, validate = false;
};

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* d, void*) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    std::fprintf(stderr, "validation error: %s\n", d->pMessageIdName ? d->pMessageIdName : "(no id)");
  return VK_FALSE;
}

// --validate: the messages of the validation layer, printed by on_message.
class Messenger {
 public:
  explicit Messenger(VkInstance instance) : instance_(instance) {
    VkDebugUtilsMessengerCreateInfoEXT mi{};
    mi.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    mi.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mi.pfnUserCallback = on_message;
    APP_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &mi, nullptr, &handle_));
  }
  ~Messenger() { vkDestroyDebugUtilsMessengerEXT(instance_, handle_, nullptr); }
  Messenger(const Messenger&) = delete;
  Messenger& operator=(const Messenger&) = delete;

 private:
  VkInstance instance_;
  VkDebugUtilsMessengerEXT handle_ = VK_NULL_HANDLE;
};

// What the --draws frame may use, as the device has it.
struct Has {
  bool indirect_count = false, multi_draw = false;
};

// Queue family 0 of |pd|, graphics and compute on lavapipe, with
// drawIndirectCount and VK_EXT_multi_draw where --draws can use them.
Device make_device(VkPhysicalDevice pd, const Options& o, Has& has) {
  const std::vector<VkExtensionProperties> exts = device_extensions(pd);
  has.multi_draw = find_extension(exts, VK_EXT_MULTI_DRAW_EXTENSION_NAME) != nullptr;
  VkPhysicalDeviceMultiDrawFeaturesEXT multi{};
  multi.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT;
  VkPhysicalDeviceVulkan12Features v12{};
  v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  v12.pNext = has.multi_draw ? &multi : nullptr;
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.pNext = &v12;
  vkGetPhysicalDeviceFeatures2(pd, &f2);
  has.indirect_count = o.draws && v12.drawIndirectCount;
  has.multi_draw = o.draws && multi.multiDraw;
  VkPhysicalDeviceVulkan12Features on12{};
  on12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  on12.drawIndirectCount = has.indirect_count;
  VkPhysicalDeviceMultiDrawFeaturesEXT on_multi{};
  on_multi.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT;
  on_multi.multiDraw = VK_TRUE;
  on12.pNext = has.multi_draw ? &on_multi : nullptr;
  return Device(pd, 0, &on12,
                has.multi_draw ? std::vector{VK_EXT_MULTI_DRAW_EXTENSION_NAME} : std::vector<const char*>{});
}

// Offsets in the one buffer.
constexpr VkDeviceSize kIndices = 0, kDrawCommand = 256, kIndexedCommand = 512, kCount = 768, kDispatchCommand = 1024,
                       kCounter = 1280, kBufferSize = 1536;
constexpr std::uint32_t kSize = 32;  // the colour image's width and height
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

// One device and everything its frames use, destroyed in reverse once the
// device is idle.
class Worker {
 public:
  Worker(VkPhysicalDevice pd, const Options& o) : o_(o), device_(make_device(pd, o, has_)) {}
  ~Worker() { device_.vk().vkDeviceWaitIdle(device_.handle()); }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void make_objects();
  // Records (or with --record-once, after the first frame, only submits)
  // and runs one frame; returns the draws and dispatches it recorded.
  unsigned frame();

 private:
  unsigned record();

  const Options& o_;
  Has has_;
  Device device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  BoundBuffer buffer_;  // indices, indirect commands, count, the compute counter
  StorageSet set_;
  PipelineLayout layout_;
  ShaderModule vert_, frag_, comp_;
  Pipeline compute_;
  RenderPass render_pass_;
  BoundImage image_;
  ImageView view_;
  Framebuffer framebuffer_;
  Pipeline graphics_;
  CommandPool pool_;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
  Fence fence_;
  unsigned recorded_ = 0;  // draws and dispatches of the recording
  bool has_recording_ = false;
};

void Worker::make_objects() {
  const Device& d = device_;
  queue_ = d.queue();
  buffer_ = make_buffer(
      d, kBufferSize,
      VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  auto* bytes = static_cast<std::uint8_t*>(map(d, buffer_.memory));
  std::memset(bytes, 0, kBufferSize);
  const std::uint16_t indices[3] = {0, 1, 2};
  const VkDrawIndirectCommand draw{3, 1, 0, 0};
  const VkDrawIndexedIndirectCommand indexed{3, 1, 0, 0, 0};
  const std::uint32_t count = 1;
  const VkDispatchIndirectCommand dispatch{1, 1, 1};
  std::memcpy(bytes + kIndices, indices, sizeof indices);
  std::memcpy(bytes + kDrawCommand, &draw, sizeof draw);
  std::memcpy(bytes + kIndexedCommand, &indexed, sizeof indexed);
  std::memcpy(bytes + kCount, &count, sizeof count);
  std::memcpy(bytes + kDispatchCommand, &dispatch, sizeof dispatch);

  set_ = make_storage_set(d, buffer_.get(), kCounter, 16);
  layout_ = make_pipeline_layout(d, set_.layout.get());
  comp_ = make_module(d, kGpaCompSpirv);
  compute_ = make_compute_pipeline(d, layout_.get(), comp_.get(), VK_PIPELINE_CREATE_DISPATCH_BASE_BIT);
  render_pass_ = make_colour_pass(d);
  image_ = make_image(d, kFormat, kSize, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0);
  view_ = make_view(d, image_.get(), kFormat, VK_IMAGE_ASPECT_COLOR_BIT);
  framebuffer_ = make_framebuffer(d, render_pass_.get(), {view_.get()}, kSize);
  vert_ = make_module(d, kGpaVertSpirv);
  frag_ = make_module(d, kGpaFragSpirv);
  graphics_ = make_plain_pipeline(d, layout_.get(), render_pass_.get(), vert_.get(), frag_.get(), kSize);
  pool_ = make_command_pool(d, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
  cb_ = allocate_commands(d, pool_.get());
  fence_ = make_fence(d);
}

unsigned Worker::record() {
  const VolkDeviceTable& t = device_.vk();
  const VkBuffer buffer = buffer_.get();
  begin_commands(device_, cb_);
  VkClearValue clear{};
  VkRenderPassBeginInfo rpbi{};
  rpbi.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  rpbi.renderPass = render_pass_.get();
  rpbi.framebuffer = framebuffer_.get();
  rpbi.renderArea = {{0, 0}, {kSize, kSize}};
  rpbi.clearValueCount = 1;
  rpbi.pClearValues = &clear;
  unsigned n = 0;
  if (o_.no_work) {
    APP_CHECK(t.vkEndCommandBuffer(cb_));
    return n;
  }
  t.vkCmdBeginRenderPass(cb_, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  t.vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, graphics_.get());
  t.vkCmdDraw(cb_, 3, 1, 0, 0), ++n;
  if (o_.draws) {
    t.vkCmdBindIndexBuffer(cb_, buffer, kIndices, VK_INDEX_TYPE_UINT16);
    t.vkCmdDrawIndexed(cb_, 3, 1, 0, 0, 0), ++n;
    t.vkCmdDrawIndirect(cb_, buffer, kDrawCommand, 1, sizeof(VkDrawIndirectCommand)), ++n;
    t.vkCmdDrawIndexedIndirect(cb_, buffer, kIndexedCommand, 1, sizeof(VkDrawIndexedIndirectCommand)), ++n;
    if (has_.indirect_count) {
      t.vkCmdDrawIndirectCount(cb_, buffer, kDrawCommand, buffer, kCount, 1, sizeof(VkDrawIndirectCommand)), ++n;
      t.vkCmdDrawIndexedIndirectCount(cb_, buffer, kIndexedCommand, buffer, kCount, 1,
                                      sizeof(VkDrawIndexedIndirectCommand)),
          ++n;
    }
    if (has_.multi_draw) {
      const VkMultiDrawInfoEXT draws[2] = {{0, 3}, {0, 3}};
      const VkMultiDrawIndexedInfoEXT indexed[2] = {{0, 3, 0}, {0, 3, 0}};
      t.vkCmdDrawMultiEXT(cb_, 2, draws, 1, 0, sizeof(VkMultiDrawInfoEXT)), ++n;
      t.vkCmdDrawMultiIndexedEXT(cb_, 2, indexed, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT), nullptr), ++n;
    }
  }
  t.vkCmdEndRenderPass(cb_);
  t.vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, compute_.get());
  t.vkCmdBindDescriptorSets(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set_.set, 0, nullptr);
  t.vkCmdDispatch(cb_, 2, 1, 1), ++n;
  if (o_.draws) {
    t.vkCmdDispatchIndirect(cb_, buffer, kDispatchCommand), ++n;
    t.vkCmdDispatchBase(cb_, 1, 0, 0, 1, 1, 1), ++n;
  }
  APP_CHECK(t.vkEndCommandBuffer(cb_));
  return n;
}

unsigned Worker::frame() {
  if (!o_.record_once || !has_recording_) recorded_ = record();
  has_recording_ = true;
  const VolkDeviceTable& t = device_.vk();
  const VkFence fence = fence_.get();
  submit(device_, queue_, cb_, fence);
  APP_CHECK(t.vkWaitForFences(device_.handle(), 1, &fence, VK_TRUE, UINT64_MAX));
  APP_CHECK(t.vkResetFences(device_.handle(), 1, &fence));
  VkDebugUtilsLabelEXT label{};
  label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
  label.pLabelName = "vkQueuePresentKHR";
  vkQueueInsertDebugUtilsLabelEXT(queue_, &label);
  return recorded_;
}

int run(const Options& o) {
  AppInfo app{"gpa_work", VK_API_VERSION_1_2, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME}, {}};
  if (o.validate) app.layers.push_back("VK_LAYER_KHRONOS_validation");
  const Instance instance(app);
  std::optional<Messenger> messenger;
  if (o.validate) messenger.emplace(instance.handle());
  const std::vector<VkPhysicalDevice> pds = physical_devices(instance.handle());
  if (pds.empty()) throw VkError("no Vulkan device");
  std::vector<std::unique_ptr<Worker>> devices;
  for (unsigned i = 0; i < o.devices; ++i) devices.push_back(std::make_unique<Worker>(pds[0], o));
  if (o.crash) ::kill(::getpid(), SIGSEGV);
  for (auto& d : devices) d->make_objects();
  unsigned draws = 0;
  for (unsigned f = 0; f < o.frames; ++f) {
    if (o.fork && f == o.frames / 2) {
      // Only this program's own output: what libraries buffered (a layer's
      // rows) is theirs to keep out of the child.
      std::fflush(stdout);
      const pid_t child = ::fork();
      if (child == 0) std::exit(0);  // exit(), not _exit(): what the process buffered is flushed
      int status = 0;
      ::waitpid(child, &status, 0);
    }
    for (auto& d : devices) draws = d->frame();
  }
  if (o.draws) std::printf("draws per frame: %u\n", draws);
  return 0;
}

}  // namespace
}  // namespace test_apps

int main(int argc, char** argv) {
  using namespace test_apps;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    // Sets |flag| where |a| is its switch.
    const auto on = [&](const char* name, bool& flag) { return a == name && (flag = true); };
    if (a == "--frames" && value) {
      o.frames = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (a == "--devices" && value) {
      o.devices = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (!(on("--record-once", o.record_once) || on("--draws", o.draws) || on("--no-work", o.no_work) ||
                 on("--fork", o.fork) || on("--crash", o.crash) || on("--validate", o.validate))) {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  return run_main("gpa_work", [&] { return run(o); });
}
