// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_gpa's library: the loader finds everything else through the
// negotiated entry points.
#include "libtrace/gpa/layer.hpp"

extern "C" __attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* v) {
  return libtrace::gpa::negotiate_layer(v);
}
