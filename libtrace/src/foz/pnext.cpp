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
#include <utility>

#include "registry/registry.hpp"

namespace libtrace::foz::detail {

namespace {

using registry::Member;
using registry::Type;

enum class Array : std::uint8_t { none, if_count, if_pointer, always };

struct Field {
  const Member* m;
  const Member* count = nullptr;  // the `len` member of a pointer array
  Array array = Array::none;
  bool DynamicStateInfo::*dynamic = nullptr;
  std::string key;  // JSON
};

struct Resolved {
  const registry::Struct* s;
  std::vector<Field> fields;
  std::vector<const char*> keys;  // what `only` accepts: "sType" (when the struct has one) and the fields' keys
};

[[noreturn]] void bad_profile(const char* type, const std::string& why) {
  throw Error(Errc::unsupported, "pNext profile of " + std::string(type), why);
}

std::string json_key(const Member& m) {
  std::string k = m.name();
  if (m.pointer_depth == 1 && k.size() > 1 && k[0] == 'p' && k[1] >= 'A' && k[1] <= 'Z') {
    k.erase(0, 1);
    k[0] = static_cast<char>(k[0] - 'A' + 'a');
  }
  return k;
}

bool is_chain_member(const Member& m) { return m.type == Type::pnext || std::string_view(m.name()) == "sType"; }

Resolved resolve(const char* type, const char* members) {
  Resolved r{registry::find_struct(type), {}, {}};
  if (!r.s) bad_profile(type, "no such struct in the registry");
  if (!members) {  // every member
    for (const Member& m : r.s->members())
      if (!is_chain_member(m)) r.fields.push_back(Field{&m, nullptr, Array::none, nullptr, {}});
  } else {
    for (std::string_view rest = members; !rest.empty();) {
      const std::size_t sp = rest.find(' ');
      std::string_view tok = rest.substr(0, sp);
      rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
      if (tok.empty()) continue;
      Field f{nullptr, nullptr, Array::none, nullptr, {}};
      if (const std::size_t at = tok.find('@'); at != std::string_view::npos) {
        f.dynamic = dynamic_state_member(tok.substr(at + 1));
        if (!f.dynamic) bad_profile(type, "no dynamic state named " + std::string(tok.substr(at + 1)));
        tok = tok.substr(0, at);
      }
      const bool always = !tok.empty() && tok.back() == '!';
      if (always) tok.remove_suffix(1);
      f.m = registry::find_member(*r.s, tok);
      if (!f.m) bad_profile(type, "no member " + std::string(tok));
      if (always) f.array = Array::always;
      r.fields.push_back(std::move(f));
    }
  }
  for (Field& f : r.fields) {
    const Member& m = *f.m;
    f.key = json_key(m);
    if (m.pointer_depth == 1 && m.len_member >= 0) {
      f.count = &r.s->members()[static_cast<std::size_t>(m.len_member)];
      if (f.array == Array::none) {
        f.array = Array::if_count;
        for (const Field& g : r.fields)
          if (g.m == f.count) f.array = Array::if_pointer;
      }
    } else if (m.pointer_depth > 1 || (m.pointer_depth == 1 && m.type == Type::void_ptr)) {
      bad_profile(type, std::string("member ") + m.name() + " is no value, array or single pointee");
    }
    if (m.type == Type::union_)
      bad_profile(type, std::string("member ") + m.name() + " is a union: the profile needs its own code");
  }
  if (registry::find_member(*r.s, "sType")) r.keys.push_back("sType");
  for (const Field& f : r.fields) r.keys.push_back(f.key.c_str());
  return r;
}

// Resolved once per (type, member list) and kept: the profiles are string
// literals, so their addresses identify them.
const Resolved& resolved(const char* type, const char* members) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, const void*>, const Resolved*> index;
  static std::deque<Resolved> store;
  const std::lock_guard lock(mutex);
  const auto [it, fresh] = index.try_emplace({type, members}, nullptr);
  if (fresh) {
    try {
      it->second = &store.emplace_back(resolve(type, members));
    } catch (...) {
      index.erase(it);
      throw;
    }
  }
  return *it->second;
}

const Resolved& all_members(const registry::Struct& s) { return resolved(s.name(), nullptr); }

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

std::uint64_t load(const std::uint8_t* p, std::size_t size) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, size);  // little-endian: the low bytes
  return v;
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

// ---- JSON out ----

void write_fields(Out& o, const void* base, const Resolved& r);

void write_element(Out& o, const Member& m, const std::uint8_t* p) {
  JsonWriter& w = o.raw();
  switch (m.type) {
    case Type::struct_:
      o.begin_object();
      write_fields(o, p, all_members(*m.nested()));
      o.end_object();
      return;
    case Type::s32: w.Int(static_cast<std::int32_t>(load(p, 4))); return;
    case Type::f32: {
      float f;
      std::memcpy(&f, p, sizeof f);
      o.f32(f);
      return;
    }
    default:
      if (element_size(m) == 8)
        w.Uint64(load(p, 8));
      else
        w.Uint(static_cast<std::uint32_t>(load(p, element_size(m))));
  }
}

