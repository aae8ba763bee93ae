// SPDX-License-Identifier: MIT
// Typed, path-aware access to Fossilize JSON.
#include "foz/json_in.hpp"

#include "libtrace/foz/archive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace libtrace::foz::detail {

namespace {

const char* type_name(const Json& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType: return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType: return "a boolean";
    case rapidjson::kObjectType: return "an object";
    case rapidjson::kArrayType: return "an array";
    case rapidjson::kStringType: return "a string";
    case rapidjson::kNumberType: return v.IsInt64() || v.IsUint64() ? "an integer" : "a number";
  }
  return "a value";
}

}  // namespace

std::string Node::path() const {
  std::vector<const Node*> chain;
  for (const Node* n = this; n; n = n->parent_) chain.push_back(n);
  std::string p;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Node* n = *it;
    if (n->key_) {
      if (!p.empty()) p += '.';
      p += n->key_;
    } else if (n->parent_) {
      p += '[' + std::to_string(n->index_) + ']';
    }
  }
  return p.empty() ? "document" : p;
}

void Node::fail(const std::string& why) const { detail::fail(c_.where, path() + ": " + why); }

void Node::expect_object() const {
  if (!v_.IsObject()) fail(std::string("expected an object, got ") + type_name(v_));
}

const Json* Node::find(const char* key) const {
  expect_object();
  const auto it = v_.FindMember(key);
  return it == v_.MemberEnd() ? nullptr : &it->value;
}

Node Node::at(const char* key) const {
  const Json* v = find(key);
  if (!v) fail(std::string("missing member \"") + key + "\"");
  return Node(c_, *v, this, key);
}

void Node::only(std::initializer_list<const char*> keys) const {
  only(std::span<const char* const>(keys.begin(), keys.size()));
}

void Node::only(std::span<const char* const> keys) const {
  expect_object();
  std::uint64_t seen = 0;
  for (const auto& m : v_.GetObject()) {
    const std::string_view name(m.name.GetString(), m.name.GetStringLength());
    std::size_t i = 0;
    for (const char* k : keys) {
      if (name == k) break;
      ++i;
    }
    if (i == keys.size()) fail("unknown member \"" + std::string(name) + "\"");
    if (seen & (std::uint64_t{1} << i)) fail("member \"" + std::string(name) + "\" appears twice");
    seen |= std::uint64_t{1} << i;
  }
}

std::uint32_t Node::as_u32() const {
  if (!v_.IsUint()) fail(std::string("expected an unsigned 32-bit integer, got ") + type_name(v_));
  return v_.GetUint();
}

std::uint32_t Node::as_enum_value() const {
  const std::uint32_t v = as_u32();
  if (v > 0x7fffffffu) fail("value " + std::to_string(v) + " is above every Vulkan enum's range (0x7fffffff)");
  return v;
}

std::int32_t Node::as_s32() const {
  if (!v_.IsInt()) fail(std::string("expected a signed 32-bit integer, got ") + type_name(v_));
  return v_.GetInt();
}

float Node::as_f32() const {
  if (!v_.IsNumber()) fail(std::string("expected a number, got ") + type_name(v_));
  const double d = v_.GetDouble();
  if (std::isfinite(d) && std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()))
    fail("number out of the range of a 32-bit float");
  return static_cast<float>(d);
}

// Object keys may drop leading zeros; left-padded, they go through the
// archive's one hex parser.
bool parse_hex_hash(std::string_view s, Hash& out) {
  if (s.empty() || s.size() > 16) return false;
  char padded[16];
  std::fill_n(padded, 16 - s.size(), '0');
  std::copy(s.begin(), s.end(), padded + (16 - s.size()));
  const auto h = parse_hash(std::string_view(padded, 16));
  if (!h) return false;
  out = *h;
  return true;
}

Hash Node::as_hash() const {
  if (!v_.IsString()) fail(std::string("expected a hash (16 hex digits), got ") + type_name(v_));
  const std::string_view s(v_.GetString(), v_.GetStringLength());
  Hash h = 0;
  if (!parse_hex_hash(s, h)) fail("expected a hash (16 hex digits), got \"" + std::string(s) + "\"");
  return h;
}

std::uint32_t Node::u32(const char* key) const { return at(key).as_u32(); }
std::int32_t Node::s32(const char* key) const { return at(key).as_s32(); }
float Node::f32(const char* key) const { return at(key).as_f32(); }
Hash Node::hash(const char* key) const { return at(key).as_hash(); }

std::uint64_t Node::u64(const char* key) const { return at(key).as_u64(); }

std::uint64_t Node::as_u64() const {
  if (!v_.IsUint64()) fail(std::string("expected an unsigned 64-bit integer, got ") + type_name(v_));
  return v_.GetUint64();
}

std::string_view Node::str(const char* key) const {
  const Node n = at(key);
  if (!n.v_.IsString()) n.fail(std::string("expected a string, got ") + type_name(n.v_));
  return {n.v_.GetString(), n.v_.GetStringLength()};
}

std::size_t Node::array_size() const {
  if (!v_.IsArray()) fail(std::string("expected an array, got ") + type_name(v_));
  return v_.Size();
}

const std::uint32_t* Node::u32_array_sized(const char* key, std::uint32_t expected) const {
  std::uint32_t n = 0;
  const std::uint32_t* p = u32_array(key, &n);
  if (n != expected) at(key).fail("has " + std::to_string(n) + " elements, expected " + std::to_string(expected));
  return p;
}

const VkRect2D* Node::rects_sized(const char* key, std::uint32_t expected, const char* count_key) const {
  std::uint32_t n = 0;
  const VkRect2D* p = array<VkRect2D>(key, &n, [](const Node& e, VkRect2D& r) {
    e.only({"x", "y", "width", "height"});
    r.offset.x = e.s32("x");
    r.offset.y = e.s32("y");
    r.extent.width = e.u32("width");
    r.extent.height = e.u32("height");
  });
  if (n != expected)
    at(key).fail("has " + std::to_string(n) + " elements, " + count_key + " is " + std::to_string(expected));
  return p;
}

}  // namespace libtrace::foz::detail
