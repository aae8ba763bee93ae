// SPDX-License-Identifier: MIT
// The apitrace call model: signatures, values and calls as the parser yields
// them. A Call owns its values in flat arrays, so parsing allocates nothing
// per value once the recycled buffers have grown.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace libtrace::apitrace {

inline constexpr std::uint32_t kNil = 0xffffffffu;

struct FunctionSig {
  std::uint64_t id = 0;
  std::string name;
  std::vector<std::string> arg_names;
  std::uint32_t flags = 0;  // CallFlag bits derived from the name
  // glGetError: apitrace hides it (VERBOSE) when it returned 0.
  bool verbose_if_zero_return = false;
};

struct StructSig {
  std::uint64_t id = 0;
  std::string name;
  std::vector<std::string> member_names;
};

struct EnumSig {
  std::uint64_t id = 0;
  std::vector<std::pair<std::string, std::int64_t>> values;

  // The first name whose value is `v` (apitrace prints that one), or nullptr.
  // A GL enum signature holds ~3,500 names, so large ones get an index, built
  // on first use; set `values` before the first call.
  const std::string* name_of(std::int64_t v) const;

 private:
  mutable std::unordered_map<std::int64_t, std::uint32_t> index_;
  mutable bool indexed_ = false;
};

struct BitmaskSig {
  std::uint64_t id = 0;
  std::vector<std::pair<std::string, std::uint64_t>> flags;
};

struct StackFrame {
  std::uint64_t id = 0;
  std::string module, function, filename;
  std::uint64_t line = 0, offset = 0;
  bool has_line = false, has_offset = false;
};

enum class Kind : std::uint8_t {
  null,
  boolean,
  sint,
  uint,
  float32,
  float64,
  string,
  blob,
  enumeration,
  bitmask,
  array,
  structure,
  pointer,
  repr,
  wstring,
};

// One value node. Children (array elements, struct members, the two halves of
// a repr) form a list: `first` then each child's `next`.
struct Value {
  Kind kind = Kind::null;
  bool has_data = false;  // blob bytes were kept
  std::uint32_t next = kNil;
  std::uint32_t first = kNil;
  std::uint32_t count = 0;  // children
  std::uint64_t len = 0;    // bytes of a string/blob, characters of a wstring
  std::uint64_t data = 0;   // offset of the payload in Call::bytes
  union {
    std::int64_t i;
    std::uint64_t u;
    double d;
    float f;
  } num{};
  const void* sig = nullptr;  // EnumSig, BitmaskSig or StructSig

  const EnumSig* enum_sig() const { return static_cast<const EnumSig*>(sig); }
  const BitmaskSig* bitmask_sig() const { return static_cast<const BitmaskSig*>(sig); }
  const StructSig* struct_sig() const { return static_cast<const StructSig*>(sig); }
};

struct Call {
  std::uint64_t no = 0;
  std::uint32_t thread = 0;
  const FunctionSig* sig = nullptr;
  std::uint32_t flags = 0;          // CallFlag bits: name-derived, fake, incomplete, ...
  std::vector<std::uint32_t> args;  // root value per argument; kNil where none was recorded
  std::uint32_t ret = kNil;         // root of the return value, kNil if none
  std::vector<const StackFrame*> backtrace;
  std::vector<Value> values;
  std::string bytes;  // payloads of strings, blobs and wstrings

  const Value& value(std::uint32_t i) const { return values[i]; }
  std::string_view str(const Value& v) const { return std::string_view(bytes).substr(v.data, v.len); }
  // Wide strings are stored as little-endian uint32 code units.
  std::uint32_t wchar(const Value& v, std::uint64_t k) const;
  std::string_view name() const { return sig->name; }

  void clear() {
    args.clear();
    ret = kNil;
    backtrace.clear();
    values.clear();
    bytes.clear();
    flags = 0;
  }
};

struct TraceHeader {
  std::uint32_t version = 0;                      // version_no: the grammar
  std::uint32_t semantic_version = 0;             // equals version below 6
  std::map<std::string, std::string> properties;  // sorted, as apitrace prints them
};

// The highest version_no libtrace reads and the one it writes.
inline constexpr std::uint32_t kTraceVersion = 6;

}  // namespace libtrace::apitrace
