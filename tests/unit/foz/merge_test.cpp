// SPDX-License-Identifier: MIT
// merge_archives at scale, duplicates and conflicts, append.
#include <doctest/doctest.h>

#include <map>
#include <random>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/merge.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

TEST_CASE("foz merge: three 20k-entry archives, first copy wins, raw bytes kept, conflicts found") {
  test::ScratchDir dir;
  std::mt19937_64 rng(7);
  std::map<std::pair<unsigned, std::uint64_t>, std::string> first;
  std::uint64_t conflicts = 0, identical = 0;
  for (int a = 0; a < 3; ++a) {
    foz::ArchiveWriter w(dir / ("in" + std::to_string(a) + ".foz"));
    for (int i = 0; i < 20000; ++i) {
      const unsigned tag = static_cast<unsigned>(rng() % foz::kTagCount);
      const std::uint64_t hash = 1 + rng() % 30000;
      // Mostly the same payload for a key in every archive; sometimes not.
      const bool odd = rng() % 50 == 0;
      const std::string payload =
          "{\"k\":" + std::to_string(hash * 31 + tag) + (odd ? ",\"odd\":" + std::to_string(a) : "") + "}";
      foz::EncodeOptions eo;
      eo.format = a == 1 ? foz::PayloadFormat::none : foz::PayloadFormat::zlib;
      if (!w.write(static_cast<Tag>(tag), hash, test::bytes(payload), eo)) continue;
      auto [it, fresh] = first.emplace(std::pair{tag, hash}, payload);
      if (!fresh) (it->second == payload ? identical : conflicts) += 1;
    }
    w.commit();
  }
  foz::MergeOptions opt;
  opt.inputs = {dir / "in0.foz", dir / "in1.foz", dir / "in2.foz"};
  opt.output = dir / "out.foz";
  const foz::MergeReport r = foz::merge_archives(opt);
  CHECK(r.entries_written == first.size());
  CHECK(r.conflicts.size() == conflicts);
  CHECK(r.identical_duplicates + r.reencoded_duplicates == identical);
  CHECK(r.reencoded_duplicates > 0);  // in1 is uncompressed, the others zlib
  foz::ArchiveReader out(dir / "out.foz");
  CHECK(out.size() == first.size());
  std::vector<std::uint8_t> p;
  for (const foz::Entry& e : out.entries()) {
    out.read_payload(e, p);
    REQUIRE(std::string(p.begin(), p.end()) == first.at({static_cast<unsigned>(e.tag), e.hash}));
  }
  // Raw copies: every entry of the first input is in the output with the same stored bytes.
  foz::ArchiveReader in0(dir / "in0.foz");
  std::vector<std::uint8_t> a, b;
  for (const foz::Entry& e : in0.entries()) {
    const foz::Entry* o = out.find(e.tag, e.hash);
    REQUIRE(o);
    in0.read_stored(e, a);
    out.read_stored(*o, b);
    REQUIRE(a == b);
    CHECK(o->header.crc == e.header.crc);
  }
}

TEST_CASE("foz merge: append keeps the output's entries first") {
  test::ScratchDir dir;
  {
    foz::ArchiveWriter w(dir / "base.foz");
    w.write(Tag::sampler, 1, test::bytes("{\"old\":1}"));
    w.commit();
    foz::ArchiveWriter v(dir / "new.foz");
    v.write(Tag::sampler, 1, test::bytes("{\"new\":1}"));
    v.write(Tag::sampler, 2, test::bytes("{}"));
    v.commit();
  }
  foz::MergeOptions opt;
  opt.inputs = {dir / "new.foz"};
  opt.output = dir / "base.foz";
  opt.append = true;
  const foz::MergeReport r = foz::merge_archives(opt);
  CHECK(r.existing_entries == 1);
  CHECK(r.entries_written == 1);
  CHECK(r.conflicts.size() == 1);
  foz::ArchiveReader out(dir / "base.foz");
  CHECK(out.read_payload(Tag::sampler, 1) == std::vector<std::uint8_t>{'{', '"', 'o', 'l', 'd', '"', ':', '1', '}'});
  // Reading the output while appending to it is refused.
  opt.inputs = {dir / "base.foz"};
  CHECK_THROWS_AS(foz::merge_archives(opt), libtrace::Error);
}
