// SPDX-License-Identifier: MIT
// The column layout of every recorded VMA function (internal to libtrace).
#pragma once

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

struct Schema {
  Schema(Function f, std::string_view n, Version a, Version b, std::vector<Col> c)
      : function(f), name(n), first(a), last(b), cols(std::move(c)) {}
  Function function;
  std::string_view name;
  Version first, last;
  std::vector<Col> cols;
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

}  // namespace libtrace::vma::detail
