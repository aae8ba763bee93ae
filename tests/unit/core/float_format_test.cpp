// SPDX-License-Identifier: MIT
#include "core/float_format.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

using libtrace::detail::put_float_g7;

namespace {

std::string ref(float f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.7g", static_cast<double>(f));
  return buf;
}

std::string ours(float f) {
  std::string s;
  put_float_g7(s, f);
  return s;
}

}  // namespace

TEST_CASE("float_format: the values apitrace's tests print") {
  for (float f : {0.1f, 1e10f, -1e-07f, 3.14159265f, 0.3333333f, 0.0f, -0.0f, 100000.0f, 1000000.0f, 1e7f, 1.234568e8f,
                  1.5f, 1e-05f, 1e-38f, 3.4e38f, 1e-45f}) {
    CAPTURE(f);
    CHECK(ours(f) == ref(f));
  }
  CHECK(ours(std::nanf("")) == ref(std::nanf("")));
  CHECK(ours(-INFINITY) == "-inf");
}

TEST_CASE("float_format: random bit patterns and neighbours of powers of ten match printf") {
  std::mt19937 rng(2026);
  for (int i = 0; i < 300000; ++i) {
    const std::uint32_t bits = rng();
    float f;
    std::memcpy(&f, &bits, 4);
    if (ours(f) != ref(f)) {
      CAPTURE(bits);
      CHECK(ours(f) == ref(f));
    }
  }
  for (int e = -45; e <= 38; ++e) {
    const auto p = static_cast<float>(std::pow(10.0, e));
    std::uint32_t b;
    std::memcpy(&b, &p, 4);
    for (int d = -300; d <= 300; ++d) {
      const std::uint32_t c = b + static_cast<std::uint32_t>(d);
      float f;
      std::memcpy(&f, &c, 4);
      if (ours(f) != ref(f)) {
        CAPTURE(c);
        CHECK(ours(f) == ref(f));
      }
    }
  }
}
