// SPDX-License-Identifier: MIT
#include "capture/trace/encode.hpp"

#include <atomic>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "apitrace/grammar.hpp"
#include "capture/names.hpp"
#include "layer/layer.hpp"

namespace libtrace::capture::trace {

namespace {

namespace grammar = apitrace::grammar;
using registry::Member;
using registry::Struct;
using registry::Type;
using vktrace::scalar_size;

std::atomic<TemplateLookup> g_template_lookup{nullptr};
thread_local std::vector<Touched>* t_collect = nullptr;
thread_local std::vector<Touched>* t_refs = nullptr;

// The kind of every member and parameter that is a handle, by its index in
// the registry's member table: found once, then looked up per value.
Kind handle_kind(const Member& m) {
  static const std::vector<Kind> kinds = [] {
    std::vector<Kind> k;
    auto classify = [](const Member& x) {
      if (x.type != Type::handle) return Kind::none;
      const std::string_view t = x.type_name();
      if (t == "VkBuffer") return Kind::buffer;
      if (t == "VkImage") return Kind::image;
      if (t == "VkImageView") return Kind::image_view;
      if (t == "VkBufferView") return Kind::buffer_view;
      if (t == "VkDescriptorSet") return Kind::descriptor_set;
      if (t == "VkCommandBuffer") return Kind::command_buffer;
      return Kind::none;
    };
    const Member* base = registry::detail::kMembers;
    std::size_t last = 0;
    for (const Struct& st : registry::structs())
      last = std::max<std::size_t>(last, static_cast<std::size_t>(st.members().data() - base) + st.members().size());
    for (const registry::Command& c : registry::commands())
      last = std::max<std::size_t>(last, static_cast<std::size_t>(c.params().data() - base) + c.params().size());
    k.resize(last, Kind::none);
    for (std::size_t i = 0; i < last; ++i) k[i] = classify(base[i]);
    return k;
  }();
  const auto i = static_cast<std::size_t>(&m - registry::detail::kMembers);
  return i < kinds.size() ? kinds[i] : Kind::none;
}

// Where a struct's members or a command's parameters are: a struct's
// members at offsets from its start, parameters each in its own variable.
struct Scope {
  std::span<const Member> members;
  const char* base = nullptr;
  void* const* args = nullptr;
  const char* addr(std::size_t i) const { return args ? static_cast<const char*>(args[i]) : base + members[i].offset; }
};

std::uint64_t load(const void* p, std::size_t n) {
  switch (n) {
    case 1: return *static_cast<const std::uint8_t*>(p);
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

// An integer member or parameter, through one pointer for `uint32_t* pCount`.
std::optional<std::uint64_t> read_int(const Member& m, const char* addr) {
  if (m.pointer_depth == 1) {
    addr = *reinterpret_cast<const char* const*>(addr);
    if (!addr) return std::nullopt;
  } else if (m.pointer_depth > 1) {
    return std::nullopt;
  }
  const std::size_t n = scalar_size(m);
  if (n == 0 || n > 8 || m.type == Type::struct_ || m.type == Type::union_ || m.type == Type::other)
    return std::nullopt;
  return load(addr, n);
}

// The `len` expressions of vk.xml: a member, `a->b`, `(x + 31) / 32`,
// `codeSize / 4`, `2*VK_UUID_SIZE`.
class LenExpr {
 public:
  LenExpr(std::string_view s, const Scope& sc) : s_(s), sc_(sc) {}
  std::optional<std::uint64_t> eval() {
    auto v = sum();
    skip();
    return pos_ == s_.size() ? v : std::nullopt;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  std::optional<std::uint64_t> sum() {
    auto v = product();
    for (skip(); v && pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-'); skip()) {
      const char op = s_[pos_++];
      const auto r = product();
      if (!r) return std::nullopt;
      v = op == '+' ? *v + *r : *v - *r;
    }
    return v;
  }
  std::optional<std::uint64_t> product() {
    auto v = atom();
    for (skip(); v && pos_ < s_.size() && (s_[pos_] == '*' || s_[pos_] == '/'); skip()) {
      const char op = s_[pos_++];
      const auto r = atom();
      if (!r || (op == '/' && *r == 0)) return std::nullopt;
      v = op == '*' ? *v * *r : *v / *r;
    }
    return v;
  }
  std::optional<std::uint64_t> atom() {
    skip();
    if (pos_ >= s_.size()) return std::nullopt;
    if (s_[pos_] == '(') {
      ++pos_;
      auto v = sum();
      skip();
      if (pos_ >= s_.size() || s_[pos_] != ')') return std::nullopt;
      ++pos_;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      std::uint64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) v = v * 10 + (s_[pos_++] - '0');
      return v;
    }
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    const std::string_view name = s_.substr(start, pos_ - start);
    if (name == "VK_UUID_SIZE") return VK_UUID_SIZE;
    for (std::size_t i = 0; i < sc_.members.size(); ++i) {
      if (name != sc_.members[i].name()) continue;
      const Member& m = sc_.members[i];
      if (s_.substr(pos_, 2) != "->") return read_int(m, sc_.addr(i));
      pos_ += 2;
      const std::size_t f = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      const Struct* s = m.nested();
      const char* p = *reinterpret_cast<const char* const*>(sc_.addr(i));
      if (!s || !p || m.pointer_depth != 1) return std::nullopt;
      const Member* field = registry::find_member(*s, s_.substr(f, pos_ - f));
      return field ? read_int(*field, p + field->offset) : std::nullopt;
    }
    return std::nullopt;
  }

  std::string_view s_;
  const Scope& sc_;
  std::size_t pos_ = 0;
};

std::optional<std::uint64_t> eval_len(const Member& m, const Scope& sc) {
  std::string_view len = m.len();
  len = len.substr(0, len.find(','));
  if (m.len_member >= 0) return read_int(sc.members[m.len_member], sc.addr(m.len_member));
  if (len == "null-terminated") return std::nullopt;
  return LenExpr(len, sc).eval();
}

void put_sint(Event& e, std::int64_t v) {
  if (v < 0) {
    e.byte(grammar::kSint);
    e.uint(0 - static_cast<std::uint64_t>(v));
  } else {
    e.byte(grammar::kUint);
    e.uint(static_cast<std::uint64_t>(v));
  }
}

// An enum or bitmask value: the enum's signature (defined on
// first use with its names and values, aliases left out), then the value.
void put_named(Event& e, const registry::Enum& en, bool bitmask, std::uint64_t v) {
  e.byte(bitmask ? grammar::kBitmask : grammar::kEnum);
  const auto id = static_cast<std::uint32_t>(&en - registry::enums().data());
  e.uint(id);
  if (e.define(bitmask ? Sig::bitmask : Sig::enumeration, id)) {
    std::uint64_t n = 0;
    for (const auto& x : en.values()) n += !x.alias;
    e.uint(n);
    for (const auto& x : en.values()) {
      if (x.alias) continue;
      e.str(x.name());
      if (bitmask)
        e.uint(static_cast<std::uint64_t>(x.value));
      else
        put_sint(e, x.value);
    }
    e.end_define();
  }
  if (bitmask)
    e.uint(v);
  else
    put_sint(e, static_cast<std::int64_t>(v));
}

// What the registry cannot say: members that are valid only for some values
// of another (the application may leave garbage in the others).
enum Guard : std::uint8_t { kNone, kImageInfo, kBufferInfo, kTexelView, kImmutableSamplers, kQueueFamilies };

Guard guard_of(const Struct& s, const Member& m) {
  const std::string_view sn = s.name(), mn = m.name();
  if (sn == "VkWriteDescriptorSet") {
    if (mn == "pImageInfo") return kImageInfo;
    if (mn == "pBufferInfo") return kBufferInfo;
    if (mn == "pTexelBufferView") return kTexelView;
  }
  if (sn == "VkDescriptorSetLayoutBinding" && mn == "pImmutableSamplers") return kImmutableSamplers;
  if (mn == "pQueueFamilyIndices" && registry::find_member(s, "sharingMode")) return kQueueFamilies;
  return kNone;
}

// Per struct, whether any member has a guard (most have none).
bool has_guards(const Struct& s) {
  static const std::vector<std::uint8_t> table = [] {
    std::vector<std::uint8_t> t;
    for (const Struct& x : registry::structs()) {
      bool any = false;
      for (const Member& m : x.members()) any = any || guard_of(x, m) != kNone;
      t.push_back(any);
    }
    return t;
  }();
  return table[static_cast<std::size_t>(&s - registry::structs().data())];
}

bool present(const Struct& s, const Member& m, const char* base) {
  const Guard g = guard_of(s, m);
  if (g == kNone) return true;
  if (g == kQueueFamilies) {
    const Member* mode = registry::find_member(s, "sharingMode");
    return load(base + mode->offset, 4) == VK_SHARING_MODE_CONCURRENT;
  }
  const Member* type = registry::find_member(s, "descriptorType");
  const auto t = static_cast<VkDescriptorType>(load(base + type->offset, 4));
  switch (g) {
    case kImageInfo:
      return t == VK_DESCRIPTOR_TYPE_SAMPLER || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
             t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
             t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT || t == VK_DESCRIPTOR_TYPE_SAMPLE_WEIGHT_IMAGE_QCOM ||
             t == VK_DESCRIPTOR_TYPE_BLOCK_MATCH_IMAGE_QCOM;
    case kBufferInfo:
      return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
             t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
    case kTexelView:
      return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    case kImmutableSamplers: return t == VK_DESCRIPTOR_TYPE_SAMPLER || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    default: return true;
  }
}

void put_value(Event& e, const Member& m, const char* addr, const Scope& sc);

void put_pnext(Event& e, const void* p) {
  for (int hops = 0; p && hops < 64; ++hops) {
    const auto* base = static_cast<const VkBaseInStructure*>(p);
    if (const Struct* s = registry::find_struct(base->sType)) {
      put_array(e, 1);
      put_struct(e, *s, p);
      return;
    }
    // Structs this build does not know (the loader's links among them) are
    // left out; the chain goes on past them.
    p = base->pNext;
  }
  put_null(e);
}

// One element of type m.type at p.
void put_scalar(Event& e, const Member& m, const char* p) {
  switch (m.type) {
    case Type::u8:
    case Type::u16:
    case Type::u32:
    case Type::u64:
    case Type::size: put_uint(e, load(p, scalar_size(m))); return;
    case Type::s32: put_sint(e, static_cast<std::int32_t>(load(p, 4))); return;
    case Type::s64: put_sint(e, static_cast<std::int64_t>(load(p, 8))); return;
    case Type::f32:
      e.byte(grammar::kFloat);
      e.bytes(p, 4);
      return;
    case Type::f64:
      e.byte(grammar::kDouble);
      e.bytes(p, 8);
      return;
    case Type::bool32: put_bool(e, load(p, 4) != 0); return;
    case Type::enum_:
      if (m.enum_info())
        put_enum(e, *m.enum_info(), static_cast<std::int32_t>(load(p, 4)));
      else
        put_sint(e, static_cast<std::int32_t>(load(p, 4)));
      return;
    case Type::bitmask:
      if (m.enum_info())
        put_named(e, *m.enum_info(), true, load(p, scalar_size(m)));
      else
        put_uint(e, load(p, 4));
      return;
    case Type::struct_:
    case Type::union_:
      if (m.nested())
        put_struct(e, *m.nested(), p);
      else
        put_null(e);
      return;
    case Type::other: put_blob(e, p, m.size); return;
    case Type::handle: {
      const std::uint64_t h = load(p, 8);
      if (h && (t_collect || t_refs)) {
        const Kind k = handle_kind(m);
        if (t_collect && k != Kind::none) t_collect->push_back({h, k});
        if (t_refs) t_refs->push_back({h, k});
      }
      put_pointer(e, h);
      return;
    }
    default: put_pointer(e, load(p, 8)); return;  // function pointers
  }
}

void put_value(Event& e, const Member& m, const char* addr, const Scope& sc) {
  if (m.type == Type::pnext) return put_pnext(e, *reinterpret_cast<const void* const*>(addr));
  if (m.bit_width) {
    const std::uint64_t unit = load(addr, m.size);
    return put_uint(e, (unit >> m.bit_offset) & ((std::uint64_t{1} << m.bit_width) - 1));
  }
  if (m.pointer_depth == 0) {
    if (!m.fixed_count) return put_scalar(e, m, addr);
    // A parameter declared `const float blendConstants[4]` is a pointer.
    const char* p = sc.args ? *reinterpret_cast<const char* const*>(addr) : addr;
    if (!p) return put_null(e);
    if (m.type == Type::char_ptr) return put_string(e, std::string_view(p, ::strnlen(p, m.fixed_count)));
    const std::size_t es = scalar_size(m);
    put_array(e, m.fixed_count);
    for (std::uint32_t i = 0; i < m.fixed_count; ++i) put_scalar(e, m, p + i * es);
    return;
  }
  const char* p = *reinterpret_cast<const char* const*>(addr);
  if (m.type == Type::void_ptr) {
    if (p && m.pointer_depth == 2) return put_pointer(e, load(p, 8));  // vkMapMemory's ppData
    if (p && m.len()) {
      if (const auto n = eval_len(m, sc)) return put_blob(e, p, *n);
    }
    return put_pointer(e, reinterpret_cast<std::uintptr_t>(p));
  }
  if (m.type == Type::function_ptr || m.type == Type::other) return put_pointer(e, reinterpret_cast<std::uintptr_t>(p));
  if (!p) return put_null(e);
  if (m.type == Type::char_ptr && m.pointer_depth == 1) return put_string(e, p);
  std::optional<std::uint64_t> n = 1;
  if (m.len()) n = eval_len(m, sc);
  if (!n) {
    layer::log_once(kLayerName, std::string("cannot size ") + m.name() + " (len " + m.len() + ")",
                    "its address is recorded, not its contents");
    return put_pointer(e, reinterpret_cast<std::uintptr_t>(p));
  }
  if (m.type == Type::u32 && m.len() && std::string_view(m.len()).find("/ 4") != std::string_view::npos)
    return put_blob(e, p, *n * 4);  // SPIR-V: codeSize / 4 words
  if (m.type == Type::u8 && m.len()) return put_blob(e, p, *n);
  put_array(e, *n);
  if (m.pointer_depth == 2) {
    for (std::uint64_t i = 0; i < *n; ++i) {
      const char* q = reinterpret_cast<const char* const*>(p)[i];
      if (!q) {
        put_null(e);
      } else if (m.type == Type::char_ptr) {
        put_string(e, q);
      } else {
        put_array(e, 1);
        put_scalar(e, m, q);
      }
    }
    return;
  }
  const std::size_t es = scalar_size(m);
  for (std::uint64_t i = 0; i < *n; ++i) put_scalar(e, m, p + i * es);
}

// One array per template entry, as put_param() describes.
void put_template_data(Event& e, const std::vector<TemplateEntry>& entries, const char* p) {
  static const Struct* image = registry::find_struct("VkDescriptorImageInfo");
  static const Struct* buffer = registry::find_struct("VkDescriptorBufferInfo");
  put_array(e, entries.size());
  for (const TemplateEntry& t : entries) {
    const vktrace::TemplateElement element = vktrace::template_element(t.type);
    if (element == vktrace::TemplateElement::inline_bytes) {
      put_blob(e, p + t.offset, t.count);
      continue;
    }
    put_array(e, t.count);
    for (std::uint32_t k = 0; k < t.count; ++k) {
      const char* x = p + t.offset + k * t.stride;
      switch (element) {
        case vktrace::TemplateElement::buffer_info: put_struct(e, *buffer, x); break;
        case vktrace::TemplateElement::handle:
          // Texel buffer views are what a submit reads memory through; an
          // acceleration structure's memory is not followed.
          if (t_collect && load(x, 8) && t.type != VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR)
            t_collect->push_back({load(x, 8), Kind::buffer_view});
          if (t_refs && load(x, 8)) t_refs->push_back({load(x, 8), Kind::none});
          put_pointer(e, load(x, 8));
          break;
        default: put_struct(e, *image, x); break;
      }
    }
  }
}

}  // namespace

bool is_output(const Member& p) { return p.pointer_depth >= 1 && !p.is_const && p.type != Type::pnext; }

void put_null(Event& e) { e.byte(grammar::kNull); }
void put_bool(Event& e, bool v) { e.byte(v ? grammar::kTrue : grammar::kFalse); }
void put_uint(Event& e, std::uint64_t v) {
  e.byte(grammar::kUint);
  e.uint(v);
}
void put_pointer(Event& e, std::uint64_t v) {
  e.byte(grammar::kOpaque);
  e.uint(v);
}
void put_string(Event& e, std::string_view s) {
  e.byte(grammar::kString);
  e.str(s);
}
void put_blob(Event& e, const void* p, std::size_t n) {
  e.byte(grammar::kBlob);
  e.uint(n);
  e.bytes(p, n);
}
void put_array(Event& e, std::uint64_t count) {
  e.byte(grammar::kArray);
  e.uint(count);
}

void put_enum(Event& e, const registry::Enum& en, std::int64_t v) {
  put_named(e, en, false, static_cast<std::uint64_t>(v));
}

void put_struct(Event& e, const Struct& s, const void* p) {
  const char* base = static_cast<const char*>(p);
  e.byte(grammar::kStruct);
  const auto id = static_cast<std::uint32_t>(&s - registry::structs().data());
  e.uint(id);
  const auto members = s.members();
  if (e.define(Sig::structure, id)) {
    e.str(s.name());
    e.uint(members.size());
    for (const Member& m : members) e.str(m.name());
    e.end_define();
  }
  const Scope sc{members, base, nullptr};
  const bool guarded = has_guards(s);
  for (const Member& m : members) {
    if (guarded && !present(s, m, base))
      put_null(e);
    else
      put_value(e, m, base + m.offset, sc);
  }
}

void put_own_struct(Event& e, vktrace::OwnStruct s) {
  e.byte(grammar::kStruct);
  const std::uint32_t id = vktrace::signature_id(s);
  e.uint(id);
  if (e.define(Sig::structure, id)) {
    const vktrace::OwnSignature& sig = vktrace::signature(s);
    e.str(sig.name);
    e.uint(sig.members.size());
    for (const char* m : sig.members) e.str(m);
    e.end_define();
  }
}

void put_param(Event& e, std::span<const Member> params, std::size_t i, void* const* args) {
  const Member& m = params[i];
  const Scope sc{params, nullptr, args};
  if (m.type == Type::void_ptr && m.pointer_depth == 1 && !m.len() && std::string_view(m.name()) == "pData") {
    const char* p = *static_cast<const char* const*>(args[i]);
    const TemplateLookup lookup = g_template_lookup.load();
    std::vector<TemplateEntry> entries;
    for (std::size_t t = 0; p && lookup && t < params.size(); ++t) {
      if (std::string_view(params[t].type_name()) != "VkDescriptorUpdateTemplate") continue;
      if (lookup(*static_cast<const void* const*>(args[0]), load(args[t], 8), entries))
        return put_template_data(e, entries, p);
    }
  }
  put_value(e, m, static_cast<const char*>(args[i]), sc);
}

void begin_enter(Event& e, std::uint32_t thread, std::uint32_t fn_id, std::string_view name,
                 std::span<const char* const> arg_names, bool fake) {
  e.byte(grammar::kEnter);
  e.uint(thread);
  e.uint(fn_id);
  if (e.define(Sig::function, fn_id)) {
    e.str(name);
    e.uint(arg_names.size());
    for (const char* a : arg_names) e.str(a);
    e.end_define();
  }
  if (fake) {
    e.byte(grammar::kCallFlags);
    e.uint(grammar::kWireFake);
  }
}

void begin_own_call(Event& e, std::uint32_t thread, vktrace::OwnCall c) {
  const vktrace::OwnSignature& sig = vktrace::signature(c);
  begin_enter(e, thread, vktrace::signature_id(c), sig.name, sig.members, true);
}

void put_arg(Event& e, std::uint32_t index) {
  e.byte(grammar::kCallArg);
  e.uint(index);
}
void put_ret(Event& e) { e.byte(grammar::kCallRet); }
void end_details(Event& e) { e.byte(grammar::kCallEnd); }

void begin_leave(Event& e, std::uint64_t call_no) {
  e.byte(grammar::kLeave);
  e.uint(call_no);
}

void collect_handles(std::vector<Touched>* out) { t_collect = out; }
void collect_refs(std::vector<Touched>* out) { t_refs = out; }

void set_template_lookup(TemplateLookup fn) { g_template_lookup.store(fn); }

}  // namespace libtrace::capture::trace
