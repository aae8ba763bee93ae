// SPDX-License-Identifier: MIT
// The errors, instance, device and common objects of the test applications.
#include "vk_app.hpp"

#include <cstring>
#include <mutex>

namespace test_apps {

namespace {

// The Vulkan headers of Debian 12 (1.3.239) predate VK_KHR_maintenance5; its
// feature struct is declared here so that a newer driver can still take
// inline shader modules without graphics pipeline libraries.
const char* const kMaintenance5 = "VK_KHR_maintenance5";
const auto kMaintenance5FeaturesType = static_cast<VkStructureType>(1000470000);
struct Maintenance5Features {
  VkStructureType sType;
  void* pNext;
  VkBool32 maintenance5;
};

std::once_flag g_loader_once;
std::once_flag g_instance_once;

}  // namespace

const char* result_name(VkResult r) {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    case VK_PIPELINE_COMPILE_REQUIRED: return "VK_PIPELINE_COMPILE_REQUIRED";
    default: return "VkResult";
  }
}

void check(VkResult r, const char* call) {
  if (r == VK_SUCCESS) return;
  // |call| is the whole expression; its function name is enough.
  const std::string text(call);
  throw VkError(text.substr(0, text.find('(')) + " failed: " + result_name(r) + " (" + std::to_string(r) + ")");
}

void load_vulkan(std::uint32_t api_version) {
  VkResult r = VK_SUCCESS;
  std::call_once(g_loader_once, [&] { r = volkInitialize(); });
  if (r != VK_SUCCESS) throw VkError("no Vulkan loader (libvulkan.so.1)");
  if (volkGetInstanceVersion() < api_version)
    throw VkError("the Vulkan loader is older than " + std::to_string(VK_API_VERSION_MAJOR(api_version)) + "." +
                  std::to_string(VK_API_VERSION_MINOR(api_version)));
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  std::uint32_t n = 0;
  APP_CHECK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
  std::vector<VkPhysicalDevice> pds(n);
  APP_CHECK(vkEnumeratePhysicalDevices(instance, &n, pds.data()));
  return pds;
}

std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice pd) {
  std::uint32_t n = 0;
  APP_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr));
  std::vector<VkExtensionProperties> exts(n);
  APP_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data()));
  return exts;
}

const VkExtensionProperties* find_extension(const std::vector<VkExtensionProperties>& exts, const char* name) {
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return &e;
  return nullptr;
}

std::optional<std::uint32_t> queue_family(VkPhysicalDevice pd, VkQueueFlags want, bool timestamps) {
  std::uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> qs(nq);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qs.data());
  for (std::uint32_t q = 0; q < nq; ++q)
    if ((qs[q].queueFlags & want) == want && (!timestamps || qs[q].timestampValidBits > 0)) return q;
  return std::nullopt;
}

VkResult create_device(VkPhysicalDevice pd, std::uint32_t family, const void* features,
                       const std::vector<const char*>& extensions, VkDevice* device) {
  const float priority = 1.0f;
  const VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, family, 1, &priority};
  VkDeviceCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  ci.pNext = features;
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &queue;
  ci.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  ci.ppEnabledExtensionNames = extensions.data();
  return vkCreateDevice(pd, &ci, nullptr, device);
}

Instance::Instance(const AppInfo& info) {
  load_vulkan(info.api_version);
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = info.name.c_str();
  app.applicationVersion = 1;
  app.pEngineName = "trak-tests";
  app.engineVersion = 1;
  app.apiVersion = info.api_version;
  VkInstanceCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = static_cast<std::uint32_t>(info.layers.size());
  ci.ppEnabledLayerNames = info.layers.data();
  ci.enabledExtensionCount = static_cast<std::uint32_t>(info.extensions.size());
  ci.ppEnabledExtensionNames = info.extensions.data();
  APP_CHECK(vkCreateInstance(&ci, nullptr, &handle_));
  // The loader's instance entry points are trampolines that dispatch on the
  // handle, so one load serves every instance, even concurrent ones.
  std::call_once(g_instance_once, [&] { volkLoadInstanceOnly(handle_); });
}

Instance::Instance(const std::string& app_name, const std::vector<const char*>& extensions)
    : Instance(AppInfo{app_name, VK_API_VERSION_1_3, extensions, {}}) {
  for (VkPhysicalDevice pd : physical_devices(handle_)) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_3) continue;
    if (const auto family = test_apps::queue_family(pd, VK_QUEUE_GRAPHICS_BIT)) {
      physical_ = pd;
      queue_family_ = *family;
      return;
    }
  }
  // The delegated constructor has run, so the destructor destroys the instance.
  throw VkError("no Vulkan 1.3 device with a graphics queue");
}

Instance::~Instance() { vkDestroyInstance(handle_, nullptr); }

