// SPDX-License-Identifier: MIT
// The loader, instance, physical-device listing and logical device.
#include "libtrace/vk/device.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <mutex>

#include "registry/registry.hpp"

namespace libtrace::vk {

namespace {

const char* const kWhere = "vulkan";

std::atomic<int> g_devices{0};

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

template <typename T, typename F>
std::vector<T> enumerate(F&& f) {
  std::uint32_t n = 0;
  f(&n, nullptr);
  std::vector<T> v(n);
  f(&n, v.data());
  v.resize(n);
  return v;
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

PhysicalDeviceInfo describe(VkPhysicalDevice pd, std::uint32_t index, std::uint32_t instance_api) {
  PhysicalDeviceInfo d;
  d.index = index;
  d.handle = pd;
  vkGetPhysicalDeviceProperties(pd, &d.properties);
  vkGetPhysicalDeviceMemoryProperties(pd, &d.memory);
  d.extensions = enumerate<VkExtensionProperties>([&](std::uint32_t* n, VkExtensionProperties* p) {
    return vkEnumerateDeviceExtensionProperties(pd, nullptr, n, p);
  });
  d.queue_families = enumerate<VkQueueFamilyProperties>(
      [&](std::uint32_t* n, VkQueueFamilyProperties* p) { vkGetPhysicalDeviceQueueFamilyProperties(pd, n, p); });
  const std::uint32_t api = std::min(instance_api, d.properties.apiVersion);
  if (vkGetPhysicalDeviceProperties2 && api >= VK_API_VERSION_1_1) {
    // One query: maintenance3 is core in 1.1; driver properties need 1.2
    // or their extension.
    VkPhysicalDeviceMaintenance3Properties m3{};
    m3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
    VkPhysicalDeviceDriverProperties drv{};
    drv.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    const bool driver = api >= VK_API_VERSION_1_2 || d.has_extension(VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
    if (driver) m3.pNext = &drv;
    VkPhysicalDeviceProperties2 p2{};
    p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    p2.pNext = &m3;
    vkGetPhysicalDeviceProperties2(pd, &p2);
    d.max_memory_allocation_size = m3.maxMemoryAllocationSize;
    if (driver) {
      d.driver_id = drv.driverID;
      d.driver_name = drv.driverName;
      d.driver_info = drv.driverInfo;
    }
  }
  return d;
}

}  // namespace

std::string no_device_message() {
  return "no Vulkan device: the loader found no driver (install mesa-vulkan-drivers for lavapipe, "
         "or check VK_DRIVER_FILES / VK_ICD_FILENAMES)";
}

// ---- Loader and names ---------------------------------------------------------

void load_loader() {
  static std::once_flag once;
  static VkResult result = VK_ERROR_INITIALIZATION_FAILED;
  std::call_once(once, [] { result = volkInitialize(); });
  if (result != VK_SUCCESS)
    throw Error(Errc::unsupported, kWhere,
                "no Vulkan loader (libvulkan.so.1 could not be opened): install libvulkan1 and a driver, "
                "e.g. mesa-vulkan-drivers");
}

std::uint32_t loader_version() {
  load_loader();
  return volkGetInstanceVersion();
}

void check(VkResult r, std::string_view what) {
  if (r >= 0) return;
  throw Error(Errc::unsupported, kWhere, std::string(what) + " failed: " + std::string(result_name(r)));
}

std::string_view result_name(VkResult r) {
  switch (r) {
// Each NAME(x); is one case returning its own spelling.
#define NAME(x) \
  case x: return #x
    NAME(VK_SUCCESS);
    NAME(VK_NOT_READY);
    NAME(VK_TIMEOUT);
    NAME(VK_INCOMPLETE);
    NAME(VK_ERROR_OUT_OF_HOST_MEMORY);
    NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    NAME(VK_ERROR_INITIALIZATION_FAILED);
    NAME(VK_ERROR_DEVICE_LOST);
    NAME(VK_ERROR_MEMORY_MAP_FAILED);
    NAME(VK_ERROR_LAYER_NOT_PRESENT);
    NAME(VK_ERROR_EXTENSION_NOT_PRESENT);
    NAME(VK_ERROR_FEATURE_NOT_PRESENT);
    NAME(VK_ERROR_INCOMPATIBLE_DRIVER);
    NAME(VK_ERROR_TOO_MANY_OBJECTS);
    NAME(VK_ERROR_FORMAT_NOT_SUPPORTED);
    NAME(VK_ERROR_FRAGMENTED_POOL);
    NAME(VK_ERROR_UNKNOWN);
    NAME(VK_ERROR_OUT_OF_POOL_MEMORY);
    NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE);
    NAME(VK_ERROR_FRAGMENTATION);
    NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
    NAME(VK_PIPELINE_COMPILE_REQUIRED);
    NAME(VK_ERROR_VALIDATION_FAILED_EXT);
#undef NAME
    default: return "VkResult(unknown)";
  }
}

std::string version_string(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::string_view device_type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

std::string memory_property_names(VkMemoryPropertyFlags f) {
  return registry::flag_names(*registry::find_enum("VkMemoryPropertyFlagBits"), f, "VK_MEMORY_PROPERTY_");
}

std::string memory_heap_names(VkMemoryHeapFlags f) {
  return registry::flag_names(*registry::find_enum("VkMemoryHeapFlagBits"), f, "VK_MEMORY_HEAP_");
}

bool PhysicalDeviceInfo::has_extension(std::string_view name) const {
  for (const auto& e : extensions)
    if (name == e.extensionName) return true;
  return false;
}

// ---- Instance -------------------------------------------------------------------

Instance::Instance(const InstanceOptions& opt) {
  load_loader();
  api_version_ = std::min(opt.api_version, volkGetInstanceVersion());
  if (api_version_ < VK_API_VERSION_1_0) api_version_ = VK_API_VERSION_1_0;

  const auto available = enumerate<VkExtensionProperties>(
      [](std::uint32_t* n, VkExtensionProperties* p) { return vkEnumerateInstanceExtensionProperties(nullptr, n, p); });
  auto have = [&](std::string_view name) {
    return std::any_of(available.begin(), available.end(), [&](const auto& e) { return name == e.extensionName; });
  };
  std::vector<std::string> wanted = opt.extensions;
  // Portability drivers (MoltenVK) are listed only when asked for; 1.0
  // loaders need the properties2 extension for the feature queries.
  wanted.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
  if (api_version_ < VK_API_VERSION_1_1) wanted.push_back(VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
  for (const std::string& e : wanted) {
    if (contains(extensions_, e)) continue;
    if (have(e))
      extensions_.push_back(e);
    else if (contains(opt.extensions, e))
      missing_extensions_.push_back(e);
  }
  const auto layers = enumerate<VkLayerProperties>(
      [](std::uint32_t* n, VkLayerProperties* p) { return vkEnumerateInstanceLayerProperties(n, p); });
  std::vector<std::string> enabled_layers;
  for (const std::string& l : opt.layers) {
    if (std::any_of(layers.begin(), layers.end(), [&](const auto& p) { return l == p.layerName; }))
      enabled_layers.push_back(l);
    else
      missing_layers_.push_back(l);
  }

  std::vector<const char*> ext_ptrs, layer_ptrs;
  for (const auto& e : extensions_) ext_ptrs.push_back(e.c_str());
  for (const auto& l : enabled_layers) layer_ptrs.push_back(l.c_str());
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = opt.application_name.c_str();
  app.pEngineName = "trak";
  app.apiVersion = api_version_;
  VkInstanceCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ci.pApplicationInfo = &app;
  if (contains(extensions_, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME))
    ci.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  ci.enabledExtensionCount = static_cast<std::uint32_t>(ext_ptrs.size());
  ci.ppEnabledExtensionNames = ext_ptrs.data();
  ci.enabledLayerCount = static_cast<std::uint32_t>(layer_ptrs.size());
  ci.ppEnabledLayerNames = layer_ptrs.data();
  const VkResult r = vkCreateInstance(&ci, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) throw Error(Errc::unsupported, kWhere, no_device_message());
  check(r, "vkCreateInstance");
  volkLoadInstanceOnly(instance_);
  if (!vkGetPhysicalDeviceFeatures2 && vkGetPhysicalDeviceFeatures2KHR) {
    vkGetPhysicalDeviceFeatures2 = vkGetPhysicalDeviceFeatures2KHR;
    vkGetPhysicalDeviceProperties2 = vkGetPhysicalDeviceProperties2KHR;
    vkGetPhysicalDeviceMemoryProperties2 = vkGetPhysicalDeviceMemoryProperties2KHR;
  }
  if (api_version_ < VK_API_VERSION_1_1 && vkGetPhysicalDeviceFeatures2) api_version_ = VK_API_VERSION_1_1;

  // Checked, not only counted: a driver that is there but fails to start
  // (NVIDIA's, now and then, while other processes' devices go away) is not
  // "no driver".
  std::vector<VkPhysicalDevice> pds;
  try {
    std::uint32_t n = 0;
    check(vkEnumeratePhysicalDevices(instance_, &n, nullptr), "vkEnumeratePhysicalDevices");
    pds.resize(n);
    check(vkEnumeratePhysicalDevices(instance_, &n, pds.data()), "vkEnumeratePhysicalDevices");
    pds.resize(n);
  } catch (...) {
    vkDestroyInstance(instance_, nullptr);
    throw;
  }
  for (std::uint32_t i = 0; i < pds.size(); ++i) devices_.push_back(describe(pds[i], i, api_version_));
}

Instance::~Instance() {
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

const PhysicalDeviceInfo& Instance::select(std::string_view spec) const {
  if (devices_.empty()) throw Error(Errc::unsupported, kWhere, no_device_message());
  std::string list;
  for (const auto& d : devices_) list += (list.empty() ? "" : ", ") + std::to_string(d.index) + ": " + d.name();
  if (spec.empty()) return devices_.front();
  if (std::all_of(spec.begin(), spec.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const unsigned long i = spec.size() < 10 ? std::stoul(std::string(spec)) : ~0ul;
    if (i < devices_.size()) return devices_[i];
    throw Error(Errc::usage, kWhere, "no device " + std::string(spec) + " (the devices: " + list + ")");
  }
  const std::string want = lower(spec);
  for (const auto& d : devices_)
    if (lower(d.name()).find(want) != std::string::npos) return d;
  throw Error(Errc::usage, kWhere, "no device named like '" + std::string(spec) + "' (the devices: " + list + ")");
}

// ---- Device -----------------------------------------------------------------------

Device::Device(const Instance& instance, const PhysicalDeviceInfo& physical, const DeviceOptions& opt)
    : info_(&physical), instance_(instance.handle()) {
  if (g_devices.fetch_add(1) != 0) {
    g_devices.fetch_sub(1);
    throw Error(Errc::usage, kWhere, "one Device at a time: volk's device entry points are process-wide");
  }
  try {
    api_version_ = std::min(instance.api_version(), physical.properties.apiVersion);
    for (const std::string& e : opt.required_extensions)
      if (!physical.has_extension(e))
        throw Error(Errc::unsupported, kWhere, physical.name() + " lacks the required extension " + e);
    for (const std::string& e : opt.required_extensions)
      if (!contains(extensions_, e)) extensions_.push_back(e);
    for (const std::string& e : opt.extensions) {
      if (contains(extensions_, e)) continue;
      (physical.has_extension(e) ? extensions_ : missing_extensions_).push_back(e);
    }

    const Features supported = Features::supported(physical, instance.api_version(), opt.features);
    features_ = opt.features.intersect(supported, missing_features_);
    if (opt.require_features && !missing_features_.empty())
      throw Error(Errc::unsupported, kWhere, physical.name() + " lacks the feature " + missing_features_.front());

    const auto& fams = physical.queue_families;
    queue_family_ = 0;
    bool found = false;
    for (std::uint32_t i = 0; i < fams.size() && !found; ++i)
      if ((fams[i].queueFlags & opt.queue_flags) == opt.queue_flags) queue_family_ = i, found = true;
    for (std::uint32_t i = 0; i < fams.size() && !found; ++i)
      if (fams[i].queueFlags & opt.queue_flags) queue_family_ = i, found = true;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{};
    qci.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qci.queueFamilyIndex = queue_family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;

    std::vector<const char*> ext_ptrs;
    for (const auto& e : extensions_) ext_ptrs.push_back(e.c_str());
    VkDeviceCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &qci;
    ci.enabledExtensionCount = static_cast<std::uint32_t>(ext_ptrs.size());
    ci.ppEnabledExtensionNames = ext_ptrs.data();

    // The enabled features as a VkPhysicalDeviceFeatures2 chain.
    VkPhysicalDeviceFeatures2 f2{};
    f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    std::vector<std::vector<std::uint64_t>> storage;
    void** next = &f2.pNext;
    for (const Features::Struct& s : features_.structs()) {
      if (s.stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
        std::memcpy(&f2.features, s.bools.data(), std::min(sizeof f2.features, s.bools.size() * sizeof(VkBool32)));
        continue;
      }
      if (std::none_of(s.bools.begin(), s.bools.end(), [](VkBool32 b) { return b; })) continue;
      auto& buf = storage.emplace_back((sizeof(VkBaseOutStructure) + s.bools.size() * sizeof(VkBool32) + 7) / 8 + 1, 0);
      auto* base = reinterpret_cast<VkBaseOutStructure*>(buf.data());
      base->sType = s.stype;
      std::memcpy(reinterpret_cast<char*>(buf.data()) + sizeof(VkBaseOutStructure), s.bools.data(),
                  s.bools.size() * sizeof(VkBool32));
      *next = base;
      next = reinterpret_cast<void**>(&base->pNext);
    }
    if (vkGetPhysicalDeviceFeatures2)
      ci.pNext = &f2;
    else
      ci.pEnabledFeatures = &f2.features;
    check(vkCreateDevice(physical.handle, &ci, nullptr, &device_), "vkCreateDevice");
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

    requirements2_ =
        api_version_ >= VK_API_VERSION_1_1 ||
        (extension_enabled(VK_KHR_GET_MEMORY_REQUIREMENTS_2_EXTENSION_NAME) && vkGetBufferMemoryRequirements2KHR);
    if (api_version_ < VK_API_VERSION_1_1 && requirements2_) {
      vkGetBufferMemoryRequirements2 = vkGetBufferMemoryRequirements2KHR;
      vkGetImageMemoryRequirements2 = vkGetImageMemoryRequirements2KHR;
    }
    dedicated_ = requirements2_ &&
                 (api_version_ >= VK_API_VERSION_1_1 || extension_enabled(VK_KHR_DEDICATED_ALLOCATION_EXTENSION_NAME));
  } catch (...) {
    if (device_) vkDestroyDevice(device_, nullptr);
    g_devices.fetch_sub(1);
    throw;
  }
}

Device::~Device() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
  g_devices.fetch_sub(1);
}

bool Device::extension_enabled(std::string_view name) const { return contains(extensions_, name); }

namespace {
template <typename Query>
Device::Requirements requirements_of(bool two, bool dedicated, Query&& query) {
  Device::Requirements r;
  VkMemoryDedicatedRequirements ded{};
  ded.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS;
  VkMemoryRequirements2 m2{};
  m2.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2;
  if (dedicated) m2.pNext = &ded;
  query(two, m2);
  r.memory = m2.memoryRequirements;
  r.prefers_dedicated = ded.prefersDedicatedAllocation;
  r.requires_dedicated = ded.requiresDedicatedAllocation;
  return r;
}
}  // namespace

Device::Requirements Device::requirements(VkBuffer buffer) const {
  return requirements_of(requirements2_, dedicated_, [&](bool two, VkMemoryRequirements2& m2) {
    if (!two) return vkGetBufferMemoryRequirements(device_, buffer, &m2.memoryRequirements);
    VkBufferMemoryRequirementsInfo2 info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2;
    info.buffer = buffer;
    vkGetBufferMemoryRequirements2(device_, &info, &m2);
  });
}

Device::Requirements Device::requirements(VkImage image) const {
  return requirements_of(requirements2_, dedicated_, [&](bool two, VkMemoryRequirements2& m2) {
    if (!two) return vkGetImageMemoryRequirements(device_, image, &m2.memoryRequirements);
    VkImageMemoryRequirementsInfo2 info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2;
    info.image = image;
    vkGetImageMemoryRequirements2(device_, &info, &m2);
  });
}

std::vector<VkDeviceSize> Device::heap_budgets() const {
  const auto& mem = info_->memory;
  std::vector<VkDeviceSize> out(mem.memoryHeapCount);
  for (std::uint32_t h = 0; h < mem.memoryHeapCount; ++h) out[h] = mem.memoryHeaps[h].size;
  if (extension_enabled(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME) && vkGetPhysicalDeviceMemoryProperties2) {
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{};
    budget.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
    VkPhysicalDeviceMemoryProperties2 p2{};
    p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2;
    p2.pNext = &budget;
    vkGetPhysicalDeviceMemoryProperties2(info_->handle, &p2);
    for (std::uint32_t h = 0; h < mem.memoryHeapCount; ++h)
      if (budget.heapBudget[h]) out[h] = std::min(out[h], budget.heapBudget[h]);
  }
  return out;
}

}  // namespace libtrace::vk
