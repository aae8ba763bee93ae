// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_capture: its library exports vkNegotiateLoaderLayerInterfaceVersion,
// which calls this; the loader finds every other entry point through it.
#pragma once

#include <vulkan/vk_layer.h>

namespace libtrace::capture {

VkResult negotiate_layer(VkNegotiateLayerInterface* v);

}  // namespace libtrace::capture
