// SPDX-License-Identifier: MIT
// The instance, device, shared objects and pipeline create infos of the
// capture-layer test apps.
#include "vk_app.hpp"

#include <cstring>
#include <mutex>
#include <vector>

#include "shaders.hpp"

namespace capture_apps {

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

bool has_extension(const std::vector<VkExtensionProperties>& exts, const char* name) {
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

VkShaderModule make_module(const Device& device, const std::uint32_t* code, std::size_t bytes) {
  VkShaderModuleCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  ci.codeSize = bytes;
  ci.pCode = code;
  VkShaderModule m = VK_NULL_HANDLE;
  APP_CHECK(device.vk().vkCreateShaderModule(device.handle(), &ci, nullptr, &m));
  return m;
}

VkRenderPass make_render_pass(const Device& device) {
  VkAttachmentDescription colour{};
  colour.format = VK_FORMAT_R8G8B8A8_UNORM;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  colour.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  const VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkRenderPassCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  ci.attachmentCount = 1;
  ci.pAttachments = &colour;
  ci.subpassCount = 1;
  ci.pSubpasses = &subpass;
  VkRenderPass rp = VK_NULL_HANDLE;
  APP_CHECK(device.vk().vkCreateRenderPass(device.handle(), &ci, nullptr, &rp));
  return rp;
}

VkRenderPass make_render_pass2(const Device& device) {
  VkAttachmentDescription2 colour{};
  colour.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2;
  colour.format = VK_FORMAT_R8G8B8A8_UNORM;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  colour.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference2 ref{};
  ref.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2;
  ref.attachment = 0;
  ref.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  ref.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
  VkSubpassDescription2 subpass{};
  subpass.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2;
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkRenderPassCreateInfo2 ci{};
  ci.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2;
  ci.attachmentCount = 1;
  ci.pAttachments = &colour;
  ci.subpassCount = 1;
  ci.pSubpasses = &subpass;
  VkRenderPass rp = VK_NULL_HANDLE;
  APP_CHECK(device.vk().vkCreateRenderPass2(device.handle(), &ci, nullptr, &rp));
  return rp;
}

const char* result_name(VkResult r) {
  switch (r) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    case VK_PIPELINE_COMPILE_REQUIRED: return "VK_PIPELINE_COMPILE_REQUIRED";
    default: return "VkResult";
  }
}

}  // namespace

void check(VkResult r, const char* call) {
  if (r == VK_SUCCESS) return;
  // |call| is the whole expression; its function name is enough.
  const std::string text(call);
  throw VkError(text.substr(0, text.find('(')) + " failed: " + result_name(r) + " (" + std::to_string(r) + ")");
}

void load_vulkan() {
  VkResult r = VK_SUCCESS;
  std::call_once(g_loader_once, [&] { r = volkInitialize(); });
  if (r != VK_SUCCESS) throw VkError("no Vulkan loader (libvulkan.so.1)");
  if (volkGetInstanceVersion() < VK_API_VERSION_1_3) throw VkError("the Vulkan loader is older than 1.3");
}

Instance::Instance(const std::string& app_name, const char* engine_name, const std::vector<const char*>& extensions) {
  load_vulkan();
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = app_name.c_str();
  app.applicationVersion = 1;
  app.pEngineName = engine_name;
  app.engineVersion = 1;
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ci.pApplicationInfo = &app;
  ci.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  ci.ppEnabledExtensionNames = extensions.data();
  APP_CHECK(vkCreateInstance(&ci, nullptr, &handle_));
  // The loader's instance entry points are trampolines that dispatch on the
  // handle, so one load serves every instance, even concurrent ones.
  std::call_once(g_instance_once, [&] { volkLoadInstanceOnly(handle_); });

  std::uint32_t n = 0;
  APP_CHECK(vkEnumeratePhysicalDevices(handle_, &n, nullptr));
  std::vector<VkPhysicalDevice> pds(n);
  APP_CHECK(vkEnumeratePhysicalDevices(handle_, &n, pds.data()));
  for (VkPhysicalDevice pd : pds) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_3) continue;
    std::uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
    std::vector<VkQueueFamilyProperties> qs(nq);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qs.data());
    for (std::uint32_t q = 0; q < nq; ++q) {
      if (qs[q].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
        physical_ = pd;
        queue_family_ = q;
        return;
      }
    }
  }
  vkDestroyInstance(handle_, nullptr);
  throw VkError("no Vulkan 1.3 device with a graphics queue");
}

Instance::~Instance() { vkDestroyInstance(handle_, nullptr); }

