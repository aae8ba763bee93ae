// SPDX-License-Identifier: MIT
#include "vma/scan.hpp"

#include <doctest/doctest.h>

#include <cinttypes>
#include <cstdio>
#include <random>
#include <string>

using namespace libtrace::vma::detail;

namespace {

// The scanners need a '\n' after the text, as the reader's lines have.
struct Scanned {
  bool ok = false;
  std::size_t used = 0;
};

Scanned run_dec(std::string s, std::uint64_t& v) {
  s += '\n';
  const char* e = scan_dec(s.data(), s.data() + s.size(), v);
  return {e != nullptr, e ? static_cast<std::size_t>(e - s.data()) : 0};
}

Scanned run_time(std::string s, double& v) {
  s += '\n';
  const char* e = scan_time(s.data(), s.data() + s.size(), v);
  return {e != nullptr, e ? static_cast<std::size_t>(e - s.data()) : 0};
}

Scanned run_ptr(std::string s, bool list_item, std::uint64_t& v) {
  s += '\n';
  const char* e = scan_ptr(s.data(), s.data() + s.size(), list_item, v);
  return {e != nullptr, e ? static_cast<std::size_t>(e - s.data()) : 0};
}

}  // namespace

TEST_CASE("vma_scan: scan_dec reads what from_chars reads, up to 64 bits") {
  std::uint64_t v = 0;
  CHECK(run_dec("12552,", v).ok);
  CHECK(v == 12552);
  CHECK(run_dec("12552,", v).used == 5);
  CHECK(run_dec("0", v).ok);
  CHECK(v == 0);
  CHECK(run_dec("18446744073709551615", v).ok);
  CHECK(v == UINT64_MAX);
  CHECK(run_dec("000000000000000000000000042", v).ok);
  CHECK(v == 42);
  CHECK_FALSE(run_dec("18446744073709551616", v).ok);
  CHECK_FALSE(run_dec("99999999999999999999", v).ok);
  CHECK_FALSE(run_dec("", v).ok);
  CHECK_FALSE(run_dec("-1", v).ok);
  CHECK_FALSE(run_dec("+1", v).ok);
  CHECK(run_dec("12x", v).used == 2);
}

TEST_CASE("vma_scan: scan_dec agrees with parse_dec on random digit runs and what follows them") {
  std::mt19937_64 rng(7);
  const std::string after =
      ",\n\r .x/:\x80\xff"
      "0";
  for (int i = 0; i < 200000; ++i) {
    std::string digits;
    const int n = 1 + static_cast<int>(rng() % 22);
    for (int k = 0; k < n; ++k) digits += static_cast<char>('0' + (k == 0 && rng() % 2 ? 1 + rng() % 9 : rng() % 10));
    std::string s = digits;
    // Then a non-digit and anything, so that the 8-byte loads see garbage.
    s += after[rng() % (after.size() - 1)];
    for (int k = static_cast<int>(rng() % 12); k > 0; --k) s += after[rng() % after.size()];
    std::uint64_t want = 0, got = 0;
    const bool ok = parse_dec(digits, want);
    const Scanned r = run_dec(s, got);
    REQUIRE_MESSAGE(r.ok == ok, s);
    if (ok) {
      CHECK_MESSAGE(got == want, s);
      CHECK(r.used == digits.size());
    }
  }
}

TEST_CASE("vma_scan: scan_time rounds exactly as from_chars, declines the rest") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    // %.3f stamps as recorders write them, and arbitrary short decimals.
    std::string s = std::to_string(rng() % (i % 2 ? 100000 : 1000000000));
    const int frac = static_cast<int>(rng() % 9);
    if (frac) s += '.';
    for (int k = 0; k < frac; ++k) s += static_cast<char>('0' + rng() % 10);
    double want = 0, got = -1;
    REQUIRE(parse_time(s, want));
    const Scanned r = run_time(s, got);
    if (s.size() - (frac ? 1 : 0) <= 15) {  // (at most 8 decimals here)
      REQUIRE_MESSAGE(r.ok, s);
      CHECK_MESSAGE(got == want, s);
      CHECK(r.used == s.size());
    } else {
      CHECK_FALSE(r.ok);
    }
  }
  double t = 0;
  CHECK(run_time("0.003", t).ok);
  CHECK(t == 0.003);
  CHECK(run_time("7", t).ok);
  CHECK(t == 7);
  CHECK(run_time("123456.123456789", t).ok);
  CHECK(t == 123456.123456789);
  // Milliseconds have a path of their own: up to 15 digits in all.
  CHECK(run_time("989.255,", t).used == 7);
  CHECK(t == 989.255);
  CHECK(run_time("123456789012.345", t).ok);
  CHECK(t == 123456789012.345);
  CHECK(run_time("0.0015", t).ok);
  CHECK(t == 0.0015);
  // Declined: parse_time decides (it accepts some of these).
  for (const char* s : {"1.", ".5", "-0.5", "inf", "nan", "", "1234567890.1234567", "0.0000000000000001",
                        "0.1234567890", "1234567890123.456"})
    CHECK_FALSE_MESSAGE(run_time(s, t).ok, std::string(s));
  CHECK(run_time("1.5e3", t).used == 3);  // stops before what the caller rejects
}

TEST_CASE("vma_scan: hex16 and scan_ptr read pointers as parse_ptr does") {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t x = i < 64 ? (std::uint64_t{1} << i) - 1 : rng() >> (rng() % 64);
    char buf[32];
    std::snprintf(buf, sizeof buf, i % 2 ? "%016" PRIX64 : "%016" PRIx64, x);
    std::uint64_t got = 0;
    REQUIRE(hex16(buf, got));
    CHECK(got == x);
  }
  // Every non-hex byte in every position is refused.
  for (int c = 0; c < 256; ++c) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    for (int pos = 0; pos < 16; pos += 5) {
      std::string s(16, '0');
      s[static_cast<std::size_t>(pos)] = static_cast<char>(c);
      std::uint64_t v = 0;
      CHECK(hex16(s.data(), v) == hex);
    }
  }
  std::uint64_t v = 1;
  CHECK(run_ptr("000001D85B8B1A80,", false, v).used == 16);
  CHECK(v == 0x000001D85B8B1A80ull);
  CHECK(run_ptr("(nil)", false, v).ok);
  CHECK(v == 0);
  CHECK(run_ptr("0x55d4c2a47108,", false, v).used == 14);
  CHECK(v == 0x55d4c2a47108ull);
  CHECK(run_ptr("8B1A80C0 ", true, v).used == 8);
  CHECK(v == 0x8B1A80C0);
  CHECK_FALSE(run_ptr("8B1A80C0 1", false, v).ok);  // a space ends only list items
  CHECK_FALSE(run_ptr("000001D85B8B1A80A", false, v).ok);
  CHECK_FALSE(run_ptr("0x", false, v).ok);
  CHECK_FALSE(run_ptr("", false, v).ok);
  CHECK_FALSE(run_ptr("000001D85B8B1G80", false, v).ok);
}
