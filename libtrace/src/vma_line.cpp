// SPDX-License-Identifier: MIT
// One call line of a VMA recording: the reference parser, with the quirks of
// real files (see ../shared/reference/vma.md §1.5), and the fast parser the
// reader tries first.
#include "vma_line.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "vma_schema.hpp"

namespace libtrace::vma::detail {

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string_view next_field(std::string_view& s, bool& more) {
  const std::size_t c = s.find(',');
  std::string_view f = s.substr(0, c);
  more = c != std::string_view::npos;
  s = more ? s.substr(c + 1) : std::string_view{};
  return f;
}

bool parse_dec(std::string_view f, std::uint64_t& out) {
  if (f.empty()) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

bool parse_ptr(std::string_view f, std::uint64_t& out) {
  if (f == "(nil)") {
    out = 0;
    return true;
  }
  if (f.size() > 2 && f[0] == '0' && (f[1] == 'x' || f[1] == 'X')) f.remove_prefix(2);
  if (f.empty() || f.size() > 16) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out, 16);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

bool parse_time(std::string_view f, double& out) {
  if (f.empty()) return false;
  auto r = std::from_chars(f.data(), f.data() + f.size(), out);
  return r.ec == std::errc() && r.ptr == f.data() + f.size();
}

const char* scan_dec(const char* p, const char* end, std::uint64_t& out) {
  (void)end;  // the non-digit past the line stops the loop
  const char* const start = p;
  std::uint64_t v = 0;
  for (unsigned d; (d = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10; ++p) v = v * 10 + d;
  const std::ptrdiff_t n = p - start;
  if (n == 0) return nullptr;
  // 19 digits cannot overflow 64 bits; longer numbers (VK_WHOLE_SIZE has 20)
  // are read again with checked arithmetic.
  if (n > 19) {
    v = 0;
    for (const char* q = start; q < p; ++q)
      if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, static_cast<std::uint64_t>(*q - '0'), &v))
        return nullptr;
  }
  out = v;
  return p;
}

const char* scan_time(const char* p, const char* end, double& out) {
  (void)end;  // the non-digit past the line stops the loops
  static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char* const start = p;
  std::uint64_t m = 0;
  // Wraps harmlessly past 19 digits: such a time is declined below.
  for (unsigned d; (d = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10; ++p) m = m * 10 + d;
  const std::ptrdiff_t whole = p - start;
  if (whole == 0) return nullptr;
  std::ptrdiff_t frac = 0;
  if (*p == '.') {
    const char* const dot = ++p;
    for (unsigned d; (d = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10; ++p) m = m * 10 + d;
    frac = p - dot;
    if (frac == 0) return nullptr;
  }
  if (whole + frac > 15) return nullptr;
  out = static_cast<double>(m) / kPow10[frac];
  return p;
}

bool hex16(const char* p, std::uint64_t& out) {
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
  const __m128i pairs = _mm_and_si128(_mm_or_si128(_mm_slli_epi16(nibbles, 4), _mm_srli_epi16(nibbles, 8)),
                                      _mm_set1_epi16(0x00ff));
  const auto be = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)));
  out = __builtin_bswap64(be);
  return true;
#else
  std::uint64_t v = 0;
  for (int i = 0; i < 16; ++i) {
    const unsigned char ch = static_cast<unsigned char>(p[i]);
    unsigned n;
    if (ch - '0' < 10u) n = ch - '0';
    else if ((ch | 0x20) - 'a' < 6u) n = (ch | 0x20) - 'a' + 10;
    else return false;
    v = v << 4 | n;
  }
  out = v;
  return true;
#endif
}

const char* scan_ptr(const char* p, const char* end, bool list_item, std::uint64_t& out) {
  auto stops = [list_item](char ch) { return ch == ',' || ch == '\n' || ch == '\r' || (list_item && ch == ' '); };
  if (end - p > 16 && stops(p[16]) && hex16(p, out)) return p + 16;
  const char* e = p;
  while (e < end && !stops(*e)) ++e;
  return parse_ptr(std::string_view(p, static_cast<std::size_t>(e - p)), out) ? e : nullptr;
}

namespace {

// The last 1.8 recorder (1e97603) dropped frameInUseCount: 6 columns.
constexpr Col kSixColumnPool[] = {Col::u32, Col::u32, Col::u64, Col::u64, Col::u64, Col::ptr};

bool six_column_pool(Function f, Version version, bool more, std::string_view rest) {
  return f == Function::CreatePool && version == Version{1, 8} && more &&
         std::count(rest.begin(), rest.end(), ',') == 5;
}

}  // namespace