Device::Device(const Instance& instance, const DeviceWants& wants) {
  const VkPhysicalDevice pd = instance.physical();
  std::uint32_t n = 0;
  APP_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr));
  std::vector<VkExtensionProperties> exts(n);
  APP_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data()));
  const bool has_gpl = has_extension(exts, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME) &&
                       has_extension(exts, VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
  const bool has_m5 = has_extension(exts, kMaintenance5);

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

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = instance.queue_family();
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  ci.pNext = &on;
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &queue;
  ci.enabledExtensionCount = static_cast<std::uint32_t>(enable.size());
  ci.ppEnabledExtensionNames = enable.data();
  APP_CHECK(vkCreateDevice(pd, &ci, nullptr, &handle_));
  volkLoadDeviceTable(&vk_, handle_);
}

Device::~Device() { vk_.vkDestroyDevice(handle_, nullptr); }

Shared::Shared(const Device& device, bool make_rp, bool make_rp2) {
  const VolkDeviceTable& vk = device.vk();
  VkSamplerCreateInfo sci{};
  sci.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  sci.magFilter = VK_FILTER_LINEAR;
  sci.minFilter = VK_FILTER_LINEAR;
  sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sci.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.maxLod = 4.0f;
  VkSampler s = VK_NULL_HANDLE;
  APP_CHECK(vk.vkCreateSampler(device.handle(), &sci, nullptr, &s));
  sampler = Sampler(device, s);

  const VkSampler immutable = sampler.get();
  VkDescriptorSetLayoutBinding bindings[2]{};
  bindings[0].binding = 0;
  bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER;
  bindings[0].descriptorCount = 1;
  bindings[0].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
  bindings[0].pImmutableSamplers = &immutable;
  bindings[1].binding = 1;
  bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  bindings[1].descriptorCount = 1;
  bindings[1].stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutCreateInfo dci{};
  dci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  dci.bindingCount = 2;
  dci.pBindings = bindings;
  VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
  APP_CHECK(vk.vkCreateDescriptorSetLayout(device.handle(), &dci, nullptr, &dsl));
  set_layout = SetLayout(device, dsl);

  const VkDescriptorSetLayout set = set_layout.get();
  const VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
  VkPipelineLayoutCreateInfo lci{};
  lci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  lci.setLayoutCount = 1;
  lci.pSetLayouts = &set;
  lci.pushConstantRangeCount = 1;
  lci.pPushConstantRanges = &push;
  VkPipelineLayout pl = VK_NULL_HANDLE;
  APP_CHECK(vk.vkCreatePipelineLayout(device.handle(), &lci, nullptr, &pl));
  layout = PipelineLayout(device, pl);

  if (make_rp) render_pass = RenderPass(device, make_render_pass(device));
  if (make_rp2) render_pass2 = RenderPass(device, make_render_pass2(device));
  vert = ShaderModule(device, make_module(device, kVertSpirv, sizeof(kVertSpirv)));
  frag = ShaderModule(device, make_module(device, kFragSpirv, sizeof(kFragSpirv)));
  comp = ShaderModule(device, make_module(device, kCompSpirv, sizeof(kCompSpirv)));
}

