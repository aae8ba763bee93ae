// SPDX-License-Identifier: MIT
// Feature sets: which VkBool32 flags a caller wants, looked up by name in the
// core structs, queried from a device and intersected with what it has.
#include <algorithm>
#include <cstring>

#include "libtrace/vk/device.hpp"

namespace libtrace::vk {

namespace {

// Member names from the Vulkan 1.3.239 headers (vulkan_core.h).
// VkPhysicalDeviceFeatures (55), in member order (after sType/pNext for the 1.x structs).
constexpr const char* kCore[] = {
    "robustBufferAccess", "fullDrawIndexUint32", "imageCubeArray", "independentBlend", "geometryShader",
    "tessellationShader", "sampleRateShading", "dualSrcBlend", "logicOp", "multiDrawIndirect",
    "drawIndirectFirstInstance", "depthClamp", "depthBiasClamp", "fillModeNonSolid", "depthBounds",
    "wideLines", "largePoints", "alphaToOne", "multiViewport", "samplerAnisotropy", "textureCompressionETC2",
    "textureCompressionASTC_LDR", "textureCompressionBC", "occlusionQueryPrecise", "pipelineStatisticsQuery",
    "vertexPipelineStoresAndAtomics", "fragmentStoresAndAtomics", "shaderTessellationAndGeometryPointSize",
    "shaderImageGatherExtended", "shaderStorageImageExtendedFormats", "shaderStorageImageMultisample",
    "shaderStorageImageReadWithoutFormat", "shaderStorageImageWriteWithoutFormat",
    "shaderUniformBufferArrayDynamicIndexing", "shaderSampledImageArrayDynamicIndexing",
    "shaderStorageBufferArrayDynamicIndexing", "shaderStorageImageArrayDynamicIndexing", "shaderClipDistance",
    "shaderCullDistance", "shaderFloat64", "shaderInt64", "shaderInt16", "shaderResourceResidency",
    "shaderResourceMinLod", "sparseBinding", "sparseResidencyBuffer", "sparseResidencyImage2D",
    "sparseResidencyImage3D", "sparseResidency2Samples", "sparseResidency4Samples", "sparseResidency8Samples",
    "sparseResidency16Samples", "sparseResidencyAliased", "variableMultisampleRate", "inheritedQueries",
};
// VkPhysicalDeviceVulkan11Features (12), in member order (after sType/pNext for the 1.x structs).
constexpr const char* kVulkan11[] = {
    "storageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess", "storagePushConstant16",
    "storageInputOutput16", "multiview", "multiviewGeometryShader", "multiviewTessellationShader",
    "variablePointersStorageBuffer", "variablePointers", "protectedMemory", "samplerYcbcrConversion",
    "shaderDrawParameters",
};
// VkPhysicalDeviceVulkan12Features (47), in member order (after sType/pNext for the 1.x structs).
constexpr const char* kVulkan12[] = {
    "samplerMirrorClampToEdge", "drawIndirectCount", "storageBuffer8BitAccess",
    "uniformAndStorageBuffer8BitAccess", "storagePushConstant8", "shaderBufferInt64Atomics",
    "shaderSharedInt64Atomics", "shaderFloat16", "shaderInt8", "descriptorIndexing",
    "shaderInputAttachmentArrayDynamicIndexing", "shaderUniformTexelBufferArrayDynamicIndexing",
    "shaderStorageTexelBufferArrayDynamicIndexing", "shaderUniformBufferArrayNonUniformIndexing",
    "shaderSampledImageArrayNonUniformIndexing", "shaderStorageBufferArrayNonUniformIndexing",
    "shaderStorageImageArrayNonUniformIndexing", "shaderInputAttachmentArrayNonUniformIndexing",
    "shaderUniformTexelBufferArrayNonUniformIndexing", "shaderStorageTexelBufferArrayNonUniformIndexing",
    "descriptorBindingUniformBufferUpdateAfterBind", "descriptorBindingSampledImageUpdateAfterBind",
    "descriptorBindingStorageImageUpdateAfterBind", "descriptorBindingStorageBufferUpdateAfterBind",
    "descriptorBindingUniformTexelBufferUpdateAfterBind",
    "descriptorBindingStorageTexelBufferUpdateAfterBind", "descriptorBindingUpdateUnusedWhilePending",
    "descriptorBindingPartiallyBound", "descriptorBindingVariableDescriptorCount", "runtimeDescriptorArray",
    "samplerFilterMinmax", "scalarBlockLayout", "imagelessFramebuffer", "uniformBufferStandardLayout",
    "shaderSubgroupExtendedTypes", "separateDepthStencilLayouts", "hostQueryReset", "timelineSemaphore",
    "bufferDeviceAddress", "bufferDeviceAddressCaptureReplay", "bufferDeviceAddressMultiDevice",
    "vulkanMemoryModel", "vulkanMemoryModelDeviceScope", "vulkanMemoryModelAvailabilityVisibilityChains",
    "shaderOutputViewportIndex", "shaderOutputLayer", "subgroupBroadcastDynamicId",
};
// VkPhysicalDeviceVulkan13Features (15), in member order (after sType/pNext for the 1.x structs).
constexpr const char* kVulkan13[] = {
    "robustImageAccess", "inlineUniformBlock", "descriptorBindingInlineUniformBlockUpdateAfterBind",
    "pipelineCreationCacheControl", "privateData", "shaderDemoteToHelperInvocation",
    "shaderTerminateInvocation", "subgroupSizeControl", "computeFullSubgroups", "synchronization2",
    "textureCompressionASTC_HDR", "shaderZeroInitializeWorkgroupMemory", "dynamicRendering",
    "shaderIntegerDotProduct", "maintenance4",
};

struct Known {
  VkStructureType stype;
  const char* prefix;  // for names() of flags that also exist elsewhere
  const char* const* names;
  std::size_t count;
};
constexpr Known kKnown[] = {
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, "", kCore, std::size(kCore)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, "vulkan11.", kVulkan11, std::size(kVulkan11)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, "vulkan12.", kVulkan12, std::size(kVulkan12)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, "vulkan13.", kVulkan13, std::size(kVulkan13)},
};
static_assert(sizeof(VkPhysicalDeviceFeatures) == std::size(kCore) * sizeof(VkBool32));
// The tables match the headers: the struct ends within the tail padding.
constexpr bool fits(std::size_t size, std::size_t count) {
  return size >= 16 + count * sizeof(VkBool32) && size < 16 + (count + 2) * sizeof(VkBool32);
}
static_assert(fits(sizeof(VkPhysicalDeviceVulkan11Features), std::size(kVulkan11)));
static_assert(fits(sizeof(VkPhysicalDeviceVulkan12Features), std::size(kVulkan12)));
static_assert(fits(sizeof(VkPhysicalDeviceVulkan13Features), std::size(kVulkan13)));

// Where the VkBool32 members start in every feature struct.
constexpr std::size_t kHeader = sizeof(VkBaseOutStructure);

const Known* known(VkStructureType s) {
  for (const Known& k : kKnown)
    if (k.stype == s) return &k;
  return nullptr;
}

// The device API version a struct needs to be chained into a query.
std::uint32_t needs_version(VkStructureType s) {
  switch (s) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: return VK_API_VERSION_1_2;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: return VK_API_VERSION_1_3;
    default: return 0;
  }
}

}  // namespace

