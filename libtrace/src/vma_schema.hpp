// SPDX-License-Identifier: MIT
// The column layout of every recorded VMA function (internal to libtrace).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "libtrace/vma.hpp"

namespace libtrace::vma::detail {

// Column kinds after "thread,time,frame,function".
enum class Col : std::uint8_t { u32, u64, boolean, ptr, ptr_list, text };

// The most numbers and lists any function's line has (vmaCreateImage: 20
// numbers; vmaDefragmentationBegin: 2 lists); checked when the table is built.
inline constexpr std::size_t kMaxNumbers = 24, kMaxLists = 2;

// A function's columns as a constant: the fast parsers are compiled once per
// function from these (vma_line_cols.hpp), and Schema::cols is built from
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
      return {{C::u64, C::u64, C::u32, C::boolean, C::boolean, C::u32, C::u32, C::u32, C::u32, C::u32, C::ptr,
               C::ptr, C::text},
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
  std::vector<Col> cols;  // columns(function)
  std::vector<std::string_view> arg_names;  // the spec's parameter names
  std::uint8_t numbers = 0;  // columns that land in Call::num
  std::uint8_t lists = 0;    // columns that land in Call::lists
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

// As match_function.
const NameMatch* match_name(const char* p, const char* end);

}  // namespace libtrace::vma::detail
