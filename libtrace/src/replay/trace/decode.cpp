// SPDX-License-Identifier: MIT
#include "replay/trace/decode.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace libtrace::replay_trace {

namespace {

using apitrace::Kind;
using apitrace::kNil;
using registry::Member;
using registry::Type;
using vktrace::element_size;
using vktrace::scalar_size;

void store(char* dst, std::size_t n, std::uint64_t v) {
  switch (n) {
    case 1: {
      const auto x = static_cast<std::uint8_t>(v);
      std::memcpy(dst, &x, 1);
      return;
    }
    case 2: {
      const auto x = static_cast<std::uint16_t>(v);
      std::memcpy(dst, &x, 2);
      return;
    }
    case 4: {
      const auto x = static_cast<std::uint32_t>(v);
      std::memcpy(dst, &x, 4);
      return;
    }
    default: std::memcpy(dst, &v, 8); return;
  }
}

}  // namespace

void* Arena::alloc(std::size_t size) {
  const std::size_t n = (std::max<std::size_t>(size, 1) + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
  blocks_.push_back(std::make_unique_for_overwrite<std::max_align_t[]>(n));
  // Zeroed by hand: value-initializing max_align_t zeroes its members, not
  // the padding between them (MALLOC_PERTURB_ shows it).
  std::memset(blocks_.back().get(), 0, n * sizeof(std::max_align_t));
  return blocks_.back().get();
}

std::uint32_t CallDecoder::child(std::uint32_t v, std::uint32_t k) const {
  std::uint32_t c = call_.values[v].first;
  for (std::uint32_t i = 0; i < k && c != kNil; ++i) c = call_.values[c].next;
  return c;
}

std::uint64_t CallDecoder::uint_of(std::uint32_t v) const {
  if (v == kNil) return 0;
  const apitrace::Value& x = call_.values[v];
  switch (x.kind) {
    case Kind::array: return x.count ? uint_of(x.first) : 0;  // `&value`
    case Kind::float32:
    case Kind::float64: return static_cast<std::uint64_t>(x.num.d);
    case Kind::null: return 0;
    default: return x.num.u;
  }
}

std::uint32_t CallDecoder::field(std::uint32_t v, std::string_view name) const {
  if (v != kNil && call_.values[v].kind == Kind::array) v = call_.values[v].count ? call_.values[v].first : kNil;
  if (v == kNil || call_.values[v].kind != Kind::structure) return kNil;
  const auto& names = call_.values[v].struct_sig()->member_names;
  std::uint32_t c = call_.values[v].first;
  for (std::size_t i = 0; i < names.size() && c != kNil; ++i, c = call_.values[c].next)
    if (names[i] == name) return c;
  return kNil;
}

std::vector<std::uint64_t> CallDecoder::handles_of(std::uint32_t v) const {
  std::vector<std::uint64_t> out;
  if (v == kNil) return out;
  const apitrace::Value& x = call_.values[v];
  if (x.kind == Kind::array) {
    for (std::uint32_t c = x.first; c != kNil; c = call_.values[c].next) out.push_back(call_.values[c].num.u);
  } else if (x.kind == Kind::pointer) {
    out.push_back(x.num.u);
  }
  return out;
}

std::uint64_t CallDecoder::handle(std::uint64_t captured, const Member& m) {
  bool missing = false;
  const std::uint64_t h = handles_.get(captured, &missing);
  if (missing && problems_.size() < 8)
    problems_.push_back(std::string("a ") + m.type_name() + " the replay never made (" + m.name() + ")");
  return h;
}

// Whether a recorded value can be what the member holds: a damaged stream
// that still parses puts values under the wrong members.
static bool fits(const Member& m, Kind k, bool element) {
  if (k == Kind::null) return true;
  if (m.fixed_count && m.pointer_depth == 0 && !element)
    return k == Kind::array || (m.type == Type::char_ptr && k == Kind::string);
  if (m.pointer_depth > 0 && !element) {
    switch (k) {
      case Kind::array: return true;
      case Kind::string: return m.type == Type::char_ptr;
      case Kind::blob: return m.type == Type::void_ptr || m.type == Type::u8 || m.type == Type::u32;
      case Kind::pointer: return m.type == Type::void_ptr || m.type == Type::function_ptr || m.type == Type::other;
      default: return false;
    }
  }
  switch (m.type) {
    case Type::u8:
    case Type::u16:
    case Type::u32:
    case Type::u64:
    case Type::s32:
    case Type::s64:
    case Type::size: return k == Kind::uint || k == Kind::sint;
    case Type::bool32: return k == Kind::boolean;
    case Type::f32:
    case Type::f64: return k == Kind::float32 || k == Kind::float64;
    case Type::enum_: return k == Kind::enumeration || k == Kind::sint || k == Kind::uint;
    case Type::bitmask: return k == Kind::bitmask || k == Kind::uint;
    case Type::handle: return k == Kind::pointer || k == Kind::uint;
    case Type::struct_:
    case Type::union_: return k == Kind::structure;
    case Type::other: return k == Kind::blob;
    case Type::char_ptr: return k == Kind::string || k == Kind::array;
    default: return true;
  }
}

void CallDecoder::scalar(const Member& m, std::uint32_t v, char* dst) {
  if (v == kNil) return;
  const apitrace::Value& x = call_.values[v];
  if (!fits(m, x.kind, true)) return mismatch(m);
  switch (m.type) {
    case Type::f32: {
      const float f = static_cast<float>(x.num.d);
      std::memcpy(dst, &f, 4);
      return;
    }
    case Type::f64: std::memcpy(dst, &x.num.d, 8); return;
    case Type::struct_:
    case Type::union_:
      if (m.nested()) structure(*m.nested(), v, dst);
      return;
    case Type::handle:
      if (x.kind == Kind::pointer || x.kind == Kind::uint) store(dst, 8, handle(x.num.u, m));
      return;
    case Type::other:
      if (x.kind == Kind::blob) std::memcpy(dst, call_.bytes.data() + x.data, std::min<std::size_t>(x.len, m.size));
      return;
    case Type::function_ptr:
    case Type::void_ptr:
    case Type::char_ptr:
    case Type::pnext: return;  // the application's addresses mean nothing here
    case Type::enum_:
      // A value the enum does not have (a damaged capture) must not reach the driver.
      if (x.kind == Kind::enumeration && m.enum_info() && !registry::enum_value_name(*m.enum_info(), x.num.i))
        problem_enum(m, x.num.i);
      store(dst, 4, x.num.u);
      return;
    default:
      if (x.kind == Kind::null) return;
      store(dst, scalar_size(m),
            x.kind == Kind::float32 || x.kind == Kind::float64 ? static_cast<std::uint64_t>(x.num.d) : x.num.u);
      return;
  }
}

void* CallDecoder::pnext(std::uint32_t v) {
  if (v == kNil || call_.values[v].kind != Kind::array || !call_.values[v].count) return nullptr;
  const std::uint32_t s = call_.values[v].first;
  if (call_.values[s].kind != Kind::structure) return nullptr;
  const registry::Struct* st = registry::find_struct(call_.values[s].struct_sig()->name);
  if (!st) {
    unknown_.push_back(call_.values[s].struct_sig()->name);
    return nullptr;
  }
  void* dst = arena_.alloc(st->size);
  structure(*st, s, dst);
  return dst;
}

template <typename Addr>
static bool count_of(std::span<const Member> members, std::size_t i, Addr&& addr, std::uint64_t& want);

void CallDecoder::structure(const registry::Struct& s, std::uint32_t v, void* dst) {
  if (v == kNil) return;
  if (call_.values[v].kind == Kind::array) v = call_.values[v].count ? call_.values[v].first : kNil;
  if (v == kNil || call_.values[v].kind != Kind::structure) return;
  const auto members = s.members();
  char* base = static_cast<char*>(dst);
  std::uint32_t c = call_.values[v].first;
  std::size_t i = 0;
  for (; i < members.size() && c != kNil; ++i, c = call_.values[c].next) {
    member(members[i], c, base + members[i].offset, false);
    if (members[i].len()) check_length(members, i, c, [&](std::size_t k) { return base + members[k].offset; });
  }
  // Members a damaged struct signature leaves out are zero: an array among
  // them is NULL, which its count must then allow.
  for (; i < members.size(); ++i) {
    std::uint64_t want = 0;
    if (members[i].len() && !members[i].optional && members[i].type != Type::pnext &&
        count_of(
            members, i, [&](std::size_t k) { return base + members[k].offset; }, want) &&
        want > 0)
      problem_length(members[i], members[i].len(), 0, want);
  }
  if (s.s_type >= 0 && !members.empty()) {
    std::int32_t st = 0;
    std::memcpy(&st, base + members[0].offset, 4);
    if (st != s.s_type) problem_stype(s, st);
  }
}

// A count member's value, where it is an integer (through `uint32_t*` too).
static bool read_count(const Member& len, const char* at, std::uint64_t& out) {
  if (len.pointer_depth == 1) {
    at = *reinterpret_cast<const char* const*>(at);  // `uint32_t* pCount`
    if (!at) return false;
  }
  if (len.pointer_depth > 1 || (len.type != Type::u32 && len.type != Type::u64 && len.type != Type::size)) return false;
  out = 0;
  std::memcpy(&out, at, len.type == Type::u32 ? 4 : 8);
  return true;
}

// How many elements the driver reads or writes through member `i`, from the
// registry's `len`: a member beside it, "codeSize / 4", or a member of a
// struct it points to ("pAllocateInfo->commandBufferCount").
template <typename Addr>
static bool count_of(std::span<const Member> members, std::size_t i, Addr&& addr, std::uint64_t& want) {
  const Member& m = members[i];
  if (m.len_member >= 0) {
    const auto k = static_cast<std::size_t>(m.len_member);
    return read_count(members[k], addr(k), want);
  }
  const char* len = m.len();
  if (!len) return false;
  const std::string_view spec = std::string_view(len).substr(0, std::string_view(len).find(','));
  auto find = [&](std::string_view name) -> std::ptrdiff_t {
    for (std::size_t k = 0; k < members.size(); ++k)
      if (members[k].name() == name) return static_cast<std::ptrdiff_t>(k);
    return -1;
  };
  if (const auto slash = spec.find(" / "); slash != std::string_view::npos) {
    const auto k = find(spec.substr(0, slash));
    const std::uint64_t div = std::strtoull(std::string(spec.substr(slash + 3)).c_str(), nullptr, 10);
    if (k < 0 || !div || !read_count(members[static_cast<std::size_t>(k)], addr(static_cast<std::size_t>(k)), want))
      return false;
    want /= div;
    return true;
  }
  const auto arrow = spec.find("->");
  if (arrow == std::string_view::npos) return false;
  const auto k = find(spec.substr(0, arrow));
  if (k < 0) return false;
  const Member& outer = members[static_cast<std::size_t>(k)];
  if (outer.pointer_depth != 1 || !outer.nested()) return false;
  const char* s = *reinterpret_cast<const char* const*>(addr(static_cast<std::size_t>(k)));
  if (!s) return false;
  for (const Member& inner : outer.nested()->members())
    if (inner.name() == spec.substr(arrow + 2)) return read_count(inner, s + inner.offset, want);
  return false;
}

template <typename Addr>
void CallDecoder::check_length(std::span<const Member> members, std::size_t i, std::uint32_t v, Addr&& addr) {
  // An array shorter than the count beside it would be read (or written)
  // past its end; a NULL one where the spec wants an array, at address 0.
  const Member& m = members[i];
  const apitrace::Value& x = call_.values[v];
  const bool output = m.pointer_depth >= 1 && !m.is_const;
  std::uint64_t have = 0;
  if (x.kind == Kind::array)
    have = x.count;
  else if (x.kind == Kind::blob)
    have = m.type == Type::void_ptr || m.type == Type::u8 ? x.len : x.len / std::max<std::size_t>(1, scalar_size(m));
  else if (x.kind == Kind::string)
    have = x.len;
  else if (x.kind == Kind::pointer && output && m.type == Type::handle)
    have = 1;  // `&handle`
  else if ((x.kind == Kind::null || x.kind == Kind::pointer) && !m.optional)
    have = 0;
  else
    return;
  std::uint64_t want = 0;
  if (!count_of(members, i, addr, want)) return;
  if (want > have) problem_length(m, m.len(), have, want);
}

// The problems' messages are built out of line: their temporaries would
// otherwise take room in every frame of a deep pNext chain (structure,
// member, pnext recurse once per link).
void CallDecoder::problem_enum(const Member& m, std::int64_t value) {
  if (problems_.size() < 8)
    problems_.push_back(std::string("a value ") + m.enum_info()->name() + " does not have (" + m.name() + " = " +
                        std::to_string(value) + ")");
}

void CallDecoder::problem_stype(const registry::Struct& s, std::int32_t s_type) {
  if (problems_.size() < 8)
    problems_.push_back(std::string("a ") + s.name() + " whose sType is " + std::to_string(s_type));
}

void CallDecoder::problem_length(const Member& m, std::string_view len, std::uint64_t have, std::uint64_t want) {
  if (problems_.size() < 8)
    problems_.push_back(std::string(m.name()) + " holds " + std::to_string(have) + " for a " + std::string(len) +
                        " of " + std::to_string(want));
}

void CallDecoder::problem_missing(const Member& m) {
  if (problems_.size() < 8) problems_.push_back(std::string("parameter ") + m.name() + " missing (damaged?)");
}

void CallDecoder::problem_argument(std::size_t i, std::size_t count) {
  if (problems_.size() < 8)
    problems_.push_back("an argument " + std::to_string(i) + " the command does not have (it has " +
                        std::to_string(count) + "; damaged?)");
}

void CallDecoder::mismatch(const Member& m) {
  if (problems_.size() < 8)
    problems_.push_back(std::string("a value of the wrong kind for ") + m.name() + " (damaged?)");
}

void CallDecoder::member(const Member& m, std::uint32_t v, char* dst, bool is_param) {
  if (v == kNil) return;
  const apitrace::Value& x = call_.values[v];
  if (m.type == Type::pnext ? !(x.kind == Kind::null || x.kind == Kind::array)
                            : !fits(m, x.kind, m.pointer_depth == 0 && !m.fixed_count && !m.bit_width))
    return mismatch(m);
  if (m.type == Type::pnext) {
    void* p = pnext(v);
    std::memcpy(dst, &p, sizeof p);
    return;
  }
  if (m.bit_width) {
    std::uint64_t unit = 0;
    std::memcpy(&unit, dst, m.size);
    unit |= (x.num.u & ((std::uint64_t{1} << m.bit_width) - 1)) << m.bit_offset;
    std::memcpy(dst, &unit, m.size);
    return;
  }
  if (m.pointer_depth == 0 && !m.fixed_count) return scalar(m, v, dst);
  if (m.pointer_depth == 0) {  // a fixed array: inline in a struct, a pointer as a parameter
    const std::size_t es = scalar_size(m);
    char* out = dst;
    if (is_param) {
      out = static_cast<char*>(arena_.alloc(es * m.fixed_count + 1));
      std::memcpy(dst, &out, sizeof out);
    }
    if (m.type == Type::char_ptr) {
      if (x.kind == Kind::string)
        std::memcpy(out, call_.bytes.data() + x.data,
                    std::min<std::size_t>(x.len, m.fixed_count ? m.fixed_count - 1 : 0));
      return;
    }
    std::uint32_t c = x.kind == Kind::array ? x.first : kNil;
    for (std::uint32_t i = 0; i < m.fixed_count && c != kNil; ++i, c = call_.values[c].next) scalar(m, c, out + i * es);
    return;
  }
  // Pointers.
  const void* p = nullptr;
  switch (x.kind) {
    case Kind::string: {
      char* s = static_cast<char*>(arena_.alloc(x.len + 1));
      std::memcpy(s, call_.bytes.data() + x.data, x.len);
      p = s;
      break;
    }
    case Kind::blob: {
      char* b = static_cast<char*>(arena_.alloc(x.len));
      std::memcpy(b, call_.bytes.data() + x.data, x.len);
      p = b;
      break;
    }
    case Kind::array: {
      const std::size_t es = element_size(m);
      if (!es) break;
      char* a = static_cast<char*>(arena_.alloc(es * std::max<std::uint32_t>(x.count, 1)));
      std::uint32_t c = x.first;
      for (std::uint32_t i = 0; i < x.count && c != kNil; ++i, c = call_.values[c].next) {
        char* slot = a + i * es;
        if (m.pointer_depth >= 2) {
          const apitrace::Value& e = call_.values[c];
          void* q = nullptr;
          if (e.kind == Kind::string) {
            char* s = static_cast<char*>(arena_.alloc(e.len + 1));
            std::memcpy(s, call_.bytes.data() + e.data, e.len);
            q = s;
          } else if (e.kind == Kind::array && e.count) {
            q = arena_.alloc(scalar_size(m));
            scalar(m, e.first, static_cast<char*>(q));
          }
          std::memcpy(slot, &q, sizeof q);
        } else {
          scalar(m, c, slot);
        }
      }
      p = a;
      break;
    }
    default: break;  // null, or an address recorded as such
  }
  std::memcpy(dst, &p, sizeof p);
}

void CallDecoder::param(std::span<const Member> params, std::size_t i, void* slot) {
  const Member& m = params[i];
  std::memset(slot, 0, 8);
  const std::uint32_t v = arg(i);
  if (v == kNil) return;
  const bool output = m.pointer_depth >= 1 && !m.is_const && m.type != Type::pnext;
  if (output && m.type == Type::handle) {  // storage for what the call makes
    const apitrace::Value& x = call_.values[v];
    const std::size_t n = x.kind == Kind::array ? x.count : 1;
    void* p = x.kind == Kind::null ? nullptr : arena_.alloc(8 * std::max<std::size_t>(n, 1));
    std::memcpy(slot, &p, sizeof p);
    return;
  }
  if (output && m.type == Type::void_ptr && m.pointer_depth == 2) {  // vkMapMemory's ppData
    void* p = arena_.alloc(sizeof(void*));
    std::memcpy(slot, &p, sizeof p);
    return;
  }
  member(m, v, static_cast<char*>(slot), true);
}

void CallDecoder::params(std::span<const Member> params, std::vector<std::uint64_t>& slots, std::vector<void*>& ptrs) {
  slots.assign(params.size(), 0);
  ptrs.resize(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    ptrs[i] = &slots[i];
    param(params, i, &slots[i]);
  }
  check_params(params, ptrs.data());
}

void CallDecoder::check_params(std::span<const Member> params, void* const* slots) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    const std::uint32_t v = arg(i);
    if (v == kNil && !params[i].optional) problem_missing(params[i]);
    // Outputs too: the driver writes as many as the count says, into
    // storage the size of what was recorded.
    if (v != kNil && params[i].len() && params[i].type != Type::pnext)
      check_length(params, i, v, [&](std::size_t k) { return static_cast<const char*>(slots[k]); });
  }
  // A damaged argument number leaves a parameter out (the driver would get
  // NULL or zero for it) and names one the command does not have.
  for (std::size_t i = params.size(); i < call_.args.size(); ++i)
    if (call_.args[i] != kNil) problem_argument(i, params.size());
}

