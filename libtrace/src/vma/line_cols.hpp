// SPDX-License-Identifier: MIT
// The fast line parser's pieces (internal to libtrace): the head of a line
// (thread, time, frame, function), then the columns, parsed by code compiled
// once per function from its constant column list. A recording mixes a dozen
// functions line by line, and a loop that dispatches on each column's kind
// does so in code shared by all of them, where branches predict poorly; per
// function, they follow the function. trak-stat also compiles the columns
// per function with only the values it reads kept (vma/stat_chunk.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "vma/line.hpp"
#include "vma/scan.hpp"
#include "vma/schema.hpp"

namespace libtrace::vma::detail {

// Where the line ends if it ends at p ('\n', or "\r\n": the reader drops one
// '\r'); null otherwise.
[[gnu::always_inline]] inline const char* line_end(const char* p) {
  if (*p == '\n') return p;
  if (*p == '\r' && p[1] == '\n') return p + 1;
  return nullptr;
}

// A line's column list: a function's (columns(f)), or for index
// kFunctionCount the six-column vmaCreatePool of the last 1.8 recorder.
inline constexpr std::size_t kColumnLists = kFunctionCount + 1;
template <std::size_t K>
inline constexpr ColList kColumnsOf = K == kFunctionCount ? kSixColumnPool : columns(static_cast<Function>(K));
template <std::size_t K>
inline constexpr Function kFunctionOf = K == kFunctionCount ? Function::CreatePool : static_cast<Function>(K);

// The column parsers' Need: bit i set when column i's value is kept in
// LineCall::num (pointers, booleans and lists always are).
inline constexpr std::uint64_t kAllColumns = ~std::uint64_t{0};

// Thread, time, frame and function of the line at p; returns where the
// function's columns start (at the ',' or line end after its name) and which
// column list they follow, or null when declining the line. Always inlined
// into the callers' line loops (3 % faster than a call per line); `names` is
// name_table(), fetched once outside the loop.
[[gnu::always_inline]] inline const char* parse_head(const char* p, const char* stop, Version version, LineCall& call,
                                                     std::size_t& list, const NameTable& names) {
  // Every field ends at a comma, which is stepped over.
  auto comma = [&] {
    if (*p != ',') return false;
    ++p;
    return true;
  };
  std::uint64_t v = 0;
  if (!(p = scan_dec(p, stop, v)) || v > UINT32_MAX || !comma()) return nullptr;
  call.thread = static_cast<std::uint32_t>(v);
  if (!(p = scan_time(p, stop, call.time)) || !comma()) return nullptr;
  if (!(p = scan_dec(p, stop, v)) || v > UINT32_MAX || !comma()) return nullptr;
  call.frame = static_cast<std::uint32_t>(v);
  const NameMatch* s = match_name(p, stop, names);
  if (!s || version < s->first || version > s->last) return nullptr;
  call.function = s->function;
  p += s->size;  // at ',' or a line end: match_name saw to it
  list = static_cast<std::size_t>(s->function);
  if (s->function == Function::CreatePool && version == Version{1, 8} && *p == ',') {
    // The six columns of the last 1.8 recorder: five more commas.
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p)));
    std::size_t commas = 0;
    for (const char* q = p + 1; q < nl; ++q) commas += *q == ',';
    if (commas == 5) list = kFunctionCount;
  }
  return p;
}

// A number column whose value is not kept: validated as scan_dec and the
// range check would, without computing the value unless it may be out of
// range (10 or more digits for 32 bits, 20 or more for 64).
template <Col C>
[[gnu::always_inline]] inline const char* skip_dec(const char* p, const char* stop) {
  static_assert(C == Col::u32 || C == Col::u64);
  auto digit = [](char ch) { return static_cast<unsigned char>(ch) - unsigned{'0'} < 10; };
  if (!digit(*p)) return nullptr;
  if (!digit(p[1])) return p + 1;  // most numbers have one digit (see scan_dec)
  const char* const start = p;
  p += 2;
  while (digit(*p)) ++p;
  const std::ptrdiff_t n = p - start;
  if (n >= (C == Col::u32 ? 10 : 20)) {
    std::uint64_t v = 0;
    if (!scan_dec(start, stop, v) || (C == Col::u32 && v > UINT32_MAX)) return nullptr;
  }
  return p;
}

