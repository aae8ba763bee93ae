// SPDX-License-Identifier: MIT
// Replay devices: real ones, and the null device.
#include "replay/foz/device.hpp"

#include <atomic>

#include "replay/foz/cache.hpp"

namespace libtrace::foz::detail {

namespace {

// ---- The null device: entry points that create nothing -------------------------------

std::atomic<std::uint64_t> g_next_handle{0x1000};

template <typename H>
H fake_handle() {
  return reinterpret_cast<H>(static_cast<std::uintptr_t>(g_next_handle.fetch_add(16, std::memory_order_relaxed)));
}

template <typename Info, typename H>
VKAPI_ATTR VkResult VKAPI_CALL null_create(VkDevice, const Info*, const VkAllocationCallbacks*, H* out) {
  *out = fake_handle<H>();
  return VK_SUCCESS;
}

template <typename H>
VKAPI_ATTR void VKAPI_CALL null_destroy(VkDevice, H, const VkAllocationCallbacks*) {}

template <typename Info>
VKAPI_ATTR VkResult VKAPI_CALL null_pipelines(VkDevice, VkPipelineCache, std::uint32_t n, const Info*,
                                              const VkAllocationCallbacks*, VkPipeline* out) {
  for (std::uint32_t i = 0; i < n; ++i) out[i] = fake_handle<VkPipeline>();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL null_rt_pipelines(VkDevice, VkDeferredOperationKHR, VkPipelineCache, std::uint32_t n,
                                                 const VkRayTracingPipelineCreateInfoKHR*, const VkAllocationCallbacks*,
                                                 VkPipeline* out) {
  for (std::uint32_t i = 0; i < n; ++i) out[i] = fake_handle<VkPipeline>();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL null_cache_data(VkDevice, VkPipelineCache, std::size_t* size, void*) {
  *size = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL null_merge(VkDevice, VkPipelineCache, std::uint32_t, const VkPipelineCache*) {
  return VK_SUCCESS;
}

void install_null_entry_points() {
  vkCreateSampler = null_create<VkSamplerCreateInfo, VkSampler>;
  vkDestroySampler = null_destroy<VkSampler>;
  vkCreateSamplerYcbcrConversion = null_create<VkSamplerYcbcrConversionCreateInfo, VkSamplerYcbcrConversion>;
  vkDestroySamplerYcbcrConversion = null_destroy<VkSamplerYcbcrConversion>;
  vkCreateDescriptorSetLayout = null_create<VkDescriptorSetLayoutCreateInfo, VkDescriptorSetLayout>;
  vkDestroyDescriptorSetLayout = null_destroy<VkDescriptorSetLayout>;
  vkCreatePipelineLayout = null_create<VkPipelineLayoutCreateInfo, VkPipelineLayout>;
  vkDestroyPipelineLayout = null_destroy<VkPipelineLayout>;
  vkCreateRenderPass = null_create<VkRenderPassCreateInfo, VkRenderPass>;
  vkCreateRenderPass2 = null_create<VkRenderPassCreateInfo2, VkRenderPass>;
  vkDestroyRenderPass = null_destroy<VkRenderPass>;
  vkCreateShaderModule = null_create<VkShaderModuleCreateInfo, VkShaderModule>;
  vkDestroyShaderModule = null_destroy<VkShaderModule>;
  vkCreateGraphicsPipelines = null_pipelines<VkGraphicsPipelineCreateInfo>;
  vkCreateComputePipelines = null_pipelines<VkComputePipelineCreateInfo>;
  vkCreateRayTracingPipelinesKHR = null_rt_pipelines;
  vkDestroyPipeline = null_destroy<VkPipeline>;
  vkCreatePipelineCache = null_create<VkPipelineCacheCreateInfo, VkPipelineCache>;
  vkDestroyPipelineCache = null_destroy<VkPipelineCache>;
  vkGetPipelineCacheData = null_cache_data;
  vkMergePipelineCaches = null_merge;
}

}  // namespace

ReplayDevice::ReplayDevice() : caps_(Capabilities::everything()) {
  install_null_entry_points();
  handle_ = reinterpret_cast<VkDevice>(std::uintptr_t{1});
  report_.name = "null device";
  report_.null_device = true;
  report_.api_version = VK_API_VERSION_1_3;
}

ReplayDevice::ReplayDevice(const std::string& spec, const VkPhysicalDeviceFeatures2* archive_features) {
  vk::InstanceOptions io;
  io.application_name = "trak";
  instance_ = std::make_unique<vk::Instance>(io);
  const vk::PhysicalDeviceInfo& phys = instance_->select(spec);
  const std::uint32_t api = std::min(instance_->api_version(), phys.properties.apiVersion);

  vk::DeviceOptions opt;
  for (const auto& e : phys.extensions)
    if (!extension_denied(e.extensionName, phys.extensions)) opt.extensions.emplace_back(e.extensionName);
  const vk::Features supported =
      vk::Features::supported(phys, instance_->api_version(), feature_query(api, opt.extensions));
  vk::Features requested;
  opt.features = replay_features(supported, archive_features, api, requested);
  try {
    device_ = std::make_unique<vk::Device>(*instance_, phys, opt);
  } catch (const Error& first) {
    // A driver may refuse some combination of everything it lists. Then only
    // what the archive asked for (as the device has it), and a warning:
    // pipelines needing more are skipped as unsupported, by name.
    std::vector<std::string> lacking;
    opt.features = requested.intersect(supported, lacking);
    device_ = std::make_unique<vk::Device>(*instance_, phys, opt);
    report_.warnings.emplace_back(phys.name(), "refused every feature it lists together (" + first.message() +
                                                   "); replaying with the archive's features only");
  }
  handle_ = device_->handle();
  caps_ = Capabilities(device_->api_version(), device_->enabled_extensions(), device_->enabled_features());

  report_.name = phys.name();
  report_.driver =
      phys.driver_name.empty() ? "" : phys.driver_name + (phys.driver_info.empty() ? "" : " " + phys.driver_info);
  report_.vendor_id = phys.properties.vendorID;
  report_.device_id = phys.properties.deviceID;
  report_.driver_id = static_cast<std::uint32_t>(phys.driver_id);
  report_.api_version = phys.properties.apiVersion;
  std::copy(std::begin(phys.properties.pipelineCacheUUID), std::end(phys.properties.pipelineCacheUUID), report_.uuid);
  report_.missing_features = missing_features(requested, supported);
}

ReplayDevice::~ReplayDevice() = default;

VkPipelineCache ReplayDevice::create_cache(std::span<const std::uint8_t> initial) const {
  VkPipelineCacheCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  ci.initialDataSize = initial.size();
  ci.pInitialData = initial.empty() ? nullptr : initial.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  vk::check(vkCreatePipelineCache(handle_, &ci, nullptr, &cache), "vkCreatePipelineCache");
  return cache;
}

std::vector<std::uint8_t> ReplayDevice::cache_data(VkPipelineCache cache) const {
  std::size_t n = 0;
  vk::check(vkGetPipelineCacheData(handle_, cache, &n, nullptr), "vkGetPipelineCacheData");
  std::vector<std::uint8_t> out(n);
  if (n) vk::check(vkGetPipelineCacheData(handle_, cache, &n, out.data()), "vkGetPipelineCacheData");
  out.resize(n);
  return out;
}

std::string ReplayDevice::cache_mismatch(std::span<const std::uint8_t> blob) const {
  std::string why;
  const auto h = parse_cache_header(blob, why);
  if (!h) return why;
  return detail::cache_mismatch(*h, report_.vendor_id, report_.device_id, report_.uuid);
}

std::vector<std::uint8_t> ReplayDevice::merge_caches(std::span<const std::uint8_t> seed,
                                                     const std::vector<std::vector<std::uint8_t>>& parts,
                                                     std::vector<std::string>& skipped) const {
  vk::PipelineCache dst(handle_, create_cache(seed));
  for (const auto& part : parts) {
    if (part.empty()) continue;
    if (std::string why = cache_mismatch(part); !why.empty()) {
      skipped.push_back(std::move(why));
      continue;
    }
    vk::PipelineCache src(handle_, create_cache(part));
    const VkPipelineCache s = src.get();
    vk::check(vkMergePipelineCaches(handle_, dst.get(), 1, &s), "vkMergePipelineCaches");
  }
  return cache_data(dst.get());
}

}  // namespace libtrace::foz::detail
