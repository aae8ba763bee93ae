// SPDX-License-Identifier: MIT
// Helpers shared by the hand-written parts of pNext handling, and the code
// for the structs newer than the installed headers (custom_pnext_compat.cpp).
#pragma once

#include "foz/pnext.hpp"

namespace libtrace::foz::detail::custom {

template <typename T>
const T& as(const VkBaseInStructure* p) {
  return *reinterpret_cast<const T*>(p);
}

template <typename T>
T* make(const Node& n, VkStructureType s) {
  T* t = n.ctx().arena.make<T>();
  t->sType = s;
  return t;
}

template <typename T>
const VkBaseInStructure* base(const T* t) {
  return reinterpret_cast<const VkBaseInStructure*>(t);
}

// A struct of a count and an optional array of as many u32s (color write
// enables, attachment locations): Fossilize writes the array only where there
// is one, and its length must be the count.
template <typename T>
const VkBaseInStructure* read_counted_u32s(const Node& n, VkStructureType s, const char* count_key,
                                           std::uint32_t T::*count, const char* array_key,
                                           const std::uint32_t* T::*array) {
  n.only({"sType", count_key, array_key});
  T* t = make<T>(n, s);
  t->*count = n.u32(count_key);
  if (n.has(array_key)) t->*array = n.u32_array_sized(array_key, t->*count);
  return base(t);
}

// The writing side: the count, then the array where there is one.
inline void write_counted_u32s(Out& o, const char* count_key, std::uint32_t count, const char* array_key,
                               const std::uint32_t* array) {
  o.u32(count_key, count);
  if (array) o.u32_array(array_key, array, count);
}

// Starts a struct's JSON object with its sType.
inline void open(Out& o, const VkBaseInStructure* p) {
  o.begin_object();
  o.u32("sType", p->sType);
}

// The JSON writer, reader and hasher of a struct newer than the installed
// headers (custom_pnext_compat.cpp), as the custom table takes them.
#define TRAK_COMPAT_STRUCT(name)                                                           \
  void write_##name(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn);      \
  const VkBaseInStructure* read_##name(const Node& n, VkStructureType s, Tag library_tag); \
  void hash_##name(Hasher& h, const VkBaseInStructure* p, const HashContext& c);
TRAK_COMPAT_STRUCT(flags2)
TRAK_COMPAT_STRUCT(depth_bias)
TRAK_COMPAT_STRUCT(depth_clamp)
TRAK_COMPAT_STRUCT(attachment_location)
TRAK_COMPAT_STRUCT(input_index)
#undef TRAK_COMPAT_STRUCT

// The hashing of base create-infos Fossilize does its own way (custom_objects.cpp).
void hash_sampler(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_binding(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_set_layouts(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_render_pass_flags(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_render_pass2_version(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_stage_module(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_specialization_data(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_multisample(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_rasterization(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_depth_stencil(Hasher& h, const void* p, const char* key, const HashContext& c);
void hash_viewport(Hasher& h, const void* p, const char* key, const HashContext& c);

}  // namespace libtrace::foz::detail::custom
