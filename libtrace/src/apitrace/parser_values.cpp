// SPDX-License-Identifier: MIT
// The value half of the stream grammar: values, and the enum, bitmask and
// struct signatures defined inside them.
#include <cstring>

#include "apitrace/grammar.hpp"
#include "apitrace/parser_internal.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::apitrace {

using detail::hex_byte;
using detail::kMaxDepth;
using detail::kMaxValues;

// The failures of the recursive value parsers are out of line: their
// messages' temporaries would otherwise take room in every frame of a deep
// nesting (twice the stack per level under ASan).
void Parser::fail_too_many_values() const { fail("call has more than 16M values (corrupt trace?)"); }
void Parser::fail_too_deep() const { fail("values nested deeper than " + std::to_string(kMaxDepth) + " levels"); }
void Parser::fail_value_type(std::uint8_t type) const { fail("unknown value type " + hex_byte(type)); }

std::uint32_t Parser::parse_value(Call& call, unsigned depth) {
  if (call.values.size() >= kMaxValues) fail_too_many_values();
  const auto idx = static_cast<std::uint32_t>(call.values.size());
  call.values.emplace_back();
  parse_value_into(call, idx, depth);
  return idx;
}

const EnumSig* Parser::parse_enum_sig() {
  const std::uint64_t id = read_uint();
  if (const EnumSig* sig = enums_.find(id)) return sig;
  std::vector<std::pair<std::string, std::int64_t>> values;
  if (header_.version < 3) {
    // Old encoding: each signature is one name/value pair, and the value
    // is the signature's (no value follows the signature).
    std::string name = read_string();
    values.emplace_back(std::move(name), read_typed_sint());
  } else {
    const std::uint64_t n = read_uint();
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string name = read_string();
      const std::int64_t value = read_typed_sint();
      values.emplace_back(std::move(name), value);
    }
  }
  EnumSig* added = enums_.add(id);
  added->values = std::move(values);
  return added;
}

std::int64_t Parser::enum_value(const EnumSig* sig) {
  if (header_.version >= 3) return read_typed_sint();
  return sig->values.empty() ? 0 : sig->values.front().second;
}

const BitmaskSig* Parser::parse_bitmask_sig() {
  const std::uint64_t id = read_uint();
  if (const BitmaskSig* sig = bitmasks_.find(id)) return sig;
  const std::uint64_t n = read_uint();
  std::vector<std::pair<std::string, std::uint64_t>> flags;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string name = read_string();
    const std::uint64_t value = read_uint();
    flags.emplace_back(std::move(name), value);
  }
  BitmaskSig* added = bitmasks_.add(id);
  added->flags = std::move(flags);
  return added;
}

const StructSig* Parser::parse_struct_sig() {
  const std::uint64_t id = read_uint();
  if (const StructSig* sig = structs_.find(id)) return sig;
  std::string name = read_string();
  const std::uint64_t n = read_uint();
  std::vector<std::string> members;
  for (std::uint64_t i = 0; i < n; ++i) members.push_back(read_string());
  StructSig* added = structs_.add(id);
  added->name = std::move(name);
  added->member_names = std::move(members);
  return added;
}

// The same grammar as parse_value_into, storing nothing: for callers that
// only count (trak-stat).
void Parser::skip_value(unsigned depth) {
  if (depth > kMaxDepth) fail_too_deep();
  const std::uint8_t type = read_byte();
  switch (type) {
    case grammar::kNull:
    case grammar::kFalse:
    case grammar::kTrue: return;
    case grammar::kSint:
    case grammar::kUint:
    case grammar::kOpaque: read_uint(); return;
    case grammar::kFloat: skip_bytes(4); return;
    case grammar::kDouble: skip_bytes(8); return;
    case grammar::kString: skip_bytes(read_uint()); return;
    case grammar::kBlob: {
      const std::uint64_t n = read_uint();
      ++blobs_;
      blob_bytes_ += n;
      skip_bytes(n);
      return;
    }
    case grammar::kEnum: enum_value(parse_enum_sig()); return;
    case grammar::kBitmask:
      parse_bitmask_sig();
      read_uint();
      return;
    case grammar::kArray: {
      const std::uint64_t n = read_uint();
      for (std::uint64_t i = 0; i < n; ++i) skip_value(depth + 1);
      return;
    }
    case grammar::kStruct: {
      const StructSig* sig = parse_struct_sig();
      for (std::size_t i = 0; i < sig->member_names.size(); ++i) skip_value(depth + 1);
      return;
    }
    case grammar::kRepr:
      skip_value(depth + 1);
      skip_value(depth + 1);
      return;
    case grammar::kWstring: {
      const std::uint64_t n = read_uint();
      for (std::uint64_t i = 0; i < n; ++i) read_uint();
      return;
    }
    default: p_--; fail_value_type(type);
  }
}

