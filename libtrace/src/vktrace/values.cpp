// SPDX-License-Identifier: MIT
#include "vktrace/values.hpp"

namespace libtrace::vktrace {

using registry::Type;

std::size_t scalar_size(const registry::Member& m) {
  switch (m.type) {
    case Type::u8: return 1;
    case Type::u16: return 2;
    case Type::u32:
    case Type::s32:
    case Type::f32:
    case Type::bool32:
    case Type::enum_: return 4;
    case Type::bitmask: return m.enum_info() && m.enum_info()->is_64bit ? 8 : 4;
    case Type::struct_:
    case Type::union_: return m.nested() ? m.nested()->size : 0;
    // No member of the registry is an array of such a type, so an inline one
    // is one element of its declared size.
    case Type::other: return m.pointer_depth ? 0 : m.size;
    default: return 8;  // 64-bit integers, size_t, handles, pointers
  }
}

std::size_t element_size(const registry::Member& m) { return m.pointer_depth >= 2 ? sizeof(void*) : scalar_size(m); }

TemplateEntry template_entry(const VkDescriptorUpdateTemplateEntry& e) {
  return {e.descriptorType, e.descriptorCount, e.offset, e.stride, e.dstBinding, e.dstArrayElement};
}

TemplateElement template_element(VkDescriptorType type) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: return TemplateElement::inline_bytes;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: return TemplateElement::buffer_info;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR: return TemplateElement::handle;
    default: return TemplateElement::image_info;
  }
}

std::size_t template_element_size(TemplateElement e) {
  switch (e) {
    case TemplateElement::inline_bytes: return 1;
    case TemplateElement::buffer_info: return sizeof(VkDescriptorBufferInfo);
    case TemplateElement::handle: return sizeof(std::uint64_t);
    default: return sizeof(VkDescriptorImageInfo);
  }
}

std::uint64_t image_part_bytes(const registry::FormatInfo& f, VkImageAspectFlags aspect, VkExtent3D extent) {
  std::uint64_t block = 0;
  if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && f.depth_bits)
    block = f.depth_bits == 16 ? 2 : 4;
  else if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT && f.stencil_bits)
    block = 1;
  else if (aspect == VK_IMAGE_ASPECT_COLOR_BIT && !f.depth_bits && !f.stencil_bits)
    block = f.block_size;
  const std::uint64_t blocks = std::uint64_t{(extent.width + f.block_width - 1) / f.block_width} *
                               ((extent.height + f.block_height - 1) / f.block_height) *
                               ((extent.depth + f.block_depth - 1) / f.block_depth);
  return blocks * block;
}

}  // namespace libtrace::vktrace
