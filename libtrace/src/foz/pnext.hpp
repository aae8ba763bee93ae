// SPDX-License-Identifier: MIT
// pNext structs as Fossilize records them: one profile per sType says which
// members Fossilize writes to JSON and hashes, in its order; a generic engine
// (pnext.cpp) reads, writes and hashes them from the registry's description
// of each struct (generated from vk.xml). Where a list of members cannot say
// it (state that depends on dynamic state or library flags, unions, structs
// newer than the installed headers), a profile names hand-written functions
// (custom_pnext.cpp).
#pragma once

#include <span>
#include <string>

#include "foz/json_in.hpp"
#include "foz/json_out.hpp"
#include "foz/model.hpp"

namespace libtrace::foz::detail {

struct HashContext {
  const DynamicStateInfo* dyn;  // null outside graphics pipeline state
  VkGraphicsPipelineLibraryFlagsEXT state;
  const std::string& where;
  // Whether `state` is dynamic (never outside graphics pipeline state).
  bool dynamic(bool DynamicStateInfo::*m) const { return dyn && dyn->*m; }
};

// The whole JSON object, "sType" included.
using CustomWrite = void (*)(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn);
using CustomRead = const VkBaseInStructure* (*)(const Node& n, VkStructureType s, Tag library_tag);
// Everything after the sType, which the chain hashes.
using CustomHash = void (*)(Hasher& h, const VkBaseInStructure* p, const HashContext& c);

// Member lists are space-separated registry member names, in Fossilize's
// order:
// - a scalar, a fixed array or a struct held by value: its value (a struct
//   with all its members, in registry order);
// - a pointer with a `len`: its elements. In JSON the key drops the "p"
//   ("pViewMasks" -> "viewMasks"); the array is written when its count is not
//   0, or, when the count is listed too, whenever the pointer is set (the
//   count then has a key of its own, which the array's length must match);
//   a trailing '!' writes it always.
// - a pointer without a `len`: the value pointed to, where there is one.
// In `hash`, "member@state" hashes 0 when that dynamic state is set.
struct PnextProfile {
  VkStructureType s_type;
  const char* json = nullptr;  // null: `write` and `read` do it
  const char* hash = nullptr;  // null: `hash_fn` does it
  CustomWrite write = nullptr;
  CustomRead read = nullptr;
  CustomHash hash_fn = nullptr;
};

// Every create-info pNext struct Fossilize records (custom_pnext.cpp).
std::span<const PnextProfile> pnext_profiles();
// A DynamicStateInfo member by its name ("depth_clip_enable"), for "@state".
bool DynamicStateInfo::*dynamic_state_member(std::string_view name);

// The generic engine, also for the custom functions' nested structs: the
// members of `type` (a registry struct name) listed in `members`.
void write_members(Out& o, const void* st, const char* type, const char* members);
void read_members(const Node& n, void* st, const char* type, const char* members);
void hash_members(Hasher& h, const void* st, const char* type, const char* members, const HashContext& c);

// Checks every profile against the registry; throws naming the first that
// does not resolve (unit-tested, so that a typo fails the build's tests).
void check_pnext_profiles();

}  // namespace libtrace::foz::detail
