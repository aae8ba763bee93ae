// SPDX-License-Identifier: MIT
// printf("%.7g") for floats without printf: the dump prints millions of them
// (glVertex3f ...), and the general-purpose path costs ~100 ns each.
#include "core/float_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace libtrace::detail {

namespace {

// 10^k for k in [0, 60] as doubles: exact up to 10^22, then within half an
// ulp. A float's 24 bits leave the double 29 bits of slack, so the scaled
// value below is off by less than 1e-8 in its units digit.
struct Powers {
  double t[61];
  constexpr Powers() : t{} {
    t[0] = 1.0;
    for (int k = 1; k <= 60; ++k) t[k] = t[k - 1] * 10.0;
  }
};
constexpr Powers kPowers;

void slow_path(std::string& out, float v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(v), std::chars_format::general, 7);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

}  // namespace

void put_float_g7(std::string& out, float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int biased = static_cast<int>(bits >> 23 & 0xff);
  if (biased == 0 || biased == 0xff) {
    slow_path(out, v);  // 0, -0, subnormals, inf, nan: rare, and signs matter
    return;
  }
  const double a = std::fabs(static_cast<double>(v));
  // a is in [2^e, 2^(e+1)); floor(e * log10(2)) is the decimal exponent, or
  // one less (the multiply-shift is exact for |e| < 1,000).
  const int e = biased - 127;
  int exp10 = (e * 78913) >> 18;
  const int shift = 6 - exp10;
  double x = shift >= 0 ? a * kPowers.t[shift] : a / kPowers.t[-shift];
  if (x >= 1e7) {
    ++exp10;
    x = shift - 1 >= 0 ? a * kPowers.t[shift - 1] : a / kPowers.t[1 - shift];
  }
  auto n = static_cast<std::uint32_t>(x);
  const double frac = x - n;
  // Too close to a rounding tie to decide in this precision: let the exact
  // path do it.
  if (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6) {
    slow_path(out, v);
    return;
  }
  n += frac > 0.5 ? 1u : 0u;
  if (n >= 10000000u) {
    n /= 10;
    ++exp10;
  }
  char digits[8];
  for (int i = 6; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + n % 10);
    n /= 10;
  }
  int len = 7;  // significant digits after dropping trailing zeros
  while (len > 1 && digits[len - 1] == '0') --len;

  // Built on the stack and appended once: a std::string append per
  // character cost a capacity check each.
  char buf[24];
  char* p = buf;
  if (bits >> 31) *p++ = '-';
  if (exp10 < -4 || exp10 >= 7) {
    *p++ = digits[0];
    if (len > 1) {
      *p++ = '.';
      std::memcpy(p, digits + 1, static_cast<std::size_t>(len - 1));
      p += len - 1;
    }
    *p++ = 'e';
    int x10 = exp10;
    *p++ = x10 < 0 ? '-' : '+';
    if (x10 < 0) x10 = -x10;
    *p++ = static_cast<char>('0' + x10 / 10);  // a float's exponent has two digits at most
    *p++ = static_cast<char>('0' + x10 % 10);
  } else if (exp10 >= 0) {
    const int int_digits = exp10 + 1;
    std::memcpy(p, digits, static_cast<std::size_t>(int_digits));
    p += int_digits;
    if (len > int_digits) {
      *p++ = '.';
      std::memcpy(p, digits + int_digits, static_cast<std::size_t>(len - int_digits));
      p += len - int_digits;
    }
  } else {
    *p++ = '0';
    *p++ = '.';
    for (int k = 0; k < -exp10 - 1; ++k) *p++ = '0';
    std::memcpy(p, digits, static_cast<std::size_t>(len));
    p += len;
  }
  out.append(buf, static_cast<std::size_t>(p - buf));
}

}  // namespace libtrace::detail