Device::Device(const Instance& instance, const DeviceWants& wants)
    : physical_(instance.physical()), family_(instance.queue_family()) {
  const VkPhysicalDevice pd = physical_;
  const std::vector<VkExtensionProperties> exts = device_extensions(pd);
  const bool has_gpl = find_extension(exts, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME) &&
                       find_extension(exts, VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
  const bool has_m5 = find_extension(exts, kMaintenance5);

  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl{};
  gpl.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT;
  Maintenance5Features m5{kMaintenance5FeaturesType, nullptr, VK_FALSE};
  VkPhysicalDeviceVulkan13Features v13{};
  v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.pNext = &v13;
  // Structs of extensions the device lacks stay out of the chain.
  void** tail = &v13.pNext;
  if (has_gpl) {
    *tail = &gpl;
    tail = &gpl.pNext;
  }
  if (has_m5) *tail = &m5;
  vkGetPhysicalDeviceFeatures2(pd, &f2);

  // Enable only what the apps use: a capture layer records the features.
  VkPhysicalDeviceFeatures2 on{};
  on.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  on.features.wideLines = f2.features.wideLines;
  wide_lines_ = f2.features.wideLines;
  VkPhysicalDeviceVulkan13Features on13{};
  on13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  on13.dynamicRendering = v13.dynamicRendering;
  on.pNext = &on13;
  tail = &on13.pNext;
  std::vector<const char*> enable;
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT on_gpl{};
  on_gpl.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT;
  Maintenance5Features on_m5{kMaintenance5FeaturesType, nullptr, VK_TRUE};
  // Inline modules are valid with the graphicsPipelineLibrary feature on,
  // or with maintenance5.
  if ((wants.gpl || wants.inline_modules) && gpl.graphicsPipelineLibrary) {
    enable.push_back(VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
    enable.push_back(VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
    on_gpl.graphicsPipelineLibrary = VK_TRUE;
    *tail = &on_gpl;
    tail = &on_gpl.pNext;
    gpl_ = wants.gpl;
    inline_modules_ = wants.inline_modules;
  } else if (wants.inline_modules && m5.maintenance5) {
    enable.push_back(kMaintenance5);
    *tail = &on_m5;
    inline_modules_ = true;
  }

  if (wants.swapchain) enable.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);

  APP_CHECK(create_device(pd, family_, &on, enable, &handle_));
  volkLoadDeviceTable(&vk_, handle_);
}

Device::Device(VkPhysicalDevice physical, std::uint32_t family, const void* features,
               const std::vector<const char*>& extensions)
    : physical_(physical), family_(family) {
  APP_CHECK(create_device(physical, family, features, extensions, &handle_));
  volkLoadDeviceTable(&vk_, handle_);
}

Device::Device(VkPhysicalDevice physical, std::uint32_t family, VkDevice handle)
    : handle_(handle), physical_(physical), family_(family) {
  volkLoadDeviceTable(&vk_, handle_);
}

Device::~Device() { vk_.vkDestroyDevice(handle_, nullptr); }

VkQueue Device::queue() const {
  VkQueue q = VK_NULL_HANDLE;
  vk_.vkGetDeviceQueue(handle_, family_, 0, &q);
  return q;
}

std::uint32_t Device::memory_type(std::uint32_t bits, VkMemoryPropertyFlags want) const {
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(physical_, &props);
  for (std::uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
  throw VkError("no memory type with properties " + std::to_string(want));
}

namespace {

Memory allocate(const Device& device, const VkMemoryRequirements& req, VkMemoryPropertyFlags want) {
  return make<Memory, &VolkDeviceTable::vkAllocateMemory>(
      device, VkMemoryAllocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                                   device.memory_type(req.memoryTypeBits, want)});
}

}  // namespace

BoundBuffer make_buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want) {
  BoundBuffer b;
  b.buffer = make<Buffer, &VolkDeviceTable::vkCreateBuffer>(
      device, VkBufferCreateInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, size, usage,
                                 VK_SHARING_MODE_EXCLUSIVE, 0, nullptr});
  VkMemoryRequirements req{};
  device.vk().vkGetBufferMemoryRequirements(device.handle(), b.get(), &req);
  b.memory = allocate(device, req, want);
  APP_CHECK(device.vk().vkBindBufferMemory(device.handle(), b.get(), b.memory.get(), 0));
  return b;
}

BoundImage make_image(const Device& device, VkFormat format, std::uint32_t size, std::uint32_t layers,
                      VkImageUsageFlags usage, VkMemoryPropertyFlags want) {
  VkImageCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = format;
  ci.extent = {size, size, 1};
  ci.mipLevels = 1;
  ci.arrayLayers = layers;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = usage;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  BoundImage i;
  i.image = make<Image, &VolkDeviceTable::vkCreateImage>(device, ci);
  VkMemoryRequirements req{};
  device.vk().vkGetImageMemoryRequirements(device.handle(), i.get(), &req);
  i.memory = allocate(device, req, want);
  APP_CHECK(device.vk().vkBindImageMemory(device.handle(), i.get(), i.memory.get(), 0));
  return i;
}

