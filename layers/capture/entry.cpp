// SPDX-License-Identifier: MIT
// VK_LAYER_TRAK_capture's library: the loader finds everything else through
// the negotiated entry points.
#include "libtrace/capture/layer.hpp"

extern "C" __attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* v) {
  return libtrace::capture::negotiate_layer(v);
}
