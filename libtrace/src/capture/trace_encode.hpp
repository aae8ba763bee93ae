// SPDX-License-Identifier: MIT
// Vulkan values into the apitrace grammar, driven by the registry's tables:
// enums and bitmasks with their names, structs with their member names and
// pNext chains, arrays of `len` elements, blobs for sized data, handles as
// pointers. What the registry cannot say (which of VkWriteDescriptorSet's
// arrays is valid, what a descriptor update template's data holds) is
// decided by the few hand-written rules in trace_encode.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "capture/trace_stream.hpp"
#include "registry/registry.hpp"

namespace libtrace::capture::trace {

// Parameters the callee writes (non-const pointers): recorded at leave.
bool is_output(const registry::Member& param);

// The value grammar's pieces, for trak's own calls.
void put_null(Event& e);
void put_uint(Event& e, std::uint64_t v);
void put_pointer(Event& e, std::uint64_t v);
void put_string(Event& e, std::string_view s);
void put_blob(Event& e, const void* p, std::size_t n);
void put_array(Event& e, std::uint64_t count);  // then `count` values
void put_struct(Event& e, const registry::Struct& s, const void* p);
void put_enum(Event& e, const registry::Enum& en, std::int64_t v);
// A struct signature of trak's own (id beyond the registry's): its values follow.
void put_own_struct(Event& e, std::uint32_t own_id, std::string_view name, std::span<const char* const> members);

// One parameter of a command: `addr` points at the parameter's variable,
// `args` at all of them (for `len` links between parameters).
void put_param(Event& e, std::span<const registry::Member> params, std::size_t i, void* const* args);

// The enter event's start for a command or one of trak's own functions:
// thread, signature (defined on first use), and the fake flag for trak's own.
void begin_enter(Event& e, std::uint32_t thread, std::uint32_t fn_id, std::string_view name,
                 std::span<const char* const> arg_names, bool fake);

// Descriptor update template data (pData of vkUpdateDescriptorSetWithTemplate
// and vkCmdPushDescriptorSetWithTemplateKHR) is recorded entry by entry, as
// the template describes it: an array per entry of VkDescriptorImageInfo,
// VkDescriptorBufferInfo or handles, a blob for inline uniform data. The
// application's block around them (zink's spans kilobytes) is not.
struct TemplateEntry {
  VkDescriptorType type;
  std::uint32_t count;
  std::size_t offset, stride;
};
// The hooks know the templates; the encoder asks through this. False: unknown.
using TemplateLookup = bool (*)(const void* dispatchable, std::uint64_t handle, std::vector<TemplateEntry>& out);
void set_template_lookup(TemplateLookup fn);

// The objects a command buffer's commands name, gathered while they are
// encoded: what a submit of it may read from memory the host writes.
enum class Kind : std::uint8_t { none, buffer, image, image_view, buffer_view, descriptor_set, command_buffer };
struct Touched {
  std::uint64_t handle;
  Kind kind;
};
// While set (per thread), every handle of those kinds that put_param()
// encodes is appended to `out`.
void collect_handles(std::vector<Touched>* out);

// trak's own calls in the stream (fake calls: no application made them).
// Their signatures get ids after the registry's.
enum OwnFunction : std::uint32_t {
  kOwnPhysicalDevice,  // trakPhysicalDevice(physicalDevice, properties, memoryProperties, memoryTypes)
  kOwnUpdateBuffer,    // trakUpdateBuffer(device, buffer, runs)
  kOwnUpdateImage,     // trakUpdateImage(device, image, runs)
  kOwnSnapshot,        // trakSnapshot(queue, frame, file)
};
enum OwnStruct : std::uint32_t {
  kOwnRun,  // trakUpdateRun {offset, data}
};
std::uint32_t own_function_id(std::uint32_t k);
std::uint32_t own_struct_id(std::uint32_t k);

}  // namespace libtrace::capture::trace
