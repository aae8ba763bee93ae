#pragma once
// Lookup indexes shared by the generated tables and registry.cpp. Like the
// tables, they hold no pointers: positions in kStrings and table indexes.

#include "registry/registry.hpp"

namespace libtrace::registry::detail {

struct STypeEntry {
  std::int32_t s_type;
  std::uint32_t struct_index;

  const Struct* target() const { return &kStructs[struct_index]; }
};
struct StructAlias {
  std::uint32_t name_pos;
  std::uint32_t struct_index;

  const char* name() const { return string_at(name_pos); }
  const Struct* target() const { return &kStructs[struct_index]; }
};
struct EnumAlias {
  std::uint32_t name_pos;
  std::uint32_t enum_index;

  const char* name() const { return string_at(name_pos); }
  const Enum* target() const { return &kEnums[enum_index]; }
};

// Each sorted by its first member (names byte-wise, as std::string_view compares).
std::span<const STypeEntry> stype_index();
std::span<const StructAlias> struct_aliases();
std::span<const EnumAlias> enum_aliases();

}  // namespace libtrace::registry::detail
