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

// Starts a struct's JSON object with its sType.
inline void open(Out& o, const VkBaseInStructure* p) {
  o.begin_object();
  o.u32("sType", p->sType);
}

void write_flags2(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn);
const VkBaseInStructure* read_flags2(const Node& n, VkStructureType s, Tag library_tag);
void hash_flags2(Hasher& h, const VkBaseInStructure* p, const HashContext& c);
void write_depth_bias(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn);
const VkBaseInStructure* read_depth_bias(const Node& n, VkStructureType s, Tag library_tag);
void hash_depth_bias(Hasher& h, const VkBaseInStructure* p, const HashContext& c);
void write_depth_clamp(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn);
const VkBaseInStructure* read_depth_clamp(const Node& n, VkStructureType s, Tag library_tag);
void hash_depth_clamp(Hasher& h, const VkBaseInStructure* p, const HashContext& c);
void write_attachment_location(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn);
const VkBaseInStructure* read_attachment_location(const Node& n, VkStructureType s, Tag library_tag);
void hash_attachment_location(Hasher& h, const VkBaseInStructure* p, const HashContext& c);
void write_input_index(Out& o, const VkBaseInStructure* p, const DynamicStateInfo* dyn);
const VkBaseInStructure* read_input_index(const Node& n, VkStructureType s, Tag library_tag);
void hash_input_index(Hasher& h, const VkBaseInStructure* p, const HashContext& c);

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