void* map(const Device& device, const Memory& memory) {
  void* p = nullptr;
  APP_CHECK(device.vk().vkMapMemory(device.handle(), memory.get(), 0, VK_WHOLE_SIZE, 0, &p));
  return p;
}

ImageView make_view(const Device& device, VkImage image, VkFormat format, VkImageAspectFlags aspects) {
  return make<ImageView, &VolkDeviceTable::vkCreateImageView>(
      device, VkImageViewCreateInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                    nullptr,
                                    0,
                                    image,
                                    VK_IMAGE_VIEW_TYPE_2D,
                                    format,
                                    VkComponentMapping{},
                                    {aspects, 0, 1, 0, 1}});
}

Framebuffer make_framebuffer(const Device& device, VkRenderPass pass, const std::vector<VkImageView>& views,
                             std::uint32_t size) {
  return make<Framebuffer, &VolkDeviceTable::vkCreateFramebuffer>(
      device, VkFramebufferCreateInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, nullptr, 0, pass,
                                      static_cast<std::uint32_t>(views.size()), views.data(), size, size, 1});
}

RenderPass make_colour_pass(const Device& device, bool two) {
  const VkFormat rgba = VK_FORMAT_R8G8B8A8_UNORM;
  const VkSampleCountFlagBits one = VK_SAMPLE_COUNT_1_BIT;
  const VkImageLayout from = VK_IMAGE_LAYOUT_UNDEFINED, to = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  const VkAttachmentLoadOp clear = VK_ATTACHMENT_LOAD_OP_CLEAR, no_load = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  const VkAttachmentStoreOp store = VK_ATTACHMENT_STORE_OP_STORE, no_store = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  const VkPipelineBindPoint graphics = VK_PIPELINE_BIND_POINT_GRAPHICS;
  if (two) {
    const VkAttachmentDescription2 colour{
        VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, nullptr, 0, rgba, one, clear, store, no_load, no_store, from, to};
    const VkAttachmentReference2 ref{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0, to,
                                     VK_IMAGE_ASPECT_COLOR_BIT};
    VkSubpassDescription2 subpass{};
    subpass.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2;
    subpass.pipelineBindPoint = graphics;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    return make<RenderPass, &VolkDeviceTable::vkCreateRenderPass2>(
        device, VkRenderPassCreateInfo2{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2, nullptr, 0, 1, &colour, 1,
                                        &subpass, 0, nullptr, 0, nullptr});
  }
  const VkAttachmentDescription colour{0, rgba, one, clear, store, no_load, no_store, from, to};
  const VkAttachmentReference ref{0, to};
  const VkSubpassDescription subpass{0, graphics, 0, nullptr, 1, &ref, nullptr, nullptr, 0, nullptr};
  return make<RenderPass, &VolkDeviceTable::vkCreateRenderPass>(
      device, VkRenderPassCreateInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, nullptr, 0, 1, &colour, 1, &subpass, 0,
                                     nullptr});
}

ShaderModule make_module(const Device& device, const std::uint32_t* code, std::size_t bytes) {
  return make<ShaderModule, &VolkDeviceTable::vkCreateShaderModule>(
      device, VkShaderModuleCreateInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, bytes, code});
}

CommandPool make_command_pool(const Device& device, VkCommandPoolCreateFlags flags) {
  return make<CommandPool, &VolkDeviceTable::vkCreateCommandPool>(
      device,
      VkCommandPoolCreateInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, flags, device.queue_family()});
}

VkCommandBuffer allocate_commands(const Device& device, VkCommandPool pool, VkCommandBufferLevel level) {
  const VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, level, 1};
  VkCommandBuffer cb = VK_NULL_HANDLE;
  APP_CHECK(device.vk().vkAllocateCommandBuffers(device.handle(), &ai, &cb));
  return cb;
}

void begin_commands(const Device& device, VkCommandBuffer cb, VkCommandBufferUsageFlags flags) {
  const VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, flags, nullptr};
  APP_CHECK(device.vk().vkBeginCommandBuffer(cb, &bi));
}

Fence make_fence(const Device& device, VkFenceCreateFlags flags) {
  return make<Fence, &VolkDeviceTable::vkCreateFence>(
      device, VkFenceCreateInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, flags});
}

void submit(const Device& device, VkQueue queue, VkCommandBuffer cb, VkFence fence) {
  VkSubmitInfo si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  APP_CHECK(device.vk().vkQueueSubmit(queue, 1, &si, fence));
}

}  // namespace test_apps
