// SPDX-License-Identifier: MIT
#include "layer/chain.hpp"

#include <vulkan/vk_layer.h>

#include <algorithm>
#include <cstring>

#include "registry/registry.hpp"

namespace libtrace::layer {

namespace {

std::size_t size_of(VkStructureType s) {
  switch (s) {
    case VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO: return sizeof(VkLayerInstanceCreateInfo);
    case VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO: return sizeof(VkLayerDeviceCreateInfo);
    default: {
      const registry::Struct* st = registry::find_struct(s);
      return st ? st->size : 0;
    }
  }
}

}  // namespace

ChainCopy::ChainCopy(const void* first, std::initializer_list<VkStructureType> drop) {
  void** tail = &head_;
  const auto* s = static_cast<const VkBaseInStructure*>(first);
  for (; s; s = s->pNext) {
    if (std::find(drop.begin(), drop.end(), s->sType) != drop.end()) continue;
    const std::size_t size = size_of(s->sType);
    if (!size) break;
    auto node = std::make_unique<std::max_align_t[]>((size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
    std::memcpy(node.get(), s, size);
    auto* copy = reinterpret_cast<VkBaseOutStructure*>(node.get());
    copy->pNext = nullptr;
    *tail = copy;
    tail = reinterpret_cast<void**>(&copy->pNext);
    nodes_.push_back(std::move(node));
  }
  rest_ = s;
  complete_ = s == nullptr;
  *tail = const_cast<void*>(static_cast<const void*>(s));
}

void ChainCopy::prepend(void* s) {
  static_cast<VkBaseOutStructure*>(s)->pNext = static_cast<VkBaseOutStructure*>(head_);
  head_ = s;
}

}  // namespace libtrace::layer
