// SPDX-License-Identifier: MIT
// gpa_work: a headless Vulkan program shaped like the applications that broke
// `trak-gpa profile`, for its tests. Each frame records (or, with
// --record-once, submits again) one command buffer per device: a render pass
// with a draw, then a dispatch; with --draws, every kind of draw and dispatch
// the device has instead. The frame ends with the queue label a replay uses
// in place of a present ("vkQueuePresentKHR", VK_EXT_debug_utils), which the
// profiler counts as a frame.
//
// It knows nothing of the layer: volk and the test shaders only.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <volk.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "shaders.hpp"

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

// A Vulkan struct, zeroed, of its type.
template <typename T>
T make(VkStructureType type) {
  T t{};
  t.sType = type;
  return t;
}

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(r));
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* d, void*) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    std::fprintf(stderr, "validation error: %s\n", d->pMessageIdName ? d->pMessageIdName : "(no id)");
  return VK_FALSE;
}

struct Instance {
  VkInstance handle = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  explicit Instance(bool validate) {
    check(volkInitialize(), "volkInitialize");
    auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "gpa_work";
    app.apiVersion = VK_API_VERSION_1_2;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    auto ci = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pApplicationInfo = &app;
    ci.enabledLayerCount = validate ? 1 : 0;
    ci.ppEnabledLayerNames = &layer;
    ci.enabledExtensionCount = 1;
    ci.ppEnabledExtensionNames = &ext;
    check(vkCreateInstance(&ci, nullptr, &handle), "vkCreateInstance");
    volkLoadInstanceOnly(handle);
    if (!validate) return;
    auto mi = make<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    mi.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mi.pfnUserCallback = on_message;
    check(vkCreateDebugUtilsMessengerEXT(handle, &mi, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
  }
  ~Instance() {
    if (messenger) vkDestroyDebugUtilsMessengerEXT(handle, messenger, nullptr);
    vkDestroyInstance(handle, nullptr);
  }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;
};

// What the --draws frame may use, as the device has it.
struct Has {
  bool indirect_count = false, multi_draw = false;
};

// One device and everything its frames use. The destructor waits for the
// device and destroys the objects in reverse.
class Device {
 public:
  Device(VkPhysicalDevice pd, const Options& o) : o_(o) {
    std::uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts(n);
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
    for (const auto& e : exts) has_.multi_draw |= std::strcmp(e.extensionName, VK_EXT_MULTI_DRAW_EXTENSION_NAME) == 0;
    auto multi = make<VkPhysicalDeviceMultiDrawFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT);
    auto v12 = make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    v12.pNext = has_.multi_draw ? &multi : nullptr;
    auto f2 = make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    f2.pNext = &v12;
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    has_.indirect_count = o.draws && v12.drawIndirectCount;
    has_.multi_draw = o.draws && multi.multiDraw;
    auto on12 = make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    on12.drawIndirectCount = has_.indirect_count;
    auto on_multi =
        make<VkPhysicalDeviceMultiDrawFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT);
    on_multi.multiDraw = VK_TRUE;
    on12.pNext = has_.multi_draw ? &on_multi : nullptr;
    const float priority = 1;
    auto qci = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;  // family 0: graphics and compute on lavapipe
    const char* ext = VK_EXT_MULTI_DRAW_EXTENSION_NAME;
    auto ci = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    ci.pNext = &on12;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &qci;
    ci.enabledExtensionCount = has_.multi_draw ? 1 : 0;
    ci.ppEnabledExtensionNames = &ext;
    check(vkCreateDevice(pd, &ci, nullptr, &d_), "vkCreateDevice");
    volkLoadDeviceTable(&t_, d_);
    t_.vkGetDeviceQueue(d_, 0, 0, &queue_);
    vkGetPhysicalDeviceMemoryProperties(pd, &memory_);
  }

  ~Device() {
    t_.vkDeviceWaitIdle(d_);
    for (auto it = cleanup_.rbegin(); it != cleanup_.rend(); ++it) (*it)();
    t_.vkDestroyDevice(d_, nullptr);
  }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  void make_objects();
  // Records (or with --record-once, after the first frame, only submits)
  // and runs one frame; returns the draws and dispatches it recorded.
  unsigned frame();

