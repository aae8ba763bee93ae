// SPDX-License-Identifier: MIT
// printf("%.7g") for floats without printf: the dump prints millions of them
// (glVertex3f ...), and the general-purpose path costs ~100 ns each.
#include "core/float_format.hpp"

#include <charconv>
#include <cmath>
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
  if (!std::isfinite(v) || v == 0.0f) {
    slow_path(out, v);  // nan, -nan, inf, 0, -0: rare, and signs matter
    return;
  }
  const double a = std::fabs(static_cast<double>(v));
  int e2 = 0;
  std::frexp(a, &e2);  // a in [2^(e2-1), 2^e2)
  // log10(2) * (e2 - 1) rounded down: the decimal exponent, or one less.
  int exp10 = static_cast<int>(std::floor((e2 - 1) * 0.30102999566398120));
  const int shift = 6 - exp10;
  if (shift > 60 || shift < -60) {
    slow_path(out, v);
    return;
  }
  double x = shift >= 0 ? a * kPowers.t[shift] : a / kPowers.t[-shift];
  if (x >= 1e7) {
    ++exp10;
    x = shift - 1 >= 0 ? a * kPowers.t[shift - 1] : a / kPowers.t[1 - shift];
  }
  const double whole = std::floor(x);
  const double frac = x - whole;
  // Too close to a rounding tie to decide in this precision: let the exact
  // path do it.
  if (std::fabs(frac - 0.5) < 1e-6) {
    slow_path(out, v);
    return;
  }
  auto n = static_cast<std::uint32_t>(whole) + (frac > 0.5 ? 1u : 0u);
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

  if (v < 0) out += '-';
  if (exp10 < -4 || exp10 >= 7) {
    out += digits[0];
    if (len > 1) {
      out += '.';
      out.append(digits + 1, static_cast<std::size_t>(len - 1));
    }
    out += 'e';
    int e = exp10;
    out += e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e < 10) out += '0';
    char eb[8];
    auto r = std::to_chars(eb, eb + sizeof eb, e);
    out.append(eb, static_cast<std::size_t>(r.ptr - eb));
  } else if (exp10 >= 0) {
    const int int_digits = exp10 + 1;
    out.append(digits, static_cast<std::size_t>(int_digits));
    if (len > int_digits) {
      out += '.';
      out.append(digits + int_digits, static_cast<std::size_t>(len - int_digits));
    }
  } else {
    out += "0.";
    out.append(static_cast<std::size_t>(-exp10 - 1), '0');
    out.append(digits, static_cast<std::size_t>(len));
  }
}

}  // namespace libtrace::detail
