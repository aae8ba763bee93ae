// SPDX-License-Identifier: MIT
// Vulkan values into the apitrace grammar, driven by the registry's tables:
// enums and bitmasks with their names, structs with their member names and
// pNext chains, arrays of `len` elements, blobs for sized data, handles as
// pointers. What the registry cannot say (which of VkWriteDescriptorSet's
// arrays is valid, what a descriptor update template's data holds) is
// decided by the few hand-written rules in encode.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "capture/trace/stream.hpp"
#include "registry/registry.hpp"
#include "vktrace/calls.hpp"
#include "vktrace/values.hpp"

namespace libtrace::capture::trace {

// Parameters the callee writes (non-const pointers): recorded at leave.
bool is_output(const registry::Member& param);

// The value grammar's pieces, for trak's own calls.
void put_null(Event& e);
void put_bool(Event& e, bool v);
void put_uint(Event& e, std::uint64_t v);
void put_pointer(Event& e, std::uint64_t v);
void put_string(Event& e, std::string_view s);
void put_blob(Event& e, const void* p, std::size_t n);
void put_array(Event& e, std::uint64_t count);  // then `count` values
void put_struct(Event& e, const registry::Struct& s, const void* p);
void put_enum(Event& e, const registry::Enum& en, std::int64_t v);
// A struct of trak's own: its member values follow.
void put_own_struct(Event& e, vktrace::OwnStruct s);

// One parameter of a command: `addr` points at the parameter's variable,
// `args` at all of them (for `len` links between parameters).
void put_param(Event& e, std::span<const registry::Member> params, std::size_t i, void* const* args);

// The enter event's start for a command or one of trak's own functions:
// thread, signature (defined on first use), and the fake flag for trak's own.
void begin_enter(Event& e, std::uint32_t thread, std::uint32_t fn_id, std::string_view name,
                 std::span<const char* const> arg_names, bool fake);
void begin_own_call(Event& e, std::uint32_t thread, vktrace::OwnCall c);

// An event's details after begin_enter() or begin_leave(): each argument
// (put_arg(), then its value), the return value (put_ret(), then its value),
// then end_details().
void begin_leave(Event& e, std::uint64_t call_no);
void put_arg(Event& e, std::uint32_t index);
void put_ret(Event& e);
void end_details(Event& e);

// Descriptor update template data is recorded as vktrace::TemplateEntry
// describes. The hooks know the templates; the encoder asks through this.
// False: unknown.
using vktrace::TemplateEntry;
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
// While set (per thread), every handle put_param() encodes, of any type
// (Kind::none for those not named above), is appended to `out`.
void collect_refs(std::vector<Touched>* out);

}  // namespace libtrace::capture::trace
