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
#include <type_traits>

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

// Base create-infos, their state blocks and the structs in their arrays, as
// Fossilize records them: JSON objects without "sType". A profile names the
// members in Fossilize's JSON order and in its hash order, with the tokens
// above plus:
// - "pNext": the chain, written, read and hashed where it stands;
// - a handle: its object's hash (the tag from its type; a VkPipeline's from
//   the struct it is in);
// - "member?": in JSON, an array written whenever its pointer is set; in
//   hashing, a null pointer hashes nothing (an array) or 0 (a single value);
// - "member*": in JSON, an array written always but read only if present;
// - "member=key": the member under a JSON key of its own;
// - "+key": what the caller writes, reads or hashes itself (a KeyHook), or,
//   in an array's element, the profile's `hook` hashes.
struct ObjectProfile {
  const char* type;
  const char* json;
  const char* hash;
  void (*hook)(Hasher& h, const void* st, const char* key, const HashContext& c) = nullptr;
};
// Every struct of an object that Fossilize records in an order of its own
// (foz/objects.cpp); the engine uses it for an element wherever it meets one.
std::span<const ObjectProfile> object_profiles();

// What the caller does at a "+key" token: a reference to any callable taking
// the key, valid for the call it is passed to.
class KeyHook {
 public:
  KeyHook() = default;
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, KeyHook>>>
  KeyHook(F&& f)  // NOLINT: implicit, like std::function_ref
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, const char* key) { (*static_cast<std::remove_reference_t<F>*>(o))(key); }) {}
  void operator()(const char* key) const {
    if (!call_) unhandled(key);
    call_(obj_, key);
  }

 private:
  [[noreturn]] static void unhandled(const char* key);
  void* obj_ = nullptr;
  void (*call_)(void*, const char*) = nullptr;
};

// An object of `type` (which object_profiles() describes): `write_object`
// writes the JSON object (under `key` when not null), `read_object` fills
// `st` (its sType too), `hash_object` hashes it. `dyn` is the graphics
// pipeline's dynamic state for its state blocks, `library_tag` the tag of
// pipelines a VkPipelineLibraryCreateInfoKHR in a chain refers to.
void write_object(Out& o, const char* key, const void* st, const char* type, const DynamicStateInfo* dyn = nullptr,
                  KeyHook hook = {});
void read_object(const Node& n, void* st, const char* type, Tag library_tag = Tag::graphics_pipeline,
                 KeyHook hook = {});
template <typename T>
T* read_object(const Node& n, const char* type, Tag library_tag = Tag::graphics_pipeline, KeyHook hook = {}) {
  T* t = n.ctx().arena.make<T>();
  read_object(n, t, type, library_tag, hook);
  return t;
}
void hash_object(Hasher& h, const void* st, const char* type, const HashContext& c, KeyHook hook = {});

// Checks every profile against the registry; throws naming the first that
// does not resolve (unit-tested, so that a typo fails the build's tests).
void check_pnext_profiles();

}  // namespace libtrace::foz::detail
