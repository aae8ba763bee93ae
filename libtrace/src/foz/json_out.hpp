// SPDX-License-Identifier: MIT
// Writing structs as Fossilize JSON: members in Fossilize's order, numbers as
// rapidjson writes them (floats through double, like Fossilize's Value(float)).
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include "foz/model.hpp"

namespace libtrace::foz::detail {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

inline constexpr VkGraphicsPipelineLibraryFlagsEXT kAllLibraryState =
    VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

// A hash as Fossilize spells it, 16 lowercase hex digits, without the heap:
// a capture writes several per pipeline on the application's thread.
struct HexHash {
  char text[17];
  explicit HexHash(Hash h) {
    for (int i = 15; i >= 0; --i, h >>= 4) text[i] = "0123456789abcdef"[h & 15];
    text[16] = '\0';
  }
};

class Out {
 public:
  Out(JsonWriter& w, const std::string& where) : w_(w), where_(where) {}
  JsonWriter& raw() { return w_; }
  const std::string& where() const { return where_; }
  // The graphics pipeline library state being written (all of it outside
  // pipeline libraries): Fossilize leaves out what a library part ignores.
  VkGraphicsPipelineLibraryFlagsEXT library_state() const { return library_state_; }
  void set_library_state(VkGraphicsPipelineLibraryFlagsEXT s) { library_state_ = s; }

  void key(const char* k) { w_.Key(k); }
  void u32(const char* k, std::uint32_t v) {
    w_.Key(k);
    w_.Uint(v);
  }
  void s32(const char* k, std::int32_t v) {
    w_.Key(k);
    w_.Int(v);
  }
  void u64(const char* k, std::uint64_t v) {
    w_.Key(k);
    w_.Uint64(v);
  }
  void f32(const char* k, float v) {
    w_.Key(k);
    f32(v);
  }
  void f32(float v) {
    if (!std::isfinite(v)) fail(where_, "cannot write a non-finite float as JSON");
    w_.Double(static_cast<double>(v));
  }
  void str(const char* k, std::string_view s) {
    w_.Key(k);
    w_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  }
  void hash(Hash h) { w_.String(HexHash(h).text, 16); }
  void hash(const char* k, Hash h) {
    w_.Key(k);
    hash(h);
  }
  template <typename Handle>
  void handle(const char* k, Tag tag, Handle h) {
    hash(k, handle_hash(tag, h));
  }
  void begin_object(const char* k = nullptr) {
    if (k) w_.Key(k);
    w_.StartObject();
  }
  void end_object() { w_.EndObject(); }
  void begin_array(const char* k = nullptr) {
    if (k) w_.Key(k);
    w_.StartArray();
  }
  void end_array() { w_.EndArray(); }
  template <typename T>
  void u32_array(const char* k, const T* v, std::uint32_t n) {
    begin_array(k);
    for (std::uint32_t i = 0; i < n; ++i) w_.Uint(static_cast<std::uint32_t>(v[i]));
    end_array();
  }

 private:
  JsonWriter& w_;
  const std::string& where_;
  VkGraphicsPipelineLibraryFlagsEXT library_state_ = kAllLibraryState;
};

// "pNext": [...] when `p` is not null (Fossilize writes the member even when
// every struct in it is one it leaves out). `dyn` is the pipeline's dynamic
// state for graphics pipeline state blocks, null elsewhere.
void write_pnext(Out& o, const void* p, const DynamicStateInfo* dyn);
void write_pdf2_pnext(Out& o, const void* p);
void write_attachment_ref2(Out& o, const VkAttachmentReference2& r);
void write_library_info(Out& o, const VkPipelineLibraryCreateInfoKHR& l, bool in_chain);

// The create-info object (the value under "<hash>").
void write_sampler(Out& o, const VkSamplerCreateInfo& s);
void write_set_layout(Out& o, const VkDescriptorSetLayoutCreateInfo& l);
void write_pipeline_layout(Out& o, const VkPipelineLayoutCreateInfo& l);
void write_render_pass(Out& o, const VkRenderPassCreateInfo& rp);
void write_render_pass2(Out& o, const VkRenderPassCreateInfo2& rp);
// `meta`: what the subpass uses. A parsed object holds only the state blocks
// Fossilize kept, so assuming both loses nothing; a live create info (`live`:
// a capture layer's) may carry blocks its subpass ignores, which Fossilize
// leaves out.
void write_graphics_pipeline(Out& o, const VkGraphicsPipelineCreateInfo& p, SubpassMeta meta = {true, true},
                             bool live = false);
void write_compute_pipeline(Out& o, const VkComputePipelineCreateInfo& p);
void write_raytracing_pipeline(Out& o, const VkRayTracingPipelineCreateInfoKHR& p);
// The create-info object of any create-info tag, render passes of either
// version. A shader module's is the caller's: a whole-state document carries
// the code as base64, an archive entry as varints after its JSON. `meta` and
// `live` go to write_graphics_pipeline.
void write_create_info(Out& o, const Object& obj, const std::function<void(const VkShaderModuleCreateInfo&)>& shader,
                       SubpassMeta meta = {true, true}, bool live = false);
// "applicationInfo": {...}, "physicalDeviceFeatures": {...} members.
void write_application_members(Out& o, const VkApplicationInfo* app, const VkPhysicalDeviceFeatures2* features);

}  // namespace libtrace::foz::detail
