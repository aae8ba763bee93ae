// SPDX-License-Identifier: MIT
// How Vulkan values lie in memory where the registry's tables leave it to
// the dialect: the element sizes arrays stride by, and what descriptor update
// template data holds. The capture reads the application's memory with them
// and the replay rebuilds it with them: were they two, a replay would read
// at other offsets than the capture wrote.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "registry/registry.hpp"

namespace libtrace::vktrace {

// The size of one element of a member's type, not counting pointers: what a
// fixed or pointed-to array of it strides by, and how much of it an integer
// read takes. 0 where it has none the dialect can use: a struct the
// registry does not lay out, or a type of another header (StdVideo*) behind
// a pointer (recorded as its address). Such a type held inline is recorded
// as a blob of its declared size.
std::size_t scalar_size(const registry::Member& m);

// The bytes of one subresource of `aspect` (one VkImageAspectFlagBits) at
// `extent`, packed as vkCmdCopyImageToBuffer packs it (trakImagePart's data):
// texel blocks of the format, tight; depth in 2 or 4 bytes, stencil in 1.
// 0 for an aspect the format does not have.
std::uint64_t image_part_bytes(const registry::FormatInfo& f, VkImageAspectFlags aspect, VkExtent3D extent);
// The buffer such a part (or a frame's pixels) is copied into for the host to
// read: the capture reads back through one as the replay does.
inline VkBufferCreateInfo readback_buffer_info(VkDeviceSize size) {
  return {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
          nullptr,
          0,
          size,
          VK_BUFFER_USAGE_TRANSFER_DST_BIT,
          VK_SHARING_MODE_EXCLUSIVE,
          0,
          nullptr};
}
// What an array of the member strides by: a pointer for arrays of pointers.
std::size_t element_size(const registry::Member& m);

// Descriptor update template data (pData of vkUpdateDescriptorSetWithTemplate
// and vkCmdPushDescriptorSetWithTemplateKHR) is recorded entry by entry, as
// the template describes it: one value per entry. The application's block
// around them (zink's spans kilobytes) is not.
struct TemplateEntry {
  VkDescriptorType type;
  std::uint32_t count;  // descriptors; bytes for an inline uniform block
  std::size_t offset, stride;
  std::uint32_t binding = 0, element = 0;  // where the writes start (a trimmed capture's keeper needs it)
};
TemplateEntry template_entry(const VkDescriptorUpdateTemplateEntry& e);

// How one entry's descriptors are recorded: an array of count
// VkDescriptorImageInfo, VkDescriptorBufferInfo or handles, or a blob of
// count bytes.
enum class TemplateElement : std::uint8_t { image_info, buffer_info, handle, inline_bytes };
TemplateElement template_element(VkDescriptorType type);
// The bytes one descriptor of that element takes in the application's block.
std::size_t template_element_size(TemplateElement e);

}  // namespace libtrace::vktrace
