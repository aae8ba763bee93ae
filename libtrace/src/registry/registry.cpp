#include "registry/registry.hpp"

#include "registry/registry_internal.hpp"

#include <algorithm>
#include <cstdio>

namespace libtrace::registry {

namespace {

template <class T>
const T* find_named(std::span<const T> table, std::string_view name) {
  auto it = std::ranges::lower_bound(table, name, {}, [](const T& x) { return std::string_view(x.name()); });
  return it != table.end() && name == it->name() ? &*it : nullptr;
}

}  // namespace

const Struct* find_struct(std::string_view name) {
  if (const Struct* s = find_named(structs(), name)) return s;
  const detail::StructAlias* a = find_named(detail::struct_aliases(), name);
  return a ? a->target() : nullptr;
}

const Struct* find_struct(VkStructureType s_type) {
  auto index = detail::stype_index();
  auto it = std::ranges::lower_bound(index, static_cast<std::int32_t>(s_type), {}, &detail::STypeEntry::s_type);
  return it != index.end() && it->s_type == s_type ? it->target() : nullptr;
}

const Enum* find_enum(std::string_view name) {
  if (const Enum* e = find_named(enums(), name)) return e;
  const detail::EnumAlias* a = find_named(detail::enum_aliases(), name);
  return a ? a->target() : nullptr;
}

const Command* find_command(std::string_view name) { return find_named(commands(), name); }

const FormatInfo* find_format(VkFormat f) {
  const auto it = std::ranges::lower_bound(formats(), f, {}, &FormatInfo::format);
  return it != formats().end() && it->format == f ? &*it : nullptr;
}

const char* enum_value_name(const Enum& e, std::int64_t value) {
  // Sorted by value with the non-alias name first among equal values.
  const std::span<const EnumValue> values = e.values();
  auto it = std::ranges::lower_bound(values, value, {}, &EnumValue::value);
  return it != values.end() && it->value == value ? it->name() : nullptr;
}

const EnumValue* find_enum_value(const Enum& e, std::string_view name) {
  const std::span<const EnumValue> values = e.values();
  auto it = std::ranges::find(values, name, [](const EnumValue& v) { return std::string_view(v.name()); });
  return it != values.end() ? &*it : nullptr;
}

std::string flag_names(const Enum& e, std::uint64_t bits, std::string_view prefix) {
  std::string s;
  for (const EnumValue& v : e.values()) {
    const auto bit = static_cast<std::uint64_t>(v.value);
    if (v.alias || !bit || (bit & (bit - 1)) || !(bits & bit)) continue;
    std::string_view name = v.name();
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    std::string n(name);
    if (const auto at = n.find("_BIT"); at != std::string::npos && (at + 4 == n.size() || n[at + 4] == '_'))
      n.erase(at, 4);
    if (!s.empty()) s += '|';
    s += n;
    bits &= ~bit;
  }
  if (bits) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(bits));
    if (!s.empty()) s += '|';
    s += hex;
  }
  return s.empty() ? "none" : s;
}

const Member* find_member(const Struct& s, std::string_view name) {
  const std::span<const Member> members = s.members();
  auto it = std::ranges::find(members, name, [](const Member& m) { return std::string_view(m.name()); });
  return it != members.end() ? &*it : nullptr;
}

}  // namespace libtrace::registry
