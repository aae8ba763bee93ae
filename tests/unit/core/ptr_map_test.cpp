// SPDX-License-Identifier: MIT
#include "core/ptr_map.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>

using libtrace::detail::PtrMap;

TEST_CASE("ptr_map: agrees with std::map under random inserts and erases") {
  for (const std::uint64_t stride : {std::uint64_t{0x48}, std::uint64_t{1}, std::uint64_t{1} << 32}) {
    std::mt19937_64 rng(stride);
    PtrMap<std::string> m;
    std::map<std::uint64_t, std::string> want;
    for (int i = 0; i < 60000; ++i) {
      // Addresses from a small range, as an allocator hands them out, so that
      // keys collide, come back after erasure and probe runs wrap around.
      const std::uint64_t key = 0x1D85B8B0000ull + (rng() % 3000) * stride;
      const std::size_t slot = m.find(key);
      REQUIRE((slot == PtrMap<std::string>::npos) == !want.count(key));
      if (slot == PtrMap<std::string>::npos) {
        const std::size_t at = m.insert(key, std::to_string(i));
        CHECK(m.value(at) == std::to_string(i));
        want[key] = std::to_string(i);
      } else {
        CHECK(m.value(slot) == want[key]);
        if (rng() % 3) {
          m.erase(slot);
          want.erase(key);
        } else {
          m.value(slot) += "+";
          want[key] += "+";
        }
      }
      REQUIRE(m.size() == want.size());
    }
    std::map<std::uint64_t, std::string> seen;
    m.for_each([&](std::uint64_t k, const std::string& v) { seen[k] = v; });
    CHECK(seen == want);
    for (const auto& [k, v] : want) CHECK(m.value(m.find(k)) == v);
  }
}

TEST_CASE("ptr_map: grows past its first slots and empties again") {
  PtrMap<int> m;
  for (int i = 1; i <= 10000; ++i) m.insert(static_cast<std::uint64_t>(i) * 64, i);
  CHECK(m.size() == 10000);
  for (int i = 1; i <= 10000; ++i) {
    const std::size_t s = m.find(static_cast<std::uint64_t>(i) * 64);
    REQUIRE(s != PtrMap<int>::npos);
    CHECK(m.value(s) == i);
    m.erase(s);
  }
  CHECK(m.size() == 0);
  CHECK(m.find(64) == PtrMap<int>::npos);
}

TEST_CASE("ptr_map: tables of 2 MiB and more come 2 MiB-aligned, and keep every entry across growth") {
  libtrace::detail::HugePageAllocator<std::uint64_t> a;
  const std::size_t n = (3u << 20) / sizeof(std::uint64_t);  // 3 MiB: the huge-page path
  std::uint64_t* big = a.allocate(n);
  CHECK(reinterpret_cast<std::uintptr_t>(big) % (std::uintptr_t{2} << 20) == 0);
  for (std::size_t i = 0; i < n; ++i) big[i] = i;  // all of it is usable
  CHECK(big[n - 1] == n - 1);
  a.deallocate(big, n);
  std::uint64_t* small = a.allocate(16);
  small[15] = 1;
  a.deallocate(small, 16);

  // 40,000 keys: the slots (64 bytes each) pass 2 MiB at 32,768 and 4 MiB at 65,536.
  PtrMap<std::uint64_t> m;
  for (std::uint64_t i = 1; i <= 40000; ++i) m.insert(i * 0x48, i);
  for (std::uint64_t i = 1; i <= 40000; ++i) {
    const std::size_t s = m.find(i * 0x48);
    REQUIRE(s != PtrMap<std::uint64_t>::npos);
    CHECK(m.value(s) == i);
  }
}

TEST_CASE("ptr_map: one probe to look a key up and add it where it was missing") {
  PtrMap<int> m;
  for (int i = 1; i <= 3000; ++i) {
    const std::uint64_t key = static_cast<std::uint64_t>(i % 1000 + 1) * 0x48;
    m.reserve_one();
    const std::size_t slot = m.find_or_free(key);
    if (m.holds(slot)) {
      CHECK(m.value(slot) == i - 1000);  // added 1000 steps ago
      m.value(slot) = i;
    } else {
      CHECK(i <= 1000);
      m.insert_at(slot, key, i);
    }
  }
  CHECK(m.size() == 1000);
  CHECK(m.value(m.find(0x48 * 1)) == 3000);
}

TEST_CASE("ptr_map: a claimed slot holds a default value, also after erases and growth moved entries") {
  struct V {
    std::uint64_t a;
    std::uint32_t b;
  };
  PtrMap<V> m;
  for (std::uint64_t i = 1; i <= 5000; ++i) {
    m.reserve_one();
    const std::size_t slot = m.find_or_free(i * 0x40);
    REQUIRE(!m.holds(slot));
    V& v = m.claim(slot, i * 0x40);
    CHECK(v.a == 0);  // never a left-over of an erased or moved entry
    CHECK(v.b == 0);
    v = {i, static_cast<std::uint32_t>(i)};
    if (i % 3 == 0) m.erase(m.find((i - 1) * 0x40));
  }
  CHECK(m.size() == 5000 - 5000 / 3);
  CHECK(m.value(m.find(0x40 * 5000)).a == 5000);
  CHECK(m.find(0x40 * 4997) == PtrMap<V>::npos);  // erased at 4998
}