Features::Struct& Features::slot(VkStructureType stype, std::size_t count) {
  if (structs_.empty()) structs_.push_back({VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, std::vector<VkBool32>(std::size(kCore))});
  for (Struct& s : structs_)
    if (s.stype == stype) {
      if (s.bools.size() < count) s.bools.resize(count);
      return s;
    }
  structs_.push_back({stype, std::vector<VkBool32>(count)});
  return structs_.back();
}

void Features::enable(std::string_view name) {
  std::string_view plain = name;
  std::string_view prefix;
  if (const auto dot = name.find('.'); dot != std::string_view::npos) {
    prefix = name.substr(0, dot + 1);
    plain = name.substr(dot + 1);
  }
  for (const Known& k : kKnown) {
    if (!prefix.empty() && prefix != k.prefix) continue;
    for (std::size_t i = 0; i < k.count; ++i)
      if (plain == k.names[i]) {
        slot(k.stype, k.count).bools[i] = VK_TRUE;
        return;
      }
  }
  throw Error(Errc::usage, "vulkan", "unknown device feature '" + std::string(name) + "'");
}

void Features::enable_struct(const void* vk_struct, std::size_t size) {
  if (size < kHeader) throw Error(Errc::usage, "vulkan", "a feature struct is at least sType and pNext");
  VkBaseInStructure base;
  std::memcpy(&base, vk_struct, sizeof base);
  std::size_t count = (size - kHeader) / sizeof(VkBool32);
  // sizeof includes tail padding, which is not a member.
  if (const Known* k = known(base.sType)) count = std::min(count, k->count);
  Struct& s = slot(base.sType, count);
  for (std::size_t i = 0; i < count; ++i) {
    VkBool32 b;
    std::memcpy(&b, static_cast<const char*>(vk_struct) + kHeader + i * sizeof b, sizeof b);
    if (b) s.bools[i] = VK_TRUE;
  }
}

