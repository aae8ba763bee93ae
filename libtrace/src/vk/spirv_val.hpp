// SPDX-License-Identifier: MIT
// spirv-val on one shader module, for the replays' --validate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace libtrace::vk {

// Runs `tool` (spirv-val) on one module's bytes: "" when it accepts them,
// else its message (one line). Throws Error(usage) when `tool` cannot be run.
std::string run_validator(const std::string& tool, const std::uint8_t* words, std::size_t bytes);

}  // namespace libtrace::vk