const void* CallDecoder::template_data(const TemplateLayout& layout, std::uint32_t v) {
  if (v == kNil || call_.values[v].kind != Kind::array) return nullptr;
  std::size_t end = 0;
  for (const auto& e : layout.entries) {
    if (!e.count) continue;
    const vktrace::TemplateElement element = vktrace::template_element(e.type);
    const std::size_t last = element == vktrace::TemplateElement::inline_bytes
                                 ? e.offset + e.count
                                 : e.offset + (e.count - 1) * e.stride + vktrace::template_element_size(element);
    end = std::max(end, last);
  }
  char* block = static_cast<char*>(arena_.alloc(end));
  static const registry::Struct* image = registry::find_struct("VkDescriptorImageInfo");
  static const registry::Struct* buffer = registry::find_struct("VkDescriptorBufferInfo");
  std::uint32_t ev = call_.values[v].first;
  for (const auto& e : layout.entries) {
    if (ev == kNil) break;
    const apitrace::Value& x = call_.values[ev];
    const vktrace::TemplateElement element = vktrace::template_element(e.type);
    if (element == vktrace::TemplateElement::inline_bytes) {
      if (x.kind == Kind::blob)
        std::memcpy(block + e.offset, call_.bytes.data() + x.data, std::min<std::size_t>(x.len, e.count));
    } else if (x.kind == Kind::array) {
      std::uint32_t c = x.first;
      for (std::uint32_t k = 0; k < e.count && c != kNil; ++k, c = call_.values[c].next) {
        char* dst = block + e.offset + k * e.stride;
        switch (element) {
          case vktrace::TemplateElement::buffer_info: structure(*buffer, c, dst); break;
          case vktrace::TemplateElement::handle: store(dst, 8, handles_.get(call_.values[c].num.u)); break;
          default: structure(*image, c, dst); break;
        }
      }
    }
    ev = x.next;
  }
  return block;
}

}  // namespace libtrace::replay_trace