void write_field(Out& o, const void* base, const Field& f) {
  const Member& m = *f.m;
  const auto* at = static_cast<const std::uint8_t*>(base) + m.offset;
  const std::size_t size = element_size(m);
  if (m.pointer_depth == 0) {
    o.key(f.key.c_str());
    if (!m.fixed_count) return write_element(o, m, at);
    o.begin_array();
    for (std::uint32_t i = 0; i < m.fixed_count; ++i) write_element(o, m, at + i * size);
    o.end_array();
    return;
  }
  const auto* p = load_as<const std::uint8_t*>(base, m);
  if (!f.count) {  // a single value pointed to
    if (!p) return;
    o.key(f.key.c_str());
    return write_element(o, m, p);
  }
  const std::uint64_t n = count_of(base, f);
  const bool write = f.array == Array::always || (f.array == Array::if_pointer ? p != nullptr : n != 0);
  if (!write) return;
  if (!p && n) fail(o.where(), f.key + " missing for a count of " + std::to_string(n));
  o.begin_array(f.key.c_str());
  for (std::uint64_t i = 0; i < n; ++i) write_element(o, m, p + i * size);
  o.end_array();
}

void write_fields(Out& o, const void* base, const Resolved& r) {
  for (const Field& f : r.fields) write_field(o, base, f);
}

// ---- JSON in ----

void read_fields(const Node& n, void* base, const Resolved& r);

void read_element(const Node& e, const Member& m, std::uint8_t* p) {
  switch (m.type) {
    case Type::struct_: read_fields(e, p, all_members(*m.nested())); return;
    case Type::enum_: {
      const std::uint32_t v = e.as_enum_value();
      std::memcpy(p, &v, sizeof v);
      return;
    }
    case Type::s32: {
      const std::int32_t v = e.as_s32();
      std::memcpy(p, &v, sizeof v);
      return;
    }
    case Type::f32: {
      const float v = e.as_f32();
      std::memcpy(p, &v, sizeof v);
      return;
    }
    default: break;
  }
  const std::size_t size = element_size(m);
  if (size == 8) {
    const std::uint64_t v = e.as_u64();
    std::memcpy(p, &v, size);
    return;
  }
  const std::uint32_t v = e.as_u32();
  if (size < 4 && v >> (8 * size)) e.fail("does not fit " + std::to_string(8 * size) + " bits");
  std::memcpy(p, &v, size);
}

void read_field(const Node& n, void* base, const Field& f) {
  const Member& m = *f.m;
  auto* at = static_cast<std::uint8_t*>(base) + m.offset;
  const std::size_t size = element_size(m);
  Arena& arena = n.ctx().arena;
  if (m.pointer_depth == 0) {
    const Node v = n.at(f.key.c_str());
    if (!m.fixed_count) return read_element(v, m, at);
    if (v.array_size() != m.fixed_count) v.fail("must have " + std::to_string(m.fixed_count) + " elements");
    for (std::uint32_t i = 0; i < m.fixed_count; ++i) read_element(v[i], m, at + i * size);
    return;
  }
  if (f.array != Array::always && !n.has(f.key.c_str())) return;
  const Node v = n.at(f.key.c_str());
  const std::size_t count = f.count ? v.array_size() : 1;
  auto* p =
      static_cast<std::uint8_t*>(arena.allocate(size * (count ? count : 1), m.nested() ? m.nested()->align : size));
  if (!f.count) {
    read_element(v, m, p);
  } else {
    for (std::size_t i = 0; i < count; ++i) read_element(v[i], m, p + i * size);
    if (f.array == Array::if_pointer) {
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

void read_fields(const Node& n, void* base, const Resolved& r) {
  n.only(r.keys);
  for (const Field& f : r.fields) read_field(n, base, f);
}

// ---- hashing ----

void hash_fields(Hasher& h, const void* base, const Resolved& r, const HashContext& c);

void hash_element(Hasher& h, const Member& m, const std::uint8_t* p, bool zero, const HashContext& c) {
  if (m.type == Type::struct_) return hash_fields(h, p, all_members(*m.nested()), c);
  const std::size_t size = element_size(m);
  const std::uint64_t v = zero ? 0 : load(p, size);
  if (size == 8)
    h.u64(v);
  else
    h.u32(static_cast<std::uint32_t>(v));
}

void hash_field(Hasher& h, const void* base, const Field& f, const HashContext& c) {
  const Member& m = *f.m;
  const auto* at = static_cast<const std::uint8_t*>(base) + m.offset;
  const std::size_t size = element_size(m);
  const bool zero = f.dynamic && c.dynamic(f.dynamic);
  if (m.pointer_depth == 0) {
    const std::uint32_t n = m.fixed_count ? m.fixed_count : 1;
    for (std::uint32_t i = 0; i < n; ++i) hash_element(h, m, at + i * size, zero, c);
    return;
  }
  const auto* p = load_as<const std::uint8_t*>(base, m);
  const std::uint64_t n = count_of(base, f);
  if (!p && n) fail(c.where, "cannot hash: " + f.key + " is missing for a count of " + std::to_string(n));
  for (std::uint64_t i = 0; i < n; ++i) hash_element(h, m, p + i * size, zero, c);
}

void hash_fields(Hasher& h, const void* base, const Resolved& r, const HashContext& c) {
  for (const Field& f : r.fields) hash_field(h, base, f, c);
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

void write_members(Out& o, const void* st, const char* type, const char* members) {
  write_fields(o, st, resolved(type, members));
}

void read_members(const Node& n, void* st, const char* type, const char* members) {
  read_fields(n, st, resolved(type, members));
}

void hash_members(Hasher& h, const void* st, const char* type, const char* members, const HashContext& c) {
  hash_fields(h, st, resolved(type, members), c);
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
    if (p.json) resolved(name, p.json);
    if (p.hash) resolved(name, p.hash);
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