 private:
  template <typename T, typename Destroy>
  T own(T handle, Destroy destroy) {
    cleanup_.push_back([this, handle, destroy] { (t_.*destroy)(d_, handle, nullptr); });
    return handle;
  }
  VkShaderModule module(const std::uint32_t* code, std::size_t bytes);
  unsigned record();

  const Options& o_;
  Has has_;
  VkDevice d_ = VK_NULL_HANDLE;
  VolkDeviceTable t_{};
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  std::vector<std::function<void()>> cleanup_;
  VkBuffer buffer_ = VK_NULL_HANDLE;  // indices, indirect commands, count, the compute counter
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline graphics_ = VK_NULL_HANDLE, compute_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  unsigned recorded_ = 0;  // draws and dispatches of the recording
  bool has_recording_ = false;
};

// Offsets in buffer_.
constexpr VkDeviceSize kIndices = 0, kDrawCommand = 256, kIndexedCommand = 512, kCount = 768, kDispatchCommand = 1024,
                       kCounter = 1280, kBufferSize = 1536;
constexpr std::uint32_t kSize = 32;  // the colour image's width and height

VkShaderModule Device::module(const std::uint32_t* code, std::size_t bytes) {
  auto ci = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  ci.codeSize = bytes;
  ci.pCode = code;
  VkShaderModule m = VK_NULL_HANDLE;
  check(t_.vkCreateShaderModule(d_, &ci, nullptr, &m), "vkCreateShaderModule");
  return own(m, &VolkDeviceTable::vkDestroyShaderModule);
}

