// SPDX-License-Identifier: MIT
// The column layout of every recorded VMA function (internal to libtrace).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "libtrace/vma/recording.hpp"

namespace libtrace::vma::detail {

// Column kinds after "thread,time,frame,function".
enum class Col : std::uint8_t { u32, u64, boolean, ptr, ptr_list, text };

// The most numbers and lists any function's line has (vmaCreateImage: 20
// numbers; vmaDefragmentationBegin: 2 lists); checked when the table is built.
inline constexpr std::size_t kMaxNumbers = 24, kMaxLists = 2;

// A function's columns as a constant: the fast parsers are compiled once per
// function from these (vma/line_cols.hpp), and Schema::cols is built from
// them. n <= 21 (vmaCreateImage).
struct ColList {
  Col c[kMaxNumbers + kMaxLists] = {};
  std::size_t n = 0;
};

constexpr ColList columns(Function f) {
  using C = Col;
  switch (f) {
    case Function::CreateAllocator:
    case Function::DestroyAllocator: return {};
    case Function::CreatePool: return {{C::u32, C::u32, C::u64, C::u64, C::u64, C::u32, C::ptr}, 7};
    case Function::SetAllocationUserData:
    case Function::SetPoolName: return {{C::ptr, C::text}, 2};
    // The image's or buffer's create info, then VmaAllocationCreateInfo
    // (flags, usage, requiredFlags, preferredFlags, memoryTypeBits, pool),
    // the allocation and the user data.
    case Function::CreateBuffer:
      return {{C::u32, C::u64, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::ptr, C::ptr, C::text}, 12};
    case Function::CreateImage:
      return {{C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32,
               C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::ptr, C::ptr, C::text},
              21};
    case Function::FreeMemoryPages: return {{C::ptr_list}, 1};
    // VkMemoryRequirements (size, alignment, memoryTypeBits), then as above.
    case Function::AllocateMemory:
      return {{C::u64, C::u64, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::ptr, C::ptr, C::text}, 11};
    case Function::AllocateMemoryPages:
      return {{C::u64, C::u64, C::u32, C::u32, C::u32, C::u32, C::u32, C::u32, C::ptr, C::ptr_list, C::text}, 11};
    case Function::AllocateMemoryForBuffer:
    case Function::AllocateMemoryForImage:
      return {{C::u64, C::u64, C::u32, C::boolean, C::boolean, C::u32, C::u32, C::u32, C::u32, C::u32, C::ptr, C::ptr,
               C::text},
              13};
    case Function::FlushAllocation:
    case Function::InvalidateAllocation: return {{C::ptr, C::u64, C::u64}, 3};
    case Function::ResizeAllocation: return {{C::ptr, C::u64}, 2};
    case Function::DefragmentationBegin:
      return {{C::u32, C::ptr_list, C::ptr_list, C::u64, C::u32, C::u64, C::u32, C::ptr, C::ptr}, 9};
    default: return {{C::ptr}, 1};  // one allocation or pool
  }
}

// The last 1.8 recorder (1e97603) dropped vmaCreatePool's frameInUseCount.
inline constexpr ColList kSixColumnPool = {{Col::u32, Col::u32, Col::u64, Col::u64, Col::u64, Col::ptr}, 6};

struct Schema {
  Schema(Function f, std::string_view n, Version a, Version b) : function(f), name(n), first(a), last(b) {}
  Function function;
  std::string_view name;
  Version first, last;
  std::vector<Col> cols;                    // columns(function)
  std::vector<std::string_view> arg_names;  // the spec's parameter names
  std::uint8_t numbers = 0;                 // columns that land in Call::num
  std::uint8_t lists = 0;                   // columns that land in Call::lists
};

const Schema& schema(Function f);

// The function whose name starts at `p` and is followed by ',', a line end
// ('\n' or '\r') or `end`; null when none is. Looks at the 8 bytes after "vma" through a table instead of
// scanning for the comma and hashing the whole name, since the reader does this
// once per line.
const Schema* match_function(const char* p, const char* end);

// What match_name() finds: the function and what the fast parser needs of
// it, kept beside the name in the lookup table (behind a pointer to the
// Schema, the function became known a load later, and the line's columns
// were parsed later).
struct NameMatch {
  Function function = Function::CreateAllocator;
  std::uint32_t size = 0;  // of the name
  Version first, last;
};

// The lookup table behind match_name(): names are told apart by the 8 bytes
// after "vma" (the shortest name has 12 characters), mixed by a
// multiplication whose top bits pick the slot. Names sharing those bytes
// (vmaFreeMemory and vmaFreeMemoryPages, the four vmaAllocateMemory*, the two
// vmaDefragmentation*) share a slot and are compared in turn. Each entry
// keeps the name's bytes at `at` (its two ends and, over 16 bytes, its
// middle; the loads overlap), so the lookup compares them without first
// following a pointer to the name.
struct NameEntry {
  std::array<std::uint64_t, 4> words{};
  std::array<std::uint8_t, 4> at{};
  NameMatch match;  // match.size 0: none
};

inline constexpr int kNameSlotBits = 6;
inline constexpr std::size_t kNamesPerSlot = 4;
// Found by trying odd constants until the 22 distinct prefixes got distinct
// slots; the unit test of every name's round trip would fail otherwise.
inline constexpr std::uint64_t kNameMul = 0x144c2177516369ebull;

struct NameTable {
  std::array<std::array<NameEntry, kNamesPerSlot>, std::size_t{1} << kNameSlotBits> slots{};
};

const NameTable& name_table();

[[gnu::always_inline]] inline std::uint64_t load8(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline std::size_t name_slot(std::uint64_t prefix) {
  return static_cast<std::size_t>((prefix * kNameMul) >> (64 - kNameSlotBits));
}

// As match_function. Inline: the line parsers call it once per line, and a
// call into another file cost a third of its instructions.
[[gnu::always_inline]] inline const NameMatch* match_name(const char* p, const char* end, const NameTable& table) {
  const std::size_t avail = static_cast<std::size_t>(end - p);
  if (avail < 11) return nullptr;
  for (const NameEntry& e : table.slots[name_slot(load8(p + 3))]) {
    const std::size_t n = e.match.size;
    if (!n) return nullptr;
    if (n > avail) continue;
    const bool same = (load8(p + e.at[0]) == e.words[0]) & (load8(p + e.at[1]) == e.words[1]) &
                      (load8(p + e.at[2]) == e.words[2]) & (load8(p + e.at[3]) == e.words[3]);
    if (same && (n == avail || p[n] == ',' || p[n] == '\n' || p[n] == '\r')) return &e.match;
  }
  return nullptr;
}

}  // namespace libtrace::vma::detail
