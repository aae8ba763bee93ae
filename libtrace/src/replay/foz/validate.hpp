// SPDX-License-Identifier: MIT
// --validate: every shader module of the archives through spirv-val (from
// SPIRV-Tools) before the replay; pipelines using a rejected module fail with
// the validator's message instead of reaching the driver.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "replay/foz/plan.hpp"

namespace libtrace::foz::detail {

// Module hash -> the validator's first message, for the modules it rejects
// (and for modules that cannot even be read). Runs up to `jobs` validators at
// once. Throws Error(usage) when `tool` cannot be run.
std::unordered_map<std::uint64_t, std::string> validate_modules(const Sources& sources, const std::string& tool,
                                                                unsigned jobs);

}  // namespace libtrace::foz::detail