void Features::enable_core(const VkPhysicalDeviceFeatures& f) {
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.features = f;
  enable_struct(f2);
}

bool Features::empty() const {
  for (const Struct& s : structs_)
    if (std::any_of(s.bools.begin(), s.bools.end(), [](VkBool32 b) { return b != VK_FALSE; })) return false;
  return true;
}

std::vector<std::string> Features::names() const {
  std::vector<std::string> out;
  for (const Struct& s : structs_) {
    const Known* k = known(s.stype);
    for (std::size_t i = 0; i < s.bools.size(); ++i) {
      if (!s.bools[i]) continue;
      if (k && i < k->count)
        out.push_back(std::string(k->prefix) + k->names[i]);
      else
        out.push_back("sType " + std::to_string(static_cast<std::uint32_t>(s.stype)) + " member " + std::to_string(i));
    }
  }
  return out;
}

Features Features::intersect(const Features& supported, std::vector<std::string>& missing) const {
  Features out, lacking;
  for (const Struct& s : structs_) {
    const Struct* have = nullptr;
    for (const Struct& t : supported.structs_)
      if (t.stype == s.stype) have = &t;
    Struct& o = out.slot(s.stype, s.bools.size());
    Struct& l = lacking.slot(s.stype, s.bools.size());
    for (std::size_t i = 0; i < s.bools.size(); ++i) {
      if (!s.bools[i]) continue;
      if (have && i < have->bools.size() && have->bools[i])
        o.bools[i] = VK_TRUE;
      else
        l.bools[i] = VK_TRUE;
    }
  }
  const auto names = lacking.names();
  missing.insert(missing.end(), names.begin(), names.end());
  return out;
}

Features Features::supported(const PhysicalDeviceInfo& dev, std::uint32_t instance_api, const Features& like) {
  Features out;
  out.slot(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, std::size(kCore));
  const std::uint32_t api = std::min(instance_api, dev.properties.apiVersion);
  const bool has2 = api >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceFeatures2;
  if (!has2) {
    VkPhysicalDeviceFeatures f{};
    vkGetPhysicalDeviceFeatures(dev.handle, &f);
    std::memcpy(out.structs_[0].bools.data(), &f, sizeof f);
    return out;
  }
  // One zeroed buffer per struct, chained, then copied back.
  std::vector<std::vector<std::uint64_t>> storage;
  std::vector<const Struct*> chained;
  for (const Struct& s : like.structs_) {
    if (s.stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) continue;
    if (api < needs_version(s.stype)) continue;
    storage.emplace_back((kHeader + s.bools.size() * sizeof(VkBool32) + 7) / 8 + 1, 0);
    chained.push_back(&s);
  }
  VkPhysicalDeviceFeatures2 f2{};
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  void** next = &f2.pNext;
  for (std::size_t i = 0; i < storage.size(); ++i) {
    auto* base = reinterpret_cast<VkBaseOutStructure*>(storage[i].data());
    base->sType = chained[i]->stype;
    *next = base;
    next = reinterpret_cast<void**>(&base->pNext);
  }
  vkGetPhysicalDeviceFeatures2(dev.handle, &f2);
  std::memcpy(out.structs_[0].bools.data(), &f2.features, sizeof f2.features);
  for (std::size_t i = 0; i < storage.size(); ++i) {
    Struct& s = out.slot(chained[i]->stype, chained[i]->bools.size());
    std::memcpy(s.bools.data(), reinterpret_cast<const char*>(storage[i].data()) + kHeader,
                s.bools.size() * sizeof(VkBool32));
  }
  return out;
}

}  // namespace libtrace::vk
