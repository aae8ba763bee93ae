// SPDX-License-Identifier: MIT
// Strict reading of Fossilize JSON into arena structs: typed field access that
// names the JSON path of whatever is missing, ill-typed or unknown.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "foz/model.hpp"

namespace libtrace::foz::detail {

using Json = rapidjson::Value;

// Everything a parse shares: the arena, the entry for messages and the
// references found so far.
struct ReadContext {
  Arena& arena;
  const std::string& where;
  std::vector<Reference>* refs;
};

// A JSON value plus how it was reached ("stages[1].module").
class Node {
 public:
  Node(const ReadContext& c, const Json& v, const Node* parent, const char* key, std::size_t index = 0)
      : c_(c), v_(v), parent_(parent), key_(key), index_(index) {}

  const ReadContext& ctx() const { return c_; }
  const Json& value() const { return v_; }
  std::string path() const;
  [[noreturn]] void fail(const std::string& why) const;

  // --- objects ---
  void expect_object() const;
  const Json* find(const char* key) const;
  bool has(const char* key) const { return find(key) != nullptr; }
  Node at(const char* key) const;  // member must exist
  // Every member must be one of `keys`, once.
  void only(std::initializer_list<const char*> keys) const;
  void only(std::span<const char* const> keys) const;

  std::uint32_t u32(const char* key) const;
  std::int32_t s32(const char* key) const;
  std::uint64_t u64(const char* key) const;
  float f32(const char* key) const;
  template <typename E>
  E enum_(const char* key) const {
    return at(key).as_enum<E>();
  }
  std::string_view str(const char* key) const;
  // A handle: a hex hash string; records a Reference when not 0.
  template <typename Handle>
  Handle handle(const char* key, Tag tag, Handle* field) const {
    const Hash h = hash(key);
    *field = handle_from_hash<Handle>(h);
    if (h) c_.refs->push_back({tag, h, field});
    return *field;
  }
  Hash hash(const char* key) const;

  // --- this node as a scalar ---
  std::uint32_t as_u32() const;
  // A Vulkan enum. Every Vulkan enum ends at 0x7fffffff (its _MAX_ENUM), so
  // a larger number cannot be stored in one: it fails here, not as undefined
  // behaviour wherever the field is read later.
  // Any Vulkan enum's value (as_enum without the type).
  std::uint32_t as_enum_value() const;
  template <typename E>
  E as_enum() const {
    return static_cast<E>(as_enum_value());
  }
  std::int32_t as_s32() const;
  std::uint64_t as_u64() const;
  float as_f32() const;
  Hash as_hash() const;

  // --- arrays ---
  std::size_t array_size() const;  // this node must be an array
  Node operator[](std::size_t i) const { return Node(c_, v_[static_cast<rapidjson::SizeType>(i)], this, nullptr, i); }
  // Member `key` as an array of `T` (allocated in the arena, never null when
  // present) read element-wise by `read`; `*count` gets its length.
  template <typename T, typename F>
  const T* array(const char* key, std::uint32_t* count, F read) const {
    const Node a = at(key);
    const std::size_t n = a.array_size();
    T* out = c_.arena.make<T>(n);
    for (std::size_t i = 0; i < n; ++i) read(a[i], out[i]);
    if (count) *count = static_cast<std::uint32_t>(n);
    return out;
  }
  const std::uint32_t* u32_array(const char* key, std::uint32_t* count) const {
    return array<std::uint32_t>(key, count, [](const Node& e, std::uint32_t& v) { v = e.as_u32(); });
  }
  // Like u32_array, for members whose length is another field's value.
  const std::uint32_t* u32_array_sized(const char* key, std::uint32_t expected) const;
  // Rectangles as Fossilize writes VkRect2D ({x, y, width, height}), as many
  // as the struct's `count_key` says.
  const VkRect2D* rects_sized(const char* key, std::uint32_t expected, const char* count_key) const;

 private:
  const ReadContext& c_;
  const Json& v_;
  const Node* parent_;
  const char* key_;
  std::size_t index_;
};

// "e3b925b0c1c00de1" -> hash: 1 to 16 hex digits, as Fossilize's strtoull
// reads them but without its leniency. False on anything else.
bool parse_hex_hash(std::string_view s, Hash& out);

// Reads "pNext" of `parent` when present (null otherwise). `pdf2` selects the
// PhysicalDeviceFeatures2 family of structs instead of create-info ones.
// `library_tag` is the tag of pipelines a VkPipelineLibraryCreateInfoKHR in
// this chain refers to.
const void* read_pnext(const Node& parent, Tag library_tag = Tag::graphics_pipeline);

// The chain under "pNext" of `parent` (null when absent), linked in order:
// `read(node, sType)` makes each struct, or returns null for an sType it does
// not take, which fails naming `chain` ("a pNext chain").
template <typename Read>
VkBaseInStructure* read_chain(const Node& parent, const char* chain, Read read) {
  if (!parent.has("pNext")) return nullptr;
  const Node list = parent.at("pNext");
  const std::size_t n = list.array_size();
  VkBaseInStructure* head = nullptr;
  VkBaseInStructure* tail = nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    const Node e = list[i];
    const auto s = e.enum_<VkStructureType>("sType");
    auto* st = const_cast<VkBaseInStructure*>(read(e, s));
    if (!st) e.fail("unknown sType " + std::to_string(static_cast<int>(s)) + " (" + stype_name(s) + ") in " + chain);
    if (tail)
      tail->pNext = st;
    else
      head = st;
    tail = st;
  }
  return head;
}
void* read_pdf2_pnext(const Node& parent);
// {"libraries": [...]} plus "sType" inside a pNext chain or "pNext" outside
// (ray-tracing pipelines' libraryInfo). `tag` is the libraries' tag.
const VkPipelineLibraryCreateInfoKHR* read_library_info(const Node& n, Tag tag, bool in_chain);
// A VkAttachmentReference2 object (render pass 2 and two pNext structs).
void read_attachment_ref2(const Node& n, VkAttachmentReference2& r);

// The create info under one hash key of `section` ("samplers", ...,
// "renderPasses2"); `varint` is the binary part after the JSON.
void read_entry_object(const Node& n, std::string_view section, Object& o, std::string_view varint);
// Fails when JSON nests deeper than Fossilize's ever does (bounds recursion).
void check_json_depth(std::string_view json, const std::string& where);

// Object readers (the value under "<key>": {"<hash>": value}).
void read_sampler(const Node& n, Object& o);
void read_set_layout(const Node& n, Object& o);
void read_pipeline_layout(const Node& n, Object& o);
void read_shader_module(const Node& n, Object& o, std::string_view varint);
void read_render_pass(const Node& n, Object& o);
void read_render_pass2(const Node& n, Object& o);
void read_graphics_pipeline(const Node& n, Object& o);
void read_compute_pipeline(const Node& n, Object& o);
void read_raytracing_pipeline(const Node& n, Object& o);
// "applicationInfo" and "physicalDeviceFeatures" of one application.
void read_application_info(const Node& app, const Node& features, Object& o);
void read_link(const Node& n, Object& o);

}  // namespace libtrace::foz::detail
