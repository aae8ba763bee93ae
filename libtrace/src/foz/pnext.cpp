// SPDX-License-Identifier: MIT
// The generic half of pNext handling (foz/pnext.hpp): member lists resolved
// against the registry once, then read, written and hashed by the members'
// types. The chains (read_pnext, write_pnext, hash_pnext_chain) look each
// sType's profile up and call either this engine or the profile's own code.
#include "foz/pnext.hpp"

#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string_view>
#include <tuple>
#include <utility>

#include "registry/registry.hpp"

namespace libtrace::foz::detail {

namespace {

using registry::Member;
using registry::Type;

// chain: a pNext struct, whose JSON has "sType"; object: a create-info, a
// block of one or an element of an array (no "sType" key).
enum class Mode : std::uint8_t { chain, object };
enum class Write : std::uint8_t { if_count, if_pointer, always };

struct Resolved;

// How an element is read, written and hashed, worked out once.
enum class Kind : std::uint8_t { unsigned_, u64, s32, f32, enum_, handle, struct_, pnext, string, hook };

struct Field {
  Kind kind = Kind::hook;
  std::uint32_t size = 0;  // of one element
  bool word = false;       // one 32-bit value held by value: the fast path
  std::uint32_t offset = 0;
  const Member* m = nullptr;      // null: a "+key" hook
  const Member* count = nullptr;  // the `len` member of a pointer array
  Write write = Write::if_count;
  bool required = false;     // JSON: must be present
  bool check_count = false;  // JSON: the count is known already, the array must match it
  bool or_zero = false;      // hashing: a null pointer hashes nothing (an array) or 0
  bool DynamicStateInfo::*dynamic = nullptr;
  int tag = -1;                    // a handle: the Tag of the objects it names
  const Resolved* json = nullptr;  // a struct element: its members
  const Resolved* hash = nullptr;
  void (*hook)(Hasher&, const void*, const char*, const HashContext&) = nullptr;
  std::string key;  // JSON
};

struct Resolved {
  const registry::Struct* s;
  std::vector<Field> fields;
  std::vector<const char*> keys;  // what `only` accepts: "sType" (a chain struct's) and the fields' keys
  bool set_s_type = false;        // an object's struct with an sType: reading sets it
};

[[noreturn]] void bad_profile(const char* type, const std::string& why) {
  throw Error(Errc::unsupported, "pNext profile of " + std::string(type), why);
}

std::string json_key(const Member& m) {
  std::string k = m.name();
  if (m.type != Type::pnext && m.pointer_depth == 1 && k.size() > 1 && k[0] == 'p' && k[1] >= 'A' && k[1] <= 'Z') {
    k.erase(0, 1);
    k[0] = static_cast<char>(k[0] - 'A' + 'a');
  }
  return k;
}

bool is_chain_member(const Member& m) { return m.type == Type::pnext || std::string_view(m.name()) == "sType"; }

int handle_tag(const Member& m, const char* type) {
  static constexpr std::pair<std::string_view, Tag> kTags[] = {{"VkSampler", Tag::sampler},
                                                               {"VkDescriptorSetLayout", Tag::descriptor_set_layout},
                                                               {"VkPipelineLayout", Tag::pipeline_layout},
                                                               {"VkShaderModule", Tag::shader_module},
                                                               {"VkRenderPass", Tag::render_pass}};
  const std::string_view t = m.type_name();
  for (const auto& [name, tag] : kTags)
    if (t == name) return static_cast<int>(tag);
  if (t != "VkPipeline") return -1;
  const std::string_view s = type;
  if (s == "VkComputePipelineCreateInfo") return static_cast<int>(Tag::compute_pipeline);
  if (s == "VkRayTracingPipelineCreateInfoKHR") return static_cast<int>(Tag::raytracing_pipeline);
  return static_cast<int>(Tag::graphics_pipeline);
}

const ObjectProfile* find_object_profile(std::string_view type) {
  for (const ObjectProfile& p : object_profiles())
    if (type == p.type) return &p;
  return nullptr;
}

const Resolved& resolved(const char* type, const char* members, Mode mode);

// An element struct's members: its object profile's, else all of them.
const Resolved& element(const registry::Struct& s, bool hash) {
  const ObjectProfile* p = find_object_profile(s.name());
  return resolved(s.name(), p ? (hash ? p->hash : p->json) : nullptr, Mode::object);
}

std::size_t element_size(const Member& m) {
  switch (m.type) {
    case Type::struct_:
    case Type::union_: return m.nested()->size;
    case Type::u8: return 1;
    case Type::u16: return 2;
    case Type::u64:
    case Type::s64:
    case Type::f64:
    case Type::handle: return 8;
    case Type::size: return sizeof(std::size_t);
    case Type::bitmask: return m.enum_info() && m.enum_info()->is_64bit ? 8 : 4;
    default: return 4;
  }
}

Kind kind_of(const Member& m) {
  switch (m.type) {
    case Type::pnext: return Kind::pnext;
    case Type::char_ptr: return Kind::string;
    case Type::struct_: return Kind::struct_;
    case Type::s32: return Kind::s32;
    case Type::f32: return Kind::f32;
    case Type::enum_: return Kind::enum_;
    case Type::handle: return Kind::handle;
    default: return element_size(m) == 8 ? Kind::u64 : Kind::unsigned_;
  }
}

Resolved resolve(const char* type, const char* members, Mode mode) {
  Resolved r{registry::find_struct(type), {}, {}};
  if (!r.s) bad_profile(type, "no such struct in the registry");
  if (!members) {  // every member
    for (const Member& m : r.s->members())
      if (!is_chain_member(m)) r.fields.emplace_back().m = &m;
  } else {
    for (std::string_view rest = members; !rest.empty();) {
      const std::size_t sp = rest.find(' ');
      std::string_view tok = rest.substr(0, sp);
      rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
      if (tok.empty()) continue;
      Field f;
      if (const std::size_t eq = tok.find('='); eq != std::string_view::npos) {  // a JSON key of its own
        f.key = tok.substr(eq + 1);
        tok = tok.substr(0, eq);
      }
      if (tok[0] == '+') {
        f.key = tok.substr(1);
        if (const ObjectProfile* p = find_object_profile(type)) f.hook = p->hook;
        r.fields.push_back(std::move(f));
        continue;
      }
      if (const std::size_t at = tok.find('@'); at != std::string_view::npos) {
        f.dynamic = dynamic_state_member(tok.substr(at + 1));
        if (!f.dynamic) bad_profile(type, "no dynamic state named " + std::string(tok.substr(at + 1)));
        tok = tok.substr(0, at);
      }
      const char mark = tok.empty() ? 0 : tok.back();
      if (mark == '!' || mark == '?' || mark == '*') tok.remove_suffix(1);
      f.m = registry::find_member(*r.s, tok);
      if (!f.m) bad_profile(type, "no member " + std::string(tok));
      if (mark == '!') f.write = Write::always, f.required = true;
      if (mark == '*') f.write = Write::always;
      if (mark == '?') f.write = Write::if_pointer, f.or_zero = true;
      r.fields.push_back(std::move(f));
    }
  }
  for (std::size_t i = 0; i < r.fields.size(); ++i) {
    Field& f = r.fields[i];
    if (!f.m) continue;
    const Member& m = *f.m;
    if (f.key.empty()) f.key = json_key(m);
    f.kind = kind_of(m);
    if (f.kind == Kind::pnext) continue;
    f.size = static_cast<std::uint32_t>(element_size(m));
    f.offset = m.offset;
    f.word = m.pointer_depth == 0 && !m.fixed_count && f.size == 4 && !f.dynamic &&
             (f.kind == Kind::unsigned_ || f.kind == Kind::enum_ || f.kind == Kind::f32 || f.kind == Kind::s32);
    if (m.pointer_depth == 1 && m.len_member >= 0) {
      f.count = &r.s->members()[static_cast<std::size_t>(m.len_member)];
      for (std::size_t j = 0; j < r.fields.size(); ++j)
        if (r.fields[j].m == f.count || (j < i && r.fields[j].m && r.fields[j].count == f.count)) f.check_count = true;
      if (f.check_count && f.write == Write::if_count) f.write = Write::if_pointer;
    } else if (m.type == Type::char_ptr && m.pointer_depth == 1) {
      // a string
    } else if (m.pointer_depth > 1 || (m.pointer_depth == 1 && m.type == Type::void_ptr)) {
      bad_profile(type, std::string("member ") + m.name() + " is no value, array or single pointee");
    }
    if (m.type == Type::union_)
      bad_profile(type, std::string("member ") + m.name() + " is a union: the profile needs its own code");
    if (m.type == Type::handle) f.tag = handle_tag(m, type);
    if (f.kind == Kind::handle && f.tag < 0) f.kind = Kind::u64;
    if (m.type == Type::struct_) {
      f.json = &element(*m.nested(), false);
      f.hash = &element(*m.nested(), true);
    }
  }
  const bool has_s_type = registry::find_member(*r.s, "sType") && r.s->s_type >= 0;
  if (mode == Mode::chain && registry::find_member(*r.s, "sType")) r.keys.push_back("sType");
  r.set_s_type = mode == Mode::object && has_s_type;
  for (const Field& f : r.fields) r.keys.push_back(f.key.c_str());
  return r;
}

// Resolved once per (type, member list) and kept: the profiles are string
// literals, so their addresses identify them.
// A thread's last lookups, by the addresses of the names (string literals):
// a hit costs a few instructions and no lock.
struct Recent {
  const void* a;
  const void* b;
  int kind;
  const Resolved* r;
};
const Resolved* recent(const void* a, const void* b, int kind, const Resolved* fill = nullptr) {
  thread_local Recent slots[256] = {};
  const std::uint64_t mix = (reinterpret_cast<std::uintptr_t>(a) * 0x9e3779b97f4a7c15ull) ^
                            (reinterpret_cast<std::uintptr_t>(b) * 0xc2b2ae3d27d4eb4full) ^ static_cast<unsigned>(kind);
  const std::size_t i = (mix * 0x9e3779b97f4a7c15ull) >> 56;
  Recent& r = slots[i];
  if (fill) r = {a, b, kind, fill};
  return r.a == a && r.b == b && r.kind == kind ? r.r : nullptr;
}

const Resolved& resolved(const char* type, const char* members, Mode mode) {
  if (const Resolved* r = recent(type, members, static_cast<int>(mode))) return *r;
  using Key = std::tuple<const void*, const void*, Mode>;
  static std::recursive_mutex mutex;  // element structs resolve while their parent does
  static std::map<Key, const Resolved*> index;
  static std::deque<Resolved> store;
  const std::lock_guard lock(mutex);
  const Key key{type, members, mode};
  auto it = index.find(key);
  if (it == index.end()) it = index.emplace(key, &store.emplace_back(resolve(type, members, mode))).first;
  recent(type, members, static_cast<int>(mode), it->second);
  return *it->second;
}

template <typename T>
std::uint64_t load_n(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint64_t load(const std::uint8_t* p, std::size_t size) {
  switch (size) {
    case 1: return *p;
    case 2: return load_n<std::uint16_t>(p);
    case 4: return load_n<std::uint32_t>(p);
    default: return load_n<std::uint64_t>(p);
  }
}

template <typename T>
T load_as(const void* base, const Member& m) {
  T v;
  std::memcpy(&v, static_cast<const std::uint8_t*>(base) + m.offset, sizeof v);
  return v;
}

std::uint64_t count_of(const void* base, const Field& f) {
  return f.count ? load(static_cast<const std::uint8_t*>(base) + f.count->offset, f.count->size) : 1;
}

Hash handle_at(const Field& f, const std::uint8_t* p) {
  VkSampler h;  // any non-dispatchable handle: 64 bits
  std::memcpy(&h, p, sizeof h);
  return handle_hash(static_cast<Tag>(f.tag), h);
}

// ---- JSON out ----

void write_fields(Out& o, const void* base, const Resolved& r, const DynamicStateInfo* dyn, KeyHook hook);

void write_element(Out& o, const Field& f, const std::uint8_t* p, const DynamicStateInfo* dyn) {
  JsonWriter& w = o.raw();
  switch (f.kind) {
    case Kind::struct_:
      o.begin_object();
      write_fields(o, p, *f.json, dyn, {});
      o.end_object();
      return;
    case Kind::s32: w.Int(static_cast<std::int32_t>(load(p, 4))); return;
    case Kind::f32: {
      float v;
      std::memcpy(&v, p, sizeof v);
      o.f32(v);
      return;
    }
    case Kind::handle: return o.hash(handle_at(f, p));
    case Kind::u64: w.Uint64(load(p, 8)); return;
    default: w.Uint(static_cast<std::uint32_t>(load(p, f.size)));
  }
}

void write_key(Out& o, const Field& f) { o.raw().Key(f.key.data(), static_cast<rapidjson::SizeType>(f.key.size())); }

void write_field(Out& o, const void* base, const Field& f, const DynamicStateInfo* dyn, KeyHook hook) {
  if (f.kind == Kind::hook) return hook(f.key.c_str());
  const Member& m = *f.m;
  if (f.kind == Kind::pnext) return write_pnext(o, load_as<const void*>(base, m), dyn);
  const auto* at = static_cast<const std::uint8_t*>(base) + m.offset;
  if (m.pointer_depth == 0) {
    write_key(o, f);
    if (!m.fixed_count) return write_element(o, f, at, dyn);
    o.begin_array();
    for (std::uint32_t i = 0; i < m.fixed_count; ++i) write_element(o, f, at + i * f.size, dyn);
    o.end_array();
    return;
  }
  const auto* p = load_as<const std::uint8_t*>(base, m);
  if (f.kind == Kind::string) {
    if (p || f.write == Write::always) o.str(f.key.c_str(), p ? reinterpret_cast<const char*>(p) : "");
    return;
  }
  if (!f.count) {  // a single value pointed to
    if (!p) return;
    write_key(o, f);
    return write_element(o, f, p, dyn);
  }
  const std::uint64_t n = count_of(base, f);
  const bool write = f.write == Write::always || (f.write == Write::if_pointer ? p != nullptr : n != 0);
  if (!write) return;
  if (!p && n) fail(o.where(), f.key + " missing for a count of " + std::to_string(n));
  write_key(o, f);
  o.begin_array();
  for (std::uint64_t i = 0; i < n; ++i) write_element(o, f, p + i * f.size, dyn);
  o.end_array();
}

void write_fields(Out& o, const void* base, const Resolved& r, const DynamicStateInfo* dyn, KeyHook hook) {
  for (const Field& f : r.fields) {
    if (f.word && f.kind != Kind::f32) {
      write_key(o, f);
      const auto v =
          static_cast<std::uint32_t>(load_n<std::uint32_t>(static_cast<const std::uint8_t*>(base) + f.offset));
      if (f.kind == Kind::s32)
        o.raw().Int(static_cast<std::int32_t>(v));
      else
        o.raw().Uint(v);
      continue;
    }
    write_field(o, base, f, dyn, hook);
  }
}

// ---- JSON in ----

void read_fields(const Node& n, void* base, const Resolved& r, Tag library_tag, KeyHook hook);

void read_element(const Node& e, const Field& f, std::uint8_t* p, Tag library_tag) {
  switch (f.kind) {
    case Kind::struct_: read_fields(e, p, *f.json, library_tag, {}); return;
    case Kind::enum_: {
      const std::uint32_t v = e.as_enum_value();
      std::memcpy(p, &v, sizeof v);
      return;
    }
    case Kind::s32: {
      const std::int32_t v = e.as_s32();
      std::memcpy(p, &v, sizeof v);
      return;
    }
    case Kind::f32: {
      const float v = e.as_f32();
      std::memcpy(p, &v, sizeof v);
      return;
    }
    case Kind::handle: {
      const Hash h = e.as_hash();
      std::memcpy(p, &h, sizeof h);
      if (h) e.ctx().refs->push_back({static_cast<Tag>(f.tag), h, p});
      return;
    }
    case Kind::u64: {
      const std::uint64_t v = e.as_u64();
      std::memcpy(p, &v, sizeof v);
      return;
    }
    default: {
      const std::uint32_t v = e.as_u32();
      if (f.size < 4 && v >> (8 * f.size)) e.fail("does not fit " + std::to_string(8 * f.size) + " bits");
      std::memcpy(p, &v, f.size);
    }
  }
}

void read_field(const Node& n, void* base, const Field& f, Tag library_tag, KeyHook hook) {
  if (f.kind == Kind::hook) return hook(f.key.c_str());
  const Member& m = *f.m;
  auto* at = static_cast<std::uint8_t*>(base) + m.offset;
  if (f.kind == Kind::pnext) {
    const void* chain = read_pnext(n, library_tag);
    std::memcpy(at, &chain, sizeof chain);
    return;
  }
  const Json* found = n.find(f.key.c_str());
  if (!found) {
    if (m.pointer_depth == 0 || f.required) n.at(f.key.c_str());  // fails: missing
    return;
  }
  const Node v(n.ctx(), *found, &n, f.key.c_str());
  if (m.pointer_depth == 0) {
    if (!m.fixed_count) return read_element(v, f, at, library_tag);
    if (v.array_size() != m.fixed_count) v.fail("must have " + std::to_string(m.fixed_count) + " elements");
    for (std::uint32_t i = 0; i < m.fixed_count; ++i) read_element(v[i], f, at + i * f.size, library_tag);
    return;
  }
  Arena& arena = n.ctx().arena;
  if (f.kind == Kind::string) {
    const char* str = arena.copy_string(n.str(f.key.c_str()));
    std::memcpy(at, &str, sizeof str);
    return;
  }
  const std::size_t count = f.count ? v.array_size() : 1;
  auto* p = static_cast<std::uint8_t*>(
      arena.allocate(f.size * (count ? count : 1), f.kind == Kind::struct_ ? m.nested()->align : f.size));
  if (!f.count) {
    read_element(v, f, p, library_tag);
  } else {
    for (std::size_t i = 0; i < count; ++i) read_element(v[i], f, p + i * f.size, library_tag);
    if (f.check_count) {
      const std::uint64_t want = count_of(base, f);
      if (count != want)
        v.fail("has " + std::to_string(count) + " elements, " + f.count->name() + " is " + std::to_string(want));
    } else {
      const std::uint64_t c = count;
      std::memcpy(static_cast<std::uint8_t*>(base) + f.count->offset, &c, f.count->size);
    }
  }
  std::memcpy(at, &p, sizeof p);
}

void read_fields(const Node& n, void* base, const Resolved& r, Tag library_tag, KeyHook hook) {
  n.only(r.keys);
  if (r.set_s_type) static_cast<VkBaseInStructure*>(base)->sType = static_cast<VkStructureType>(r.s->s_type);
  for (const Field& f : r.fields) {
    if (!f.word) {
      read_field(n, base, f, library_tag, hook);
      continue;
    }
    const Node v = n.at(f.key.c_str());
    std::uint32_t w;
    if (f.kind == Kind::unsigned_) {
      w = v.as_u32();
    } else if (f.kind == Kind::enum_) {
      w = v.as_enum_value();
    } else if (f.kind == Kind::s32) {
      w = static_cast<std::uint32_t>(v.as_s32());
    } else {
      const float x = v.as_f32();
      std::memcpy(&w, &x, sizeof w);
    }
    std::memcpy(static_cast<std::uint8_t*>(base) + f.offset, &w, sizeof w);
  }
}

// ---- hashing ----

void hash_fields(Hasher& h, const void* base, const Resolved& r, const HashContext& c, KeyHook hook);

void hash_element(Hasher& h, const Field& f, const std::uint8_t* p, bool zero, const HashContext& c) {
  switch (f.kind) {
    case Kind::struct_: return hash_fields(h, p, *f.hash, c, {});
    case Kind::handle: return h.u64(zero ? 0 : handle_at(f, p));
    case Kind::u64: return h.u64(zero ? 0 : load(p, 8));
    default: h.u32(zero ? 0 : static_cast<std::uint32_t>(load(p, f.size)));
  }
}

void hash_field(Hasher& h, const void* base, const Field& f, const HashContext& c, KeyHook hook) {
  if (f.kind == Kind::hook) {
    if (f.hook) return f.hook(h, base, f.key.c_str(), c);
    return hook(f.key.c_str());
  }
  const Member& m = *f.m;
  if (f.kind == Kind::pnext) return hash_pnext_chain(h, load_as<const void*>(base, m), c.dyn, c.state, c.where);
  const auto* at = static_cast<const std::uint8_t*>(base) + m.offset;
  const bool zero = f.dynamic && c.dynamic(f.dynamic);
  if (m.pointer_depth == 0) {
    const std::uint32_t n = m.fixed_count ? m.fixed_count : 1;
    for (std::uint32_t i = 0; i < n; ++i) hash_element(h, f, at + i * f.size, zero, c);
    return;
  }
  const auto* p = load_as<const std::uint8_t*>(base, m);
  if (f.kind == Kind::string) {
    if (p) return h.string(reinterpret_cast<const char*>(p));
    return h.u32(0);
  }
  if (!p && f.or_zero) {
    if (!f.count) h.u32(0);
    return;
  }
  const std::uint64_t n = count_of(base, f);
  if (!p && n) fail(c.where, "cannot hash: " + f.key + " is missing for a count of " + std::to_string(n));
  for (std::uint64_t i = 0; i < n; ++i) hash_element(h, f, p + i * f.size, zero, c);
}

void hash_fields(Hasher& h, const void* base, const Resolved& r, const HashContext& c, KeyHook hook) {
  for (const Field& f : r.fields) {
    if (f.word)
      h.u32(static_cast<std::uint32_t>(load_n<std::uint32_t>(static_cast<const std::uint8_t*>(base) + f.offset)));
    else
      hash_field(h, base, f, c, hook);
  }
}

// An object's JSON or hash members, by the caller's type name: cached under
// that pointer, so that a call costs no search of the profiles.
const Resolved& object_members(const char* type, bool hash) {
  const int kind = hash ? 3 : 2;  // beside resolved()'s modes
  if (const Resolved* r = recent(type, nullptr, kind)) return *r;
  const ObjectProfile* p = find_object_profile(type);
  if (!p) bad_profile(type, "no object profile");
  const Resolved& r = resolved(p->type, hash ? p->hash : p->json, Mode::object);
  recent(type, nullptr, kind, &r);
  return r;
}

// ---- chains ----

const PnextProfile* find_profile(VkStructureType s) {
  for (const PnextProfile& p : pnext_profiles())
    if (p.s_type == s) return &p;
  return nullptr;
}

const char* struct_name(VkStructureType s) {
  const registry::Struct* st = registry::find_struct(s);
  return st ? st->name() : nullptr;
}

// An inline shader module or a module identifier stands for the stage's
// module: the stage itself writes and hashes it.
bool stands_for_module(VkStructureType s) {
  return s == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO ||
         s == VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_MODULE_IDENTIFIER_CREATE_INFO_EXT;
}

}  // namespace

void KeyHook::unhandled(const char* key) {
  throw Error(Errc::unsupported, "object profile", std::string("nothing handles \"+") + key + "\"");
}

void write_members(Out& o, const void* st, const char* type, const char* members) {
  write_fields(o, st, resolved(type, members, Mode::chain), nullptr, {});
}

void read_members(const Node& n, void* st, const char* type, const char* members) {
  read_fields(n, st, resolved(type, members, Mode::chain), Tag::graphics_pipeline, {});
}

void hash_members(Hasher& h, const void* st, const char* type, const char* members, const HashContext& c) {
  hash_fields(h, st, resolved(type, members, Mode::chain), c, {});
}

void write_object(Out& o, const char* key, const void* st, const char* type, const DynamicStateInfo* dyn,
                  KeyHook hook) {
  o.begin_object(key);
  write_fields(o, st, object_members(type, false), dyn, hook);
  o.end_object();
}

void read_object(const Node& n, void* st, const char* type, Tag library_tag, KeyHook hook) {
  read_fields(n, st, object_members(type, false), library_tag, hook);
}

void hash_object(Hasher& h, const void* st, const char* type, const HashContext& c, KeyHook hook) {
  hash_fields(h, st, object_members(type, true), c, hook);
}

void check_pnext_profiles() {
  for (const PnextProfile& p : pnext_profiles()) {
    if (!p.json != (p.write && p.read) || !p.hash != !!p.hash_fn)
      throw Error(Errc::unsupported, "pNext profile of sType " + std::to_string(p.s_type),
                  "needs a member list or its own code, for JSON and for hashing");
    const char* name = struct_name(p.s_type);
    if ((p.json || p.hash) && !name)
      throw Error(Errc::unsupported, "pNext profile of sType " + std::to_string(p.s_type),
                  "not a struct of the registry");
    if (p.json) resolved(name, p.json, Mode::chain);
    if (p.hash) resolved(name, p.hash, Mode::chain);
  }
  for (const ObjectProfile& p : object_profiles()) {
    resolved(p.type, p.json, Mode::object);
    resolved(p.type, p.hash, Mode::object);
  }
}

const void* read_pnext(const Node& parent, Tag library_tag) {
  return read_chain(parent, "a pNext chain",
                    [library_tag](const Node& e, VkStructureType s) -> const VkBaseInStructure* {
                      const PnextProfile* p = find_profile(s);
                      if (!p) return nullptr;
                      if (p->read) return p->read(e, s, library_tag);
                      const registry::Struct& d = *registry::find_struct(s);
                      auto* st = static_cast<VkBaseInStructure*>(e.ctx().arena.allocate(d.size, d.align));
                      st->sType = s;
                      read_members(e, st, d.name(), p->json);
                      return st;
                    });
}

void write_pnext(Out& o, const void* chain, const DynamicStateInfo* dyn) {
  if (!chain) return;
  o.begin_array("pNext");
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s; s = s->pNext) {
    if (ignored_stype(s->sType) || stands_for_module(s->sType)) continue;
    const PnextProfile* p = find_profile(s->sType);
    if (!p)
      fail(o.where(), "cannot write a pNext struct with unknown sType " + std::to_string(s->sType) + " (" +
                          stype_name(s->sType) + ")");
    if (p->write) {
      p->write(o, s, dyn);
      continue;
    }
    o.begin_object();
    o.u32("sType", s->sType);
    write_members(o, s, struct_name(s->sType), p->json);
    o.end_object();
  }
  o.end_array();
}

void hash_pnext_chain(Hasher& h, const void* chain, const DynamicStateInfo* dyn,
                      VkGraphicsPipelineLibraryFlagsEXT state, const std::string& where) {
  const HashContext c{dyn, state, where};
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s; s = s->pNext) {
    if (ignored_stype(s->sType) || stands_for_module(s->sType)) continue;
    const PnextProfile* p = find_profile(s->sType);
    if (!p)
      fail(where, "cannot hash a pNext struct with unknown sType " + std::to_string(s->sType) + " (" +
                      stype_name(s->sType) + ")");
    h.s32(s->sType);
    if (p->hash_fn)
      p->hash_fn(h, s, c);
    else
      hash_members(h, s, struct_name(s->sType), p->hash, c);
  }
}

}  // namespace libtrace::foz::detail