std::optional<std::string> parse_call(std::string_view line, Version version, Call& call) {
  bool more = false;
  std::uint64_t v = 0;
  std::string_view rest = line;
  if (!parse_dec(next_field(rest, more), v) || !more || v > UINT32_MAX) return "bad thread id";
  call.thread = static_cast<std::uint32_t>(v);
  if (!parse_time(next_field(rest, more), call.time) || !more) return "bad time";
  if (!parse_dec(next_field(rest, more), v) || !more || v > UINT32_MAX) return "bad frame index";
  call.frame = static_cast<std::uint32_t>(v);
  const std::string_view fname = next_field(rest, more);
  const auto f = function_from_name(fname);
  if (!f) return "unknown function '" + std::string(fname) + "'";
  call.function = *f;
  const Schema& s = schema(*f);
  if (version < s.first || version > s.last)
    return std::string(fname) + " is not recorded by format " + version.str() + " (only " + s.first.str() + " to " +
           s.last.str() + ")";
  call.num.clear();
  call.lists.clear();
  call.text.clear();
  call.has_text = false;
  const Col* cols = s.cols.data();
  std::size_t ncols = s.cols.size();
  if (six_column_pool(*f, version, more, rest)) {
    cols = kSixColumnPool;
    ncols = std::size(kSixColumnPool);
  }
  for (std::size_t i = 0; i < ncols; ++i) {
    if (cols[i] == Col::text) {
      call.has_text = more;
      call.text = std::string(rest);  // everything left, commas included
      rest = {};
      more = false;
      break;
    }
    if (!more) return std::string(fname) + ": too few columns (" + std::to_string(i) + " of " + std::to_string(ncols) + ")";
    const std::string_view field = next_field(rest, more);
    const auto column = [i] { return " in column " + std::to_string(i + 5); };
    switch (cols[i]) {
      case Col::u32:
      case Col::u64:
      case Col::boolean:
        if (!parse_dec(field, v)) return std::string(fname) + ": bad number '" + std::string(field) + "'" + column();
        if (cols[i] == Col::u32 && v > UINT32_MAX) return std::string(fname) + ": value out of range" + column();
        if (cols[i] == Col::boolean && v > 1) return std::string(fname) + ": expected 0 or 1" + column();
        call.num.push_back(v);
        break;
      case Col::ptr:
        if (!parse_ptr(field, v)) return std::string(fname) + ": bad pointer '" + std::string(field) + "'" + column();
        call.num.push_back(v);
        break;
      case Col::ptr_list: {
        std::vector<std::uint64_t> list;
        std::string_view items = field;
        while (!items.empty()) {
          const std::size_t sp = items.find(' ');
          const std::string_view item = items.substr(0, sp);
          items = sp == std::string_view::npos ? std::string_view{} : items.substr(sp + 1);
          if (item.empty()) continue;
          if (!parse_ptr(item, v)) return std::string(fname) + ": bad pointer '" + std::string(item) + "' in a list";
          list.push_back(v);
        }
        call.lists.push_back(std::move(list));
        break;
      }
      case Col::text:
        break;
    }
  }
  // A fixed-arity line must end here; an empty trailing field (the comma the
  // recorder leaves before empty user data) is tolerated.
  if (more && !trim_right(rest).empty()) return std::string(fname) + ": too many columns";
  return std::nullopt;
}

namespace {

// Where the line ends if it ends at p ('\n', or "\r\n": the reader drops one
// '\r'); null otherwise.
const char* line_end(const char* p) {
  if (*p == '\n') return p;
  if (*p == '\r' && p[1] == '\n') return p + 1;
  return nullptr;
}

}  // namespace

const char* parse_call_fast(const char* p, const char* stop, Version version, Call& call) {
  // Every field but the last ends at a comma, which is stepped over.
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
  const Schema* s = match_function(p, stop);
  if (!s || version < s->first || version > s->last) return nullptr;
  call.function = s->function;
  p += s->name.size();
  bool more = comma();  // else match_function saw the line end
  const Col* cols = s->cols.data();
  std::size_t ncols = s->cols.size();
  if (s->function == Function::CreatePool && version == Version{1, 8} && more) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p)));
    if (six_column_pool(s->function, version, more, std::string_view(p, static_cast<std::size_t>(nl - p)))) {
      cols = kSixColumnPool;
      ncols = std::size(kSixColumnPool);
    }
  }
  std::uint64_t nums[32];
  std::size_t n = 0, l = 0;
  call.lists.resize(s->lists);
  call.has_text = false;
  for (std::size_t i = 0; i < ncols; ++i) {
    const Col c = cols[i];
    if (c == Col::text) {
      // Everything left, commas included, but the reader's dropped '\r'.
      const char* nl = line_end(p);
      const char* e = p;
      if (more) {
        if (*p != '\n') nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p)));
        e = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
      } else if (!nl) {
        return nullptr;
      }
      call.has_text = more;
      call.text.assign(p, static_cast<std::size_t>(e - p));
      call.num.assign(nums, nums + n);
      return nl + 1;
    }
    if (!more) return nullptr;
    switch (c) {
      case Col::u32:
      case Col::u64:
      case Col::boolean:
        if (!(p = scan_dec(p, stop, v))) return nullptr;
        if ((c == Col::u32 && v > UINT32_MAX) || (c == Col::boolean && v > 1)) return nullptr;
        nums[n++] = v;
        break;
      case Col::ptr:
        if (!(p = scan_ptr(p, stop, false, v))) return nullptr;
        nums[n++] = v;
        break;
      case Col::ptr_list: {
        std::vector<std::uint64_t>& list = call.lists[l++];
        list.clear();
        for (;;) {
          if (*p == ' ') {
            ++p;
            continue;
          }
          if (*p == ',' || *p == '\n' || *p == '\r') break;
          if (!(p = scan_ptr(p, stop, true, v))) return nullptr;
          list.push_back(v);
        }
        break;
      }
      case Col::text:
        break;
    }
    more = comma();
    if (!more && !line_end(p)) return nullptr;
  }
  // A fixed-arity line must end here; an empty trailing field (the comma the
  // recorder leaves before empty user data) is tolerated (blanks in it are
  // left to parse_call).
  const char* nl = line_end(p);
  if (!nl) return nullptr;
  call.text.clear();
  call.num.assign(nums, nums + n);
  return nl + 1;
}

}  // namespace libtrace::vma::detail
