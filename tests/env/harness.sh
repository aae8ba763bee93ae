#!/bin/sh
# A test harness as users have them: it adds a layer folder of its own to
# VK_LAYER_PATH, keeping the one it was given (or the loader's default when
# none), then runs the command. The loader then ignores VK_ADD_LAYER_PATH.
harness_layers=${HARNESS_LAYERS:-/usr/share/vulkan/explicit_layer.d}
VK_LAYER_PATH=$harness_layers:${VK_LAYER_PATH:-/usr/share/vulkan/explicit_layer.d}
export VK_LAYER_PATH
exec "$@"