GraphicsInfo::GraphicsInfo(const Device& device, const Shared& shared, const GraphicsVariant& v) {
  spec_data_ = v.variant;
  spec_entry_ = {0, 0, sizeof(std::uint32_t)};
  spec_ = {1, &spec_entry_, sizeof(spec_data_), &spec_data_};

  const std::uint32_t* code[2] = {kVertSpirv, kFragSpirv};
  const std::size_t bytes[2] = {sizeof(kVertSpirv), sizeof(kFragSpirv)};
  const VkShaderModule modules[2] = {shared.vert.get(), shared.frag.get()};
  const VkShaderStageFlagBits stage_bits[2] = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT};
  for (int i = 0; i < 2; ++i) {
    module_infos_[i].sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_infos_[i].codeSize = bytes[i];
    module_infos_[i].pCode = code[i];
    stages_[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages_[i].pNext = v.inline_modules ? &module_infos_[i] : nullptr;
    stages_[i].stage = stage_bits[i];
    stages_[i].module = v.inline_modules ? VK_NULL_HANDLE : modules[i];
    stages_[i].pName = "main";
    stages_[i].pSpecializationInfo = &spec_;
  }

  // Besides the specialization constant, the fixed-function state follows
  // the variant too, so that the libraries of --gpl differ as well.
  binding_ = {0, 16 + 4 * (v.variant % 8), VK_VERTEX_INPUT_RATE_VERTEX};
  attribute_ = {0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  vertex_input_.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertex_input_.vertexBindingDescriptionCount = 1;
  vertex_input_.pVertexBindingDescriptions = &binding_;
  vertex_input_.vertexAttributeDescriptionCount = 1;
  vertex_input_.pVertexAttributeDescriptions = &attribute_;
  input_assembly_.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  input_assembly_.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  viewport_.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport_.viewportCount = 1;
  viewport_.scissorCount = 1;
  raster_.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster_.polygonMode = VK_POLYGON_MODE_FILL;
  raster_.cullMode = static_cast<VkCullModeFlags>(v.variant % 4);
  raster_.frontFace = static_cast<VkFrontFace>((v.variant / 4) % 2);
  raster_.lineWidth = device.wide_lines() ? 1.0f + static_cast<float>(v.variant % 4) : 1.0f;
  depth_stencil_.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth_stencil_.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  depth_stencil_.maxDepthBounds = 1.0f;
  multisample_.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample_.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  blend_attachment_.blendEnable = (v.variant % 2) ? VK_TRUE : VK_FALSE;
  blend_attachment_.srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR;
  blend_attachment_.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
  blend_attachment_.colorBlendOp = VK_BLEND_OP_ADD;
  blend_attachment_.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  blend_attachment_.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
  blend_attachment_.alphaBlendOp = VK_BLEND_OP_ADD;
  blend_attachment_.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  blend_.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend_.attachmentCount = 1;
  blend_.pAttachments = &blend_attachment_;
  blend_.blendConstants[0] = static_cast<float>(v.variant) / 1000.0f;
  blend_.blendConstants[1] = 0.25f;
  blend_.blendConstants[2] = 0.5f;
  blend_.blendConstants[3] = 1.0f;
  dynamic_states_ = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  dynamic_.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic_.dynamicStateCount = static_cast<std::uint32_t>(dynamic_states_.size());
  dynamic_.pDynamicStates = dynamic_states_.data();
  rendering_.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
  rendering_.colorAttachmentCount = 1;
  rendering_.pColorAttachmentFormats = &colour_format_;

  info_.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info_.stageCount = static_cast<std::uint32_t>(stages_.size());
  info_.pStages = stages_.data();
  info_.pVertexInputState = &vertex_input_;
  info_.pInputAssemblyState = &input_assembly_;
  info_.pViewportState = &viewport_;
  info_.pRasterizationState = &raster_;
  info_.pMultisampleState = &multisample_;
  info_.pColorBlendState = &blend_;
  info_.pDynamicState = &dynamic_;
  info_.layout = shared.layout.get();
  info_.basePipelineIndex = -1;
  switch (v.target) {
    case Target::render_pass: info_.renderPass = shared.render_pass.get(); break;
    case Target::render_pass2: info_.renderPass = shared.render_pass2.get(); break;
    case Target::dynamic_rendering: info_.pNext = &rendering_; break;
  }
}

VkGraphicsPipelineCreateInfo GraphicsInfo::library(VkGraphicsPipelineLibraryFlagsEXT part) {
  library_info_ = {};
  library_info_.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT;
  library_info_.flags = part;
  VkGraphicsPipelineCreateInfo li{};
  li.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  li.pNext = &library_info_;
  li.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
  li.basePipelineIndex = -1;
  if (part == VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) {
    li.pVertexInputState = &vertex_input_;
    li.pInputAssemblyState = &input_assembly_;
    return li;
  }
  // The other three parts need the render pass, or the rendering info.
  if (info_.pNext) library_info_.pNext = &rendering_;
  li.renderPass = info_.renderPass;
  switch (part) {
    case VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT:
      li.stageCount = 1;
      li.pStages = &stages_[0];
      li.pViewportState = &viewport_;
      li.pRasterizationState = &raster_;
      li.pDynamicState = &dynamic_;
      li.layout = info_.layout;
      break;
    case VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT:
      li.stageCount = 1;
      li.pStages = &stages_[1];
      li.pMultisampleState = &multisample_;
      // Without a render pass this library cannot know whether there is a
      // depth attachment, so the spec wants the state (VUID-06590).
      li.pDepthStencilState = &depth_stencil_;
      li.layout = info_.layout;
      break;
    default:  // fragment output interface
      li.pColorBlendState = &blend_;
      li.pMultisampleState = &multisample_;
      break;
  }
  return li;
}

ComputeInfo::ComputeInfo(const Shared& shared, std::uint32_t variant, bool inline_modules) {
  spec_data_ = {variant, 1 + variant % 64};
  spec_entries_[0] = {0, 0, sizeof(std::uint32_t)};
  spec_entries_[1] = {1, sizeof(std::uint32_t), sizeof(std::uint32_t)};
  spec_ = {2, spec_entries_.data(), sizeof(spec_data_), spec_data_.data()};
  module_info_.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info_.codeSize = sizeof(kCompSpirv);
  module_info_.pCode = kCompSpirv;
  info_.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info_.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info_.stage.pNext = inline_modules ? &module_info_ : nullptr;
  info_.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info_.stage.module = inline_modules ? VK_NULL_HANDLE : shared.comp.get();
  info_.stage.pName = "main";
  info_.stage.pSpecializationInfo = &spec_;
  info_.layout = shared.layout.get();
  info_.basePipelineIndex = -1;
}

}  // namespace capture_apps
