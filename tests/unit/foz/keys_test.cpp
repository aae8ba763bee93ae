// SPDX-License-Identifier: MIT
// The flat (tag, hash) tables: growth, same hash under different tags,
// hashes that collide in the low bits, values kept across growth.
#include <doctest/doctest.h>

#include <map>
#include <random>

#include "foz/keys.hpp"

namespace foz = libtrace::foz;
using foz::Tag;
using libtrace::foz::detail::KeyMap;
using libtrace::foz::detail::KeySet;
using libtrace::foz::detail::PackedKeyMap;

TEST_CASE("foz keys: packed map against std::map, 300k keys, growth and replacement") {
  PackedKeyMap m;
  std::map<std::pair<unsigned, std::uint64_t>, std::uint64_t> ref;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 300000; ++i) {
    const unsigned tag = static_cast<unsigned>(rng() % foz::kTagCount);
    // Low-entropy hashes on purpose: multiples of 4096 collide in the low bits.
    const std::uint64_t hash = (rng() % 50000) << 12;
    const std::uint64_t v = rng() & PackedKeyMap::kMaxValue;
    if (i % 64 == 0) m.prefetch(static_cast<Tag>(tag), hash);
    const auto [got, fresh] = m.try_emplace(static_cast<Tag>(tag), hash, v);
    const auto [it, ref_fresh] = ref.emplace(std::pair{tag, hash}, v);
    REQUIRE(fresh == ref_fresh);
    REQUIRE(got == it->second);
    if (i % 7 == 0) {
      m.set(static_cast<Tag>(tag), hash, v ^ 1);
      it->second = v ^ 1;
    }
  }
  CHECK(m.size() == ref.size());
  std::size_t seen = 0;
  m.for_each([&](Tag t, std::uint64_t hash, std::uint64_t v) {
    CHECK(ref.at({static_cast<unsigned>(t), hash}) == v);
    ++seen;
  });
  CHECK(seen == ref.size());
  CHECK_FALSE(m.find(Tag::sampler, 1));
}

TEST_CASE("foz keys: the same hash under two tags is two keys; zero is a hash like any other") {
  KeySet s;
  CHECK(s.try_emplace(Tag::sampler, 0).second);
  CHECK(s.try_emplace(Tag::bucket_info, 0).second);
  CHECK_FALSE(s.try_emplace(Tag::sampler, 0).second);
  CHECK(s.contains(Tag::bucket_info, 0));
  CHECK_FALSE(s.contains(Tag::application_info, 0));
  CHECK(s.size() == 2);
  KeyMap<int> m;
  for (int i = 0; i < 5000; ++i) *m.try_emplace(Tag::shader_module, static_cast<std::uint64_t>(i)).first += i;
  CHECK(*m.find(Tag::shader_module, 4999) == 4999);
  CHECK(m.find(Tag::sampler, 4999) == nullptr);
}