void Device::make_objects() {
  const auto memory_for = [&](VkMemoryRequirements req, VkMemoryPropertyFlags want) {
    std::uint32_t type = 0;
    while (!((req.memoryTypeBits >> type) & 1) || (memory_.memoryTypes[type].propertyFlags & want) != want) ++type;
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
    VkDeviceMemory m = VK_NULL_HANDLE;
    check(t_.vkAllocateMemory(d_, &ai, nullptr, &m), "vkAllocateMemory");
    return own(m, &VolkDeviceTable::vkFreeMemory);
  };
  auto bci = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bci.size = kBufferSize;
  bci.usage =
      VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  check(t_.vkCreateBuffer(d_, &bci, nullptr, &buffer_), "vkCreateBuffer");
  own(buffer_, &VolkDeviceTable::vkDestroyBuffer);
  VkMemoryRequirements req{};
  t_.vkGetBufferMemoryRequirements(d_, buffer_, &req);
  const VkDeviceMemory bm = memory_for(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  check(t_.vkBindBufferMemory(d_, buffer_, bm, 0), "vkBindBufferMemory");
  void* p = nullptr;
  check(t_.vkMapMemory(d_, bm, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
  auto* bytes = static_cast<std::uint8_t*>(p);
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

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  auto lci = make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  lci.bindingCount = 1;
  lci.pBindings = &binding;
  VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
  check(t_.vkCreateDescriptorSetLayout(d_, &lci, nullptr, &dsl), "vkCreateDescriptorSetLayout");
  own(dsl, &VolkDeviceTable::vkDestroyDescriptorSetLayout);
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  auto dpci = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  dpci.maxSets = 1;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &size;
  VkDescriptorPool dp = VK_NULL_HANDLE;
  check(t_.vkCreateDescriptorPool(d_, &dpci, nullptr, &dp), "vkCreateDescriptorPool");
  own(dp, &VolkDeviceTable::vkDestroyDescriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, dp, 1, &dsl};
  check(t_.vkAllocateDescriptorSets(d_, &dsai, &set_), "vkAllocateDescriptorSets");
  const VkDescriptorBufferInfo dbi{buffer_, kCounter, 16};
  auto write = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstSet = set_;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &dbi;
  t_.vkUpdateDescriptorSets(d_, 1, &write, 0, nullptr);
  auto plci = make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &dsl;
  check(t_.vkCreatePipelineLayout(d_, &plci, nullptr, &layout_), "vkCreatePipelineLayout");
  own(layout_, &VolkDeviceTable::vkDestroyPipelineLayout);

  auto cpci = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  cpci.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
  cpci.stage = make<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = module(kCompSpirv, sizeof kCompSpirv);
  cpci.stage.pName = "main";
  cpci.layout = layout_;
  check(t_.vkCreateComputePipelines(d_, VK_NULL_HANDLE, 1, &cpci, nullptr, &compute_), "vkCreateComputePipelines");
  own(compute_, &VolkDeviceTable::vkDestroyPipeline);

  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkAttachmentDescription colour{0,
                                 format,
                                 VK_SAMPLE_COUNT_1_BIT,
                                 VK_ATTACHMENT_LOAD_OP_CLEAR,
                                 VK_ATTACHMENT_STORE_OP_STORE,
                                 VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                 VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                 VK_IMAGE_LAYOUT_UNDEFINED,
                                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  auto rpci = make<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  rpci.attachmentCount = 1;
  rpci.pAttachments = &colour;
  rpci.subpassCount = 1;
  rpci.pSubpasses = &subpass;
  check(t_.vkCreateRenderPass(d_, &rpci, nullptr, &render_pass_), "vkCreateRenderPass");
  own(render_pass_, &VolkDeviceTable::vkDestroyRenderPass);
  auto ici = make<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  VkImage image = VK_NULL_HANDLE;
  check(t_.vkCreateImage(d_, &ici, nullptr, &image), "vkCreateImage");
  own(image, &VolkDeviceTable::vkDestroyImage);
  t_.vkGetImageMemoryRequirements(d_, image, &req);
  check(t_.vkBindImageMemory(d_, image, memory_for(req, 0), 0), "vkBindImageMemory");
  auto ivci = make<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  ivci.image = image;
  ivci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  ivci.format = format;
  ivci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  check(t_.vkCreateImageView(d_, &ivci, nullptr, &view), "vkCreateImageView");
  own(view, &VolkDeviceTable::vkDestroyImageView);
  auto fci = make<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  fci.renderPass = render_pass_;
  fci.attachmentCount = 1;
  fci.pAttachments = &view;
  fci.width = fci.height = kSize;
  fci.layers = 1;
  check(t_.vkCreateFramebuffer(d_, &fci, nullptr, &framebuffer_), "vkCreateFramebuffer");
  own(framebuffer_, &VolkDeviceTable::vkDestroyFramebuffer);

  VkPipelineShaderStageCreateInfo stages[2] = {
      make<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO),
      make<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO)};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = module(kVertSpirv, sizeof kVertSpirv);
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = module(kFragSpirv, sizeof kFragSpirv);
  stages[1].pName = "main";
  auto vertex_input =
      make<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  auto assembly =
      make<VkPipelineInputAssemblyStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {kSize, kSize}};
  auto vp = make<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  vp.viewportCount = vp.scissorCount = 1;
  vp.pViewports = &viewport;
  vp.pScissors = &scissor;
  auto raster =
      make<VkPipelineRasterizationStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  raster.lineWidth = 1;
  auto ms = make<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.colorWriteMask = 0xf;
  auto blend = make<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  blend.attachmentCount = 1;
  blend.pAttachments = &attachment;
  auto gpci = make<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vertex_input;
  gpci.pInputAssemblyState = &assembly;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &raster;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &blend;
  gpci.layout = layout_;
  gpci.renderPass = render_pass_;
  check(t_.vkCreateGraphicsPipelines(d_, VK_NULL_HANDLE, 1, &gpci, nullptr, &graphics_), "vkCreateGraphicsPipelines");
  own(graphics_, &VolkDeviceTable::vkDestroyPipeline);

  auto cpi = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  VkCommandPool pool = VK_NULL_HANDLE;
  check(t_.vkCreateCommandPool(d_, &cpi, nullptr, &pool), "vkCreateCommandPool");
  own(pool, &VolkDeviceTable::vkDestroyCommandPool);
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  check(t_.vkAllocateCommandBuffers(d_, &cai, &cb_), "vkAllocateCommandBuffers");
  auto fi = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  check(t_.vkCreateFence(d_, &fi, nullptr, &fence_), "vkCreateFence");
  own(fence_, &VolkDeviceTable::vkDestroyFence);
}

unsigned Device::record() {
  auto bi = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  check(t_.vkBeginCommandBuffer(cb_, &bi), "vkBeginCommandBuffer");
  VkClearValue clear{};
  auto rpbi = make<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  rpbi.renderPass = render_pass_;
  rpbi.framebuffer = framebuffer_;
  rpbi.renderArea = {{0, 0}, {kSize, kSize}};
  rpbi.clearValueCount = 1;
  rpbi.pClearValues = &clear;
  unsigned n = 0;
  if (o_.no_work) {
    check(t_.vkEndCommandBuffer(cb_), "vkEndCommandBuffer");
    return n;
  }
  t_.vkCmdBeginRenderPass(cb_, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  t_.vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, graphics_);
  t_.vkCmdDraw(cb_, 3, 1, 0, 0), ++n;
  if (o_.draws) {
    t_.vkCmdBindIndexBuffer(cb_, buffer_, kIndices, VK_INDEX_TYPE_UINT16);
    t_.vkCmdDrawIndexed(cb_, 3, 1, 0, 0, 0), ++n;
    t_.vkCmdDrawIndirect(cb_, buffer_, kDrawCommand, 1, sizeof(VkDrawIndirectCommand)), ++n;
    t_.vkCmdDrawIndexedIndirect(cb_, buffer_, kIndexedCommand, 1, sizeof(VkDrawIndexedIndirectCommand)), ++n;
    if (has_.indirect_count) {
      t_.vkCmdDrawIndirectCount(cb_, buffer_, kDrawCommand, buffer_, kCount, 1, sizeof(VkDrawIndirectCommand)), ++n;
      t_.vkCmdDrawIndexedIndirectCount(cb_, buffer_, kIndexedCommand, buffer_, kCount, 1,
                                       sizeof(VkDrawIndexedIndirectCommand)),
          ++n;
    }
    if (has_.multi_draw) {
      const VkMultiDrawInfoEXT draws[2] = {{0, 3}, {0, 3}};
      const VkMultiDrawIndexedInfoEXT indexed[2] = {{0, 3, 0}, {0, 3, 0}};
      t_.vkCmdDrawMultiEXT(cb_, 2, draws, 1, 0, sizeof(VkMultiDrawInfoEXT)), ++n;
      t_.vkCmdDrawMultiIndexedEXT(cb_, 2, indexed, 1, 0, sizeof(VkMultiDrawIndexedInfoEXT), nullptr), ++n;
    }
  }
  t_.vkCmdEndRenderPass(cb_);
  t_.vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, compute_);
  t_.vkCmdBindDescriptorSets(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  t_.vkCmdDispatch(cb_, 2, 1, 1), ++n;
  if (o_.draws) {
    t_.vkCmdDispatchIndirect(cb_, buffer_, kDispatchCommand), ++n;
    t_.vkCmdDispatchBase(cb_, 1, 0, 0, 1, 1, 1), ++n;
  }
  check(t_.vkEndCommandBuffer(cb_), "vkEndCommandBuffer");
  return n;
}

unsigned Device::frame() {
  if (!o_.record_once || !has_recording_) recorded_ = record();
  has_recording_ = true;
  auto si = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb_;
  check(t_.vkQueueSubmit(queue_, 1, &si, fence_), "vkQueueSubmit");
  check(t_.vkWaitForFences(d_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  check(t_.vkResetFences(d_, 1, &fence_), "vkResetFences");
  VkDebugUtilsLabelEXT label{};
  label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
  label.pLabelName = "vkQueuePresentKHR";
  vkQueueInsertDebugUtilsLabelEXT(queue_, &label);
  return recorded_;
}

int run(const Options& o) {
  const Instance instance(o.validate);
  std::uint32_t n = 1;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  if (vkEnumeratePhysicalDevices(instance.handle, &n, &pd) < 0 || n == 0) throw std::runtime_error("no Vulkan device");
  std::vector<std::unique_ptr<Device>> devices;
  for (unsigned i = 0; i < o.devices; ++i) devices.push_back(std::make_unique<Device>(pd, o));
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

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--frames" && value)
      o.frames = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (a == "--devices" && value)
      o.devices = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (a == "--record-once")
      o.record_once = true;
    else if (a == "--draws")
      o.draws = true;
    else if (a == "--no-work")
      o.no_work = true;
    else if (a == "--fork")
      o.fork = true;
    else if (a == "--crash")
      o.crash = true;
    else if (a == "--validate")
      o.validate = true;
    else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpa_work: %s\n", e.what());
    return 1;
  }
}
