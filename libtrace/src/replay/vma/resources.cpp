// SPDX-License-Identifier: MIT
// Recorded buffer and image create-infos made valid for the replay device:
// the recording comes from another GPU, another driver, maybe another
// Vulkan version, so flags, usages, formats and limits are checked here
// rather than handed to the driver as they are.
#include <algorithm>
#include <bit>

#include "libtrace/vma/stat.hpp"
#include "replay/vma/internal.hpp"

namespace libtrace::vma::detail {

namespace {

// Usage and create bits of Vulkan 1.0 that need no feature.
constexpr std::uint32_t kBufferCoreUsage = 0x1ff;
constexpr std::uint32_t kImageCoreUsage = 0xff;
// MUTABLE_FORMAT, CUBE_COMPATIBLE, 2D_ARRAY_COMPATIBLE, BLOCK_TEXEL_VIEW_COMPATIBLE, EXTENDED_USAGE, ALIAS.
constexpr std::uint32_t kImageKeptFlags = 0x8 | 0x10 | 0x20 | 0x80 | 0x100 | 0x400;

// VkFormat values the Vulkan 1.3 headers define, so a corrupt recording
// never hands a driver an enum it does not know.
bool known_format(std::uint64_t f) {
  return (f >= 1 && f <= 184) || (f >= 1000156000 && f <= 1000156033) || (f >= 1000054000 && f <= 1000054007) ||
         (f >= 1000066000 && f <= 1000066013) || (f >= 1000330000 && f <= 1000330003) ||
         (f >= 1000340000 && f <= 1000340001);
}

std::uint32_t clamp_u32(std::uint64_t v, std::uint32_t lo, std::uint32_t hi) {
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(v, lo, hi));
}

// The image usages a format's features allow.
std::uint32_t usages_allowed(VkFormatFeatureFlags f) {
  std::uint32_t u = 0;
  if (f & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT) u |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  if (f & VK_FORMAT_FEATURE_TRANSFER_DST_BIT) u |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (f & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) u |= VK_IMAGE_USAGE_SAMPLED_BIT;
  if (f & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) u |= VK_IMAGE_USAGE_STORAGE_BIT;
  if (f & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)
    u |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
         VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
  if (f & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
    u |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
         VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
  return u;
}

}  // namespace

BufferSpec buffer_spec(const std::vector<std::uint64_t>& n, bool device_address) {
  BufferSpec s;
  VkBufferCreateInfo& ci = s.info;
  ci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  // Sparse, protected and capture-replay buffers need features a replay
  // does not ask for; VMA binds ordinary memory to every buffer anyway.
  ci.flags = 0;
  ci.size = n[1];
  std::uint32_t usage = static_cast<std::uint32_t>(n[2]);
  std::uint32_t keep = kBufferCoreUsage;
  if (device_address) keep |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  ci.usage = usage & keep;
  if (ci.usage == 0) ci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  // The recording has no queue family indices: VmaReplay too forces EXCLUSIVE.
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  s.adjusted = n[0] != 0 || ci.usage != usage || n[3] != VK_SHARING_MODE_EXCLUSIVE;
  s.valid = ci.size != 0;
  return s;
}

ImageSpec image_spec(const std::vector<std::uint64_t>& n, const vk::PhysicalDeviceInfo& dev) {
  ImageSpec s;
  s.estimated_bytes = estimate_image_bytes(static_cast<std::uint32_t>(n[2]), clamp_u32(n[3], 1, UINT32_MAX),
                                           clamp_u32(n[4], 1, UINT32_MAX), clamp_u32(n[5], 1, UINT32_MAX),
                                           clamp_u32(n[6], 1, 32), clamp_u32(n[7], 1, 65536), clamp_u32(n[8], 1, 64));
  VkImageCreateInfo& ci = s.info;
  ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  if (n[1] > VK_IMAGE_TYPE_3D || !known_format(n[2])) {
    s.supported = false;
    return s;
  }
  ci.imageType = static_cast<VkImageType>(n[1]);
  ci.format = static_cast<VkFormat>(n[2]);
  ci.flags = static_cast<std::uint32_t>(n[0]) & kImageKeptFlags;
  ci.extent = {clamp_u32(n[3], 1, UINT32_MAX), clamp_u32(n[4], 1, UINT32_MAX), clamp_u32(n[5], 1, UINT32_MAX)};
  if (ci.imageType == VK_IMAGE_TYPE_1D) ci.extent.height = 1;
  if (ci.imageType != VK_IMAGE_TYPE_3D) ci.extent.depth = 1;
  ci.mipLevels = clamp_u32(n[6], 1, 32);
  ci.arrayLayers = clamp_u32(n[7], 1, UINT32_MAX);
  if (ci.imageType == VK_IMAGE_TYPE_3D) ci.arrayLayers = 1;
  ci.samples = static_cast<VkSampleCountFlagBits>(n[8] && n[8] <= 64 && std::has_single_bit(n[8]) ? n[8] : 1);
  ci.tiling = n[9] == VK_IMAGE_TILING_LINEAR ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL;
  ci.usage = static_cast<std::uint32_t>(n[10]) & kImageCoreUsage;
  if (ci.usage == 0) ci.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout =
      n[12] == VK_IMAGE_LAYOUT_PREINITIALIZED ? VK_IMAGE_LAYOUT_PREINITIALIZED : VK_IMAGE_LAYOUT_UNDEFINED;

  // Valid usage the recorder's driver may not have checked.
  if ((ci.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
      (ci.imageType != VK_IMAGE_TYPE_2D || ci.extent.width != ci.extent.height || ci.arrayLayers < 6))
    ci.flags &= ~VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  if ((ci.flags & VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT) && ci.imageType != VK_IMAGE_TYPE_3D)
    ci.flags &= ~VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
  if ((ci.flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) && !(ci.flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
    ci.flags &= ~VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT;
  if (ci.samples != VK_SAMPLE_COUNT_1_BIT &&
      (ci.imageType != VK_IMAGE_TYPE_2D || ci.tiling != VK_IMAGE_TILING_OPTIMAL || ci.mipLevels != 1 ||
       (ci.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT)))
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
  const std::uint32_t largest = std::max({ci.extent.width, ci.extent.height, ci.extent.depth});
  ci.mipLevels = std::min<std::uint32_t>(ci.mipLevels, static_cast<std::uint32_t>(std::bit_width(largest)));

  // What the device supports: reduce the usage to what the format's
  // features allow, then try optimal tiling, before giving up.
  VkImageFormatProperties p{};
  auto query = [&] {
    return vkGetPhysicalDeviceImageFormatProperties(dev.handle, ci.format, ci.imageType, ci.tiling, ci.usage, ci.flags,
                                                    &p) == VK_SUCCESS;
  };
  bool ok = query();
  for (int attempt = 0; !ok && attempt < 2; ++attempt) {
    VkFormatProperties fp{};
    vkGetPhysicalDeviceFormatProperties(dev.handle, ci.format, &fp);
    const VkFormatFeatureFlags features =
        ci.tiling == VK_IMAGE_TILING_OPTIMAL ? fp.optimalTilingFeatures : fp.linearTilingFeatures;
    const std::uint32_t allowed = usages_allowed(features);
    std::uint32_t usage = ci.usage & allowed;
    // Nothing left (a colour format as a depth attachment): the most
    // ordinary usage the format has keeps a real image of that format.
    for (std::uint32_t u : {VK_IMAGE_USAGE_SAMPLED_BIT, VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT})
      if (!usage && (allowed & u)) usage = u;
    if (usage) {
      ci.usage = usage;
      ok = query();
    }
    if (!ok && ci.tiling == VK_IMAGE_TILING_LINEAR) {
      ci.tiling = VK_IMAGE_TILING_OPTIMAL;
      ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      ok = query();
    } else if (!ok) {
      break;
    }
  }
  if (!ok) {
    s.supported = false;
    return s;
  }
  ci.extent.width = std::min(ci.extent.width, p.maxExtent.width);
  ci.extent.height = std::min(ci.extent.height, p.maxExtent.height);
  ci.extent.depth = std::min(ci.extent.depth, p.maxExtent.depth);
  ci.mipLevels = std::min(ci.mipLevels, p.maxMipLevels);
  ci.arrayLayers = std::min(ci.arrayLayers, p.maxArrayLayers);
  if (!(p.sampleCounts & ci.samples)) ci.samples = VK_SAMPLE_COUNT_1_BIT;
  s.adjusted = ci.flags != n[0] || ci.extent.width != n[3] || ci.extent.height != n[4] || ci.extent.depth != n[5] ||
               ci.mipLevels != n[6] || ci.arrayLayers != n[7] || ci.samples != n[8] || ci.tiling != n[9] ||
               ci.usage != n[10] || n[11] != VK_SHARING_MODE_EXCLUSIVE || ci.initialLayout != n[12];
  return s;
}

}  // namespace libtrace::vma::detail
