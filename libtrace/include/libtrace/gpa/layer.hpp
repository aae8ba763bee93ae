// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_gpa: its library exports vkNegotiateLoaderLayerInterfaceVersion,
// which calls this; the loader finds every other entry point through it.
#pragma once

#include <vulkan/vk_layer.h>

namespace libtrace::gpa {

inline constexpr const char* kLayerName = "VK_LAYER_TRAK_gpa";

VkResult negotiate_layer(VkNegotiateLayerInterface* v);

}  // namespace libtrace::gpa
