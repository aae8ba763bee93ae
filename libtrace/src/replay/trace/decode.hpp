// SPDX-License-Identifier: MIT
// A traced call's values back into Vulkan's C structs, driven by the same
// registry tables the capture's encoder used (the inverse of
// capture/trace/encode.cpp, with the sizes of vktrace/values.hpp): struct members by the registry's layout, pNext
// chains by the recorded struct names, arrays and blobs into an arena that
// lives for the call, handles through the replay's handle map.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libtrace/apitrace/model.hpp"
#include "registry/registry.hpp"
#include "vktrace/values.hpp"

namespace libtrace::replay_trace {

// Memory for one call's decoded values, zeroed, freed together.
class Arena {
 public:
  void* alloc(std::size_t size);
  void clear() { blocks_.clear(); }

 private:
  std::vector<std::unique_ptr<std::max_align_t[]>> blocks_;
};

// Captured handle values to this replay's.
class HandleMap {
 public:
  // 0 for VK_NULL_HANDLE; `missing` is set for a handle never made here.
  std::uint64_t get(std::uint64_t captured, bool* missing = nullptr) const {
    if (!captured) return 0;
    const auto it = map_.find(captured);
    if (it != map_.end()) return it->second;
    if (missing) *missing = true;
    return 0;
  }
  void set(std::uint64_t captured, std::uint64_t replayed) {
    if (captured) map_[captured] = replayed;
  }
  void erase(std::uint64_t captured) { map_.erase(captured); }
  bool has(std::uint64_t captured) const { return map_.count(captured) != 0; }

 private:
  std::unordered_map<std::uint64_t, std::uint64_t> map_;
};

// What descriptor update template data looks like: per entry, where its
// elements go in the block the command reads.
struct TemplateLayout {
  std::vector<vktrace::TemplateEntry> entries;
};

class CallDecoder {
 public:
  CallDecoder(const apitrace::Call& call, Arena& arena, const HandleMap& handles)
      : call_(call), arena_(arena), handles_(handles) {}

  // Every parameter of a command into its slot (`ptrs` points at them, as
  // an invoker takes them), then check_params().
  void params(std::span<const registry::Member> params, std::vector<std::uint64_t>& slots, std::vector<void*>& ptrs);
  // After every parameter is in `slots`: arrays shorter than the counts
  // beside them become problems (a damaged capture).
  void check_params(std::span<const registry::Member> params, void* const* slots);
  // Parameter `i` of `params` into its 8-byte slot. Outputs get storage the
  // size of what was recorded (structs prefilled with their sType and pNext
  // chain; handles zero: the caller maps them after the call).
  void param(std::span<const registry::Member> params, std::size_t i, void* slot);
  // A struct value (a recorded struct, or an array of one) into `dst`.
  void structure(const registry::Struct& s, std::uint32_t value, void* dst);
  // Template data recorded entry by entry back into the block `layout` describes.
  const void* template_data(const TemplateLayout& layout, std::uint32_t value);

  // What must not reach the driver: handles the replay never made, enum
  // values their enum lacks.
  const std::vector<std::string>& problems() const { return problems_; }
  // Structs in pNext chains this build does not know (left out).
  const std::vector<std::string>& unknown_structs() const { return unknown_; }

  const apitrace::Value& value(std::uint32_t i) const { return call_.values[i]; }
  // The root value of argument `i`, or kNil.
  std::uint32_t arg(std::size_t i) const { return i < call_.args.size() ? call_.args[i] : apitrace::kNil; }
  std::uint64_t uint_of(std::uint32_t v) const;  // a scalar value as an integer (0 for null)
  // The value of member `name` of a recorded struct (or of `&struct`), or kNil.
  std::uint32_t field(std::uint32_t v, std::string_view name) const;
  // The recorded handle values of an output handle array (or of `&h`).
  std::vector<std::uint64_t> handles_of(std::uint32_t v) const;

 private:
  void member(const registry::Member& m, std::uint32_t v, char* dst, bool is_param);
  void scalar(const registry::Member& m, std::uint32_t v, char* dst);
  void mismatch(const registry::Member& m);
  [[gnu::noinline, gnu::cold]] void problem_enum(const registry::Member& m, std::int64_t value);
  [[gnu::noinline, gnu::cold]] void problem_stype(const registry::Struct& s, std::int32_t s_type);
  [[gnu::noinline, gnu::cold]] void problem_length(const registry::Member& m, std::string_view len, std::uint64_t have,
                                                   std::uint64_t want);
  [[gnu::noinline, gnu::cold]] void problem_missing(const registry::Member& m);
  [[gnu::noinline, gnu::cold]] void problem_argument(std::size_t i, std::size_t count);
  void* pnext(std::uint32_t v);
  std::uint32_t child(std::uint32_t v, std::uint32_t k) const;
  std::uint64_t handle(std::uint64_t captured, const registry::Member& m);
  template <typename Addr>
  void check_length(std::span<const registry::Member> members, std::size_t i, std::uint32_t v, Addr&& addr);

  const apitrace::Call& call_;
  Arena& arena_;
  const HandleMap& handles_;
  std::vector<std::string> problems_;
  std::vector<std::string> unknown_;
};

}  // namespace libtrace::replay_trace