// The line ends at p after `numbers` numbers and no text: where the next
// line starts, or null.
[[gnu::always_inline]] inline const char* end_columns(const char* p, LineCall& call, std::size_t numbers) {
  const char* nl = line_end(p);
  if (!nl) return nullptr;
  call.text = {};
  call.has_text = false;
  call.numbers = static_cast<std::uint8_t>(numbers);
  return nl + 1;
}

// Columns I... of L, p just after the comma before column I; NI numbers and
// LI lists parsed so far.
template <const ColList& L, std::uint64_t Need, std::size_t I, std::size_t NI, std::size_t LI>
[[gnu::always_inline]] inline const char* parse_columns(const char* p, const char* stop, LineCall& call) {
  if constexpr (I == L.n) {
    return end_columns(p, call, NI);  // an empty trailing field is tolerated
  } else if constexpr (L.c[I] == Col::text) {
    // Everything left, commas included, but the reader's dropped '\r'.
    const char* nl =
        *p == '\n' ? p : static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p)));
    const char* e = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
    call.has_text = true;
    call.text = std::string_view(p, static_cast<std::size_t>(e - p));
    call.numbers = static_cast<std::uint8_t>(NI);
    return nl + 1;
  } else {
    constexpr Col c = L.c[I];
    if constexpr (c == Col::ptr_list) {
      std::vector<std::uint64_t>& list = call.list[LI];
      list.clear();
      for (;;) {
        if (*p == ' ') {
          ++p;
          continue;
        }
        if (*p == ',' || *p == '\n' || *p == '\r') break;
        std::uint64_t v = 0;
        if (!(p = scan_ptr(p, stop, true, v))) return nullptr;
        list.push_back(v);
      }
    } else if constexpr (c == Col::ptr) {
      if (!(p = scan_ptr(p, stop, false, call.num[NI]))) return nullptr;
    } else if constexpr (((Need >> I) & 1) || c == Col::boolean) {
      constexpr std::uint64_t kMax = c == Col::u32 ? UINT32_MAX : c == Col::u64 ? UINT64_MAX : 1;
      std::uint64_t v = 0;
      if (!(p = scan_dec(p, stop, v)) || v > kMax) return nullptr;
      call.num[NI] = v;
    } else {
      if (!(p = skip_dec<c>(p, stop))) return nullptr;
#ifndef NDEBUG
      call.num[NI] = 0xbad0bad0bad0bad0;  // a reader of a column it left out gets nonsense, in tests
#endif
    }
    constexpr std::size_t ni = NI + (c != Col::ptr_list), li = LI + (c == Col::ptr_list);
    if (*p == ',') return parse_columns<L, Need, I + 1, ni, li>(p + 1, stop, call);
    // The line ends here: fine after the last column or before a text.
    if constexpr (I + 1 == L.n || L.c[I + 1] == Col::text) return end_columns(p, call, ni);
    return nullptr;
  }
}

// The columns of L after the function name, p at the ',' or line end after
// it: where the next line starts, or null when declining the line.
template <const ColList& L, std::uint64_t Need>
const char* line_columns(const char* p, const char* stop, LineCall& call) {
  constexpr std::size_t lists = [] {
    std::size_t n = 0;
    for (std::size_t i = 0; i < L.n; ++i) n += L.c[i] == Col::ptr_list;
    return n;
  }();
  call.lists = lists;
  if (*p == ',') return parse_columns<L, Need, 0, 0, 0>(p + 1, stop, call);
  if constexpr (L.n == 0 || L.c[0] == Col::text) return end_columns(p, call, 0);
  return nullptr;
}

}  // namespace libtrace::vma::detail
