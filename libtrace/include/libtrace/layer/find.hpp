// SPDX-License-Identifier: MIT
// Where a trak layer's manifest is, for the tools that enable one.
#pragma once

#include <string>

namespace libtrace::layer {

// The folder holding `manifest` (VkLayer_trak_capture.json) for a tool built
// or installed at `exe` (the tool's own path): the build tree's
// layers/<folder> beside tools/, or the installed
// share/vulkan/explicit_layer.d. "" when neither holds it.
std::string find_layer_dir(const std::string& exe, const std::string& folder, const std::string& manifest);

}  // namespace libtrace::layer
