// SPDX-License-Identifier: MIT
// What a pipeline needs from the device: shader stages, pNext structs,
// dynamic states, flags and SPIR-V capabilities mapped to features and
// extensions. A pipeline needing what the device lacks is skipped (counted as
// unsupported, with the missing names) instead of being handed to a driver
// that would reject it or, worse, crash on it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libtrace/foz/object.hpp"
#include "replay/foz/features.hpp"

namespace libtrace::foz::detail {

// Each need is "a|b|...": any one alternative satisfies it. An alternative is
// "core1.N" (that API version), an extension name ("VK_EXT_mesh_shader") or a
// feature name as Capabilities spells it. All strings are literals.
struct Needs {
  std::vector<std::string_view> items;
  void add(std::string_view need) { items.push_back(need); }
};

// The capabilities a SPIR-V module declares (OpCapability); stops at the end
// of the module preamble. Malformed words just end the scan.
void spirv_needs(std::span<const std::uint32_t> words, Needs& out);
// One pipeline's own needs (not those of its shader modules).
void pipeline_needs(const Object& pipeline, Needs& out);
// The needs of a pNext chain of any create info.
void chain_needs(const void* pnext, Needs& out);

// "" when `caps` satisfies every need; otherwise "the device lacks X, Y".
std::string lacking(const Needs& needs, const Capabilities& caps);

}  // namespace libtrace::foz::detail
