// SPDX-License-Identifier: MIT
// Names, tags and payload coding of .foz archives.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/archive.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

TEST_CASE("foz: names, tags and hashes are written as Fossilize writes them") {
  CHECK(foz::entry_name(Tag::graphics_pipeline, 0xe3b925b0c1c00de1ull) == "000000000000000000000006e3b925b0c1c00de1");
  CHECK(foz::hash_hex(0x3333) == "0000000000003333");
  CHECK(foz::parse_hash("E3B925B0C1C00DE1") == 0xe3b925b0c1c00de1ull);
  CHECK_FALSE(foz::parse_hash("e3b925b0c1c00de"));
  CHECK_FALSE(foz::parse_hash("e3b925b0c1c00deg"));
  CHECK(foz::tag_name(Tag::application_blob_link) == "application_blob_link");
  CHECK(foz::parse_tag("raytracing_pipeline") == Tag::raytracing_pipeline);
  CHECK(foz::parse_tag("9") == Tag::raytracing_pipeline);
  CHECK_FALSE(foz::parse_tag("11"));
  CHECK_FALSE(foz::parse_tag("pipeline"));
  CHECK(foz::describe_entry(Tag::sampler, 0x2222) == "sampler 0000000000002222");
}

TEST_CASE("foz: CRC-32 is zlib's") {
  const std::string s = "123456789";
  CHECK(foz::crc32(test::bytes(s)) == 0xcbf43926u);
}

TEST_CASE("foz: payloads round-trip through every format and level") {
  const std::string text = test::read_file(test::data("foz/vkcube_json/06.e3b925b0c1c00de1.json"));
  std::vector<std::uint8_t> stored, back;
  for (int level = 1; level <= 9; ++level) {
    for (bool crc : {false, true}) {
      foz::EncodeOptions opt;
      opt.level = level;
      opt.checksum = crc;
      const foz::PayloadHeader h = foz::encode_payload(test::bytes(text), opt, stored);
      CHECK(h.format == 2);
      CHECK(h.stored_size == stored.size());
      CHECK(h.uncompressed_size == text.size());
      CHECK((h.crc != 0) == crc);
      CHECK(stored.size() < text.size());
      foz::decode_payload(h, stored, back, "x");
      CHECK(std::string(back.begin(), back.end()) == text);
    }
  }
  foz::EncodeOptions none;
  none.format = foz::PayloadFormat::none;
  const foz::PayloadHeader h = foz::encode_payload(test::bytes(text), none, stored);
  CHECK(h.format == 1);
  CHECK(h.stored_size == text.size());
  CHECK(h.crc == foz::crc32(test::bytes(text)));
  foz::decode_payload(h, stored, back, "x");
  CHECK(std::string(back.begin(), back.end()) == text);

  foz::EncodeOptions bad;
  bad.level = 10;
  CHECK_THROWS_AS(foz::encode_payload(test::bytes(text), bad, stored), libtrace::Error);
}

TEST_CASE("foz: decoding rejects bad CRCs, formats, sizes and zlib data with the entry named") {
  const std::string text(1000, 'x');
  std::vector<std::uint8_t> stored, out;
  foz::PayloadHeader h = foz::encode_payload(test::bytes(text), {}, stored);
  auto fails = [&](foz::PayloadHeader hh, std::vector<std::uint8_t> s) {
    try {
      foz::decode_payload(hh, s, out, "a.foz: offset 16: sampler 0000000000000001");
    } catch (const libtrace::Error& e) {
      CHECK(e.where() == "a.foz: offset 16: sampler 0000000000000001");
      CHECK(e.code() == libtrace::Errc::bad_record);
      return e.message();
    }
    return std::string("no error");
  };
  {
    auto s = stored;
    s[5] ^= 1;
    CHECK(fails(h, s).starts_with("CRC mismatch: header says"));
    auto h0 = h;
    h0.crc = 0;  // unchecked: the corruption shows in inflate instead
    CHECK(fails(h0, s).starts_with("inflate error"));
  }
  {
    auto hh = h;
    hh.format = 3;
    CHECK(fails(hh, stored) == "unknown payload format 3 (1 = none, 2 = zlib)");
  }
  {
    auto hh = h;
    hh.uncompressed_size = 999;
    CHECK(fails(hh, stored) == "size mismatch: payload inflates to 1000 bytes, the header says 999");
    hh.uncompressed_size = 500;
    CHECK(fails(hh, stored) == "size mismatch: payload inflates to more than the 500 bytes the header says");
    hh.uncompressed_size = 1001;
    CHECK(fails(hh, stored) == "size mismatch: payload inflates to 1000 bytes, the header says 1001");
    hh.uncompressed_size = 0xffffffffu;
    CHECK(fails(hh, stored).starts_with("size mismatch: "));
  }
  {
    auto s = stored;
    s.resize(s.size() - 6);
    auto hh = h;
    hh.crc = 0;
    hh.stored_size = static_cast<std::uint32_t>(s.size());
    CHECK(fails(hh, s).starts_with("inflate error: zlib stream ends early"));
  }
  {
    foz::PayloadHeader hn{4, 1, 0, 5};
    CHECK(fails(hn, {1, 2, 3, 4}) == "size mismatch: uncompressed payload of 4 bytes, but the header says 5");
  }
}
