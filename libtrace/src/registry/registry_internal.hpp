#pragma once
// Lookup indexes shared by the generated tables and registry.cpp.

#include "registry/registry.hpp"

namespace libtrace::registry::detail {

struct STypeEntry {
  std::int32_t s_type;
  const Struct* s;
};
struct StructAlias {
  const char* name;
  const Struct* s;
};
struct EnumAlias {
  const char* name;
  const Enum* e;
};

// Each sorted by its first member (names byte-wise, as std::string_view compares).
std::span<const STypeEntry> stype_index();
std::span<const StructAlias> struct_aliases();
std::span<const EnumAlias> enum_aliases();

}  // namespace libtrace::registry::detail
