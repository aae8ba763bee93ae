// SPDX-License-Identifier: MIT
// Field scanners for VMA recording lines (internal to libtrace): the format's
// whole-field rules, and inline scanners for the fast line parser, which
// accept only what the whole-field rules accept, with the same value.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace libtrace::vma::detail {

// The whole-field rules (vma/line.cpp).
std::string_view trim_right(std::string_view s);
// Splits off the next comma-separated field; `more` says whether a comma
// followed it.
std::string_view next_field(std::string_view& s, bool& more);
// Decimal digits only, within 64 bits.
bool parse_dec(std::string_view f, std::uint64_t& out);
// MSVC's %p (16 upper-case digits), glibc's (0x..., "(nil)"), 8-digit 32-bit.
bool parse_ptr(std::string_view f, std::uint64_t& out);
// Seconds as std::from_chars reads a double.
bool parse_time(std::string_view f, double& out);

// The scanners are always inlined: the per-function column parsers
// (vma/line_cols.hpp) call them many times over, and GCC otherwise stops
// inlining them there, which cost trak-stat a fifth more time.
//
// The scanners read one value starting at `p`, stop at the first character
// that is not part of it and return where they stopped, or null when they
// decline (then the reference parser decides). [p, stop) must end with a
// '\n', which ends every digit run without a bounds check.

// 1 to 20 digits within 64 bits. A plain loop: the '\n' ending the line
// stops it, and it was faster than reading 8 digits at once, as most numbers
// here have one to six. The first two digits are read before it: most
// numbers have one, and ending those before the loop made the fast parser 7 %
// faster (the loop's exit branch then follows fewer patterns).
[[gnu::always_inline]] inline const char* scan_dec(const char* p, const char* stop, std::uint64_t& out) {
  (void)stop;
  const unsigned d0 = static_cast<unsigned char>(*p) - unsigned{'0'};
  if (d0 >= 10) return nullptr;
  const unsigned d1 = static_cast<unsigned char>(p[1]) - unsigned{'0'};
  if (d1 >= 10) {
    out = d0;
    return p + 1;
  }
  const char* const start = p;
  std::uint64_t v = d0 * 10 + d1;
  p += 2;
  for (unsigned d; (d = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10; ++p) v = v * 10 + d;
  // 19 digits cannot overflow 64 bits; longer numbers (VK_WHOLE_SIZE has 20)
  // are read again with checked arithmetic.
  if (p - start > 19) {
    v = 0;
    for (const char* q = start; q < p; ++q)
      if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, static_cast<std::uint64_t>(*q - '0'), &v))
        return nullptr;
  }
  out = v;
  return p;
}

// "D+" or "D+.D+" with at most 15 digits in all: the mantissa and the power of
// ten are then exact doubles, so one division rounds exactly as from_chars
// does (Clinger's fast path).
[[gnu::always_inline]] inline const char* scan_time(const char* p, const char* stop, double& out) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  static constexpr std::uint64_t kPow10i[] = {1,      10,      100,      1000,      10000,
                                              100000, 1000000, 10000000, 100000000, 1000000000};
  std::uint64_t whole = 0, frac = 0;
  const char* q = scan_dec(p, stop, whole);
  if (!q || q - p > 15) return nullptr;
  if (*q != '.') {
    out = static_cast<double>(whole);
    return q;
  }
  // Milliseconds (%.3f), as recorders write them, without the digit loop.
  auto digit = [](char ch) { return static_cast<unsigned>(static_cast<unsigned char>(ch) - unsigned{'0'}); };
  if (digit(q[1]) < 10 && digit(q[2]) < 10 && digit(q[3]) < 10 && digit(q[4]) >= 10 && q - p <= 12) {
    out = static_cast<double>(whole * 1000 + digit(q[1]) * 100 + digit(q[2]) * 10 + digit(q[3])) / 1e3;
    return q + 4;
  }
  const char* e = scan_dec(q + 1, stop, frac);
  if (!e) return nullptr;
  const std::ptrdiff_t digits = e - (q + 1);
  if ((q - p) + digits > 15 || digits > 9) return nullptr;
  out = static_cast<double>(whole * kPow10i[digits] + frac) / kPow10[digits];
  return e;
}

// Exactly 16 hex digits (either case) at p: MSVC's %p, the common spelling.
[[gnu::always_inline]] inline bool hex16(const char* p, std::uint64_t& out) {
#if defined(__SSE2__)
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // Unsigned "x <= limit" per byte: min(x, limit) == x.
  const __m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));
  const __m128i is_digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
  const __m128i l = _mm_sub_epi8(_mm_or_si128(c, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
  const __m128i is_letter = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l);
  if (_mm_movemask_epi8(_mm_or_si128(is_digit, is_letter)) != 0xffff) return false;
  const __m128i nibbles =
      _mm_or_si128(_mm_and_si128(is_digit, d), _mm_andnot_si128(is_digit, _mm_add_epi8(l, _mm_set1_epi8(10))));
  // Each 16-bit lane holds two digits, the first in its low byte: first << 4
  // | second lands in the low byte, and packing the lanes gives the value's
  // bytes most significant first.
  const __m128i pairs =
      _mm_and_si128(_mm_or_si128(_mm_slli_epi16(nibbles, 4), _mm_srli_epi16(nibbles, 8)), _mm_set1_epi16(0x00ff));
  const auto be = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)));
  out = __builtin_bswap64(be);
  return true;
#else
  std::uint64_t v = 0;
  for (int i = 0; i < 16; ++i) {
    const unsigned ch = static_cast<unsigned char>(p[i]);
    unsigned n;
    if (ch - '0' < 10u)
      n = ch - '0';
    else if ((ch | 0x20) - 'a' < 6u)
      n = (ch | 0x20) - 'a' + 10;
    else
      return false;
    v = v << 4 | n;
  }
  out = v;
  return true;
#endif
}

// A pointer ending at ',', a line end, or for a list item also at ' '.
[[gnu::always_inline]] inline const char* scan_ptr(const char* p, const char* stop, bool list_item,
                                                   std::uint64_t& out) {
  auto stops = [list_item](char ch) { return ch == ',' || ch == '\n' || ch == '\r' || (list_item && ch == ' '); };
  if (stop - p > 16 && stops(p[16]) && hex16(p, out)) return p + 16;
  const char* e = p;
  while (e < stop && !stops(*e)) ++e;
  return parse_ptr(std::string_view(p, static_cast<std::size_t>(e - p)), out) ? e : nullptr;
}

}  // namespace libtrace::vma::detail