// Children are linked as they come, so an absurd count costs nothing before
// the data runs out.
void Parser::parse_children(Call& call, std::uint32_t slot, std::uint64_t n, unsigned depth) {
  std::uint32_t prev = kNil;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint32_t child = parse_value(call, depth + 1);
    if (prev == kNil)
      call.values[slot].first = child;
    else
      call.values[prev].next = child;
    prev = child;
  }
  call.values[slot].count = static_cast<std::uint32_t>(n);
}

void Parser::parse_value_into(Call& call, std::uint32_t slot, unsigned depth) {
  if (depth > kMaxDepth) fail_too_deep();
  const std::uint8_t type = read_byte();
  Value& v = call.values[slot];
  switch (type) {
    case grammar::kNull: v.kind = Kind::null; return;
    case grammar::kFalse:
      v.kind = Kind::boolean;
      v.num.u = 0;
      return;
    case grammar::kTrue:
      v.kind = Kind::boolean;
      v.num.u = 1;
      return;
    case grammar::kSint:
      v.kind = Kind::sint;
      v.num.i = -static_cast<std::int64_t>(read_uint());
      return;
    case grammar::kUint:
      v.kind = Kind::uint;
      v.num.u = read_uint();
      return;
    case grammar::kFloat: {
      float f;
      read_bytes(&f, 4);
      v.kind = Kind::float32;
      v.num.d = f;
      return;
    }
    case grammar::kDouble: {
      double d;
      read_bytes(&d, 8);
      v.kind = Kind::float64;
      v.num.d = d;
      return;
    }
    case grammar::kString:
    case grammar::kBlob: {
      const std::uint64_t n = read_uint();
      v.kind = type == grammar::kString ? Kind::string : Kind::blob;
      if (type == grammar::kBlob) {
        ++blobs_;
        blob_bytes_ += n;
      }
      v.len = n;
      v.data = call.bytes.size();
      if (type == grammar::kString || opt_.keep_blob_data) {
        v.has_data = true;
        if (n <= static_cast<std::uint64_t>(end_ - p_)) {
          call.bytes.append(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
          p_ += n;
        } else {
          append_bytes(call.bytes, n);
        }
      } else {
        skip_bytes(n);
      }
      return;
    }
    case grammar::kEnum: {
      const EnumSig* sig = parse_enum_sig();
      const std::int64_t value = enum_value(sig);
      Value& e = call.values[slot];
      e.kind = Kind::enumeration;
      e.sig = sig;
      e.num.i = value;
      return;
    }
    case grammar::kBitmask: {
      const BitmaskSig* sig = parse_bitmask_sig();
      const std::uint64_t value = read_uint();
      Value& b = call.values[slot];
      b.kind = Kind::bitmask;
      b.sig = sig;
      b.num.u = value;
      return;
    }
    case grammar::kArray: {
      const std::uint64_t n = read_uint();
      v.kind = Kind::array;
      parse_children(call, slot, n, depth);
      return;
    }
    case grammar::kStruct: {
      const StructSig* sig = parse_struct_sig();
      call.values[slot].kind = Kind::structure;
      call.values[slot].sig = sig;
      parse_children(call, slot, sig->member_names.size(), depth);
      return;
    }
    case grammar::kOpaque:
      v.kind = Kind::pointer;
      v.num.u = read_uint();
      return;
    case grammar::kRepr: {
      v.kind = Kind::repr;
      const std::uint32_t human = parse_value(call, depth + 1);
      const std::uint32_t machine = parse_value(call, depth + 1);
      call.values[slot].first = human;
      call.values[human].next = machine;
      call.values[slot].count = 2;
      return;
    }
    case grammar::kWstring: {
      const std::uint64_t n = read_uint();
      v.kind = Kind::wstring;
      v.len = n;
      v.data = call.bytes.size();
      for (std::uint64_t i = 0; i < n; ++i) {
        const auto c = static_cast<std::uint32_t>(read_uint());
        char b[4];
        std::memcpy(b, &c, 4);
        call.bytes.append(b, 4);
      }
      return;
    }
    default: p_--; fail_value_type(type);
  }
}

}  // namespace libtrace::apitrace
