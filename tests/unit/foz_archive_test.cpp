// SPDX-License-Identifier: MIT
// Names, tags and payload coding of .foz archives, and the reader on the real
// archives Fossilize wrote (tests/data/foz, ../shared/data/foz).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>

#include "foz_test_util.hpp"
#include "libtrace/foz_archive.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

TEST_CASE("foz: names, tags and hashes are written as Fossilize writes them") {
  CHECK(foz::entry_name(Tag::graphics_pipeline, 0xe3b925b0c1c00de1ull) ==
        "000000000000000000000006e3b925b0c1c00de1");
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
  CHECK(foz::looks_like_foz(std::string("\x81" "FOSSILIZEDB\0\0\0\x05", 16)));
  CHECK_FALSE(foz::looks_like_foz("\x81" "FOSSIL"));
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

TEST_CASE("foz: the vkcube capture reads as Fossilize reads it, payloads byte-equal to convert-db's JSON") {
  foz::ArchiveReader r(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  CHECK(r.version() == 6);
  CHECK_FALSE(r.summary().torn);
  CHECK(r.summary().file_size == 4488);
  CHECK(r.summary().valid_end == 4488);
  CHECK(r.size() == 15);
  CHECK(r.duplicates() == 0);
  CHECK(test::counts(r) == "0:1 1:1 2:1 3:1 4:2 5:1 6:1 8:7");
  // The JSON directory Fossilize made from this archive is the oracle.
  std::size_t files = 0;
  for (const auto& f : std::filesystem::directory_iterator(test::data("foz/vkcube_json"))) {
    const std::string n = f.path().filename().string();
    const Tag tag = static_cast<Tag>(std::stoi(n.substr(0, 2), nullptr, 16));
    const std::uint64_t hash = *foz::parse_hash(n.substr(3, 16));
    const auto payload = r.read_payload(tag, hash);
    CHECK_MESSAGE(std::string(payload.begin(), payload.end()) == test::read_file(f.path().string()), n);
    ++files;
  }
  CHECK(files == r.size());
  // Objects are zlib with a CRC, links uncompressed with a CRC (the layer's way).
  for (const foz::Entry& e : r.entries()) {
    CHECK(e.header.crc != 0);
    CHECK(e.header.format == (e.tag == Tag::application_blob_link ? 1u : 2u));
  }
  const auto links = r.hashes(Tag::application_blob_link);
  CHECK(std::is_sorted(links.begin(), links.end()));
  CHECK(links.front() == 0x0b2676b1d8fe7e9full);
  CHECK(r.find(Tag::graphics_pipeline, 0xe3b925b0c1c00de1ull) != nullptr);
  CHECK(r.find(Tag::compute_pipeline, 0xe3b925b0c1c00de1ull) == nullptr);
  CHECK_THROWS_AS(r.read_payload(Tag::compute_pipeline, 1), libtrace::Error);
}

TEST_CASE("foz: torn files keep the complete entries before the tear, with a warning") {
  std::vector<std::string> warnings;
  foz::ReadOptions opt;
  opt.warnings = [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); };
  {
    foz::ArchiveReader r(test::data("foz/edge/torn_before_append.foz"), opt);
    CHECK(r.size() == 1);
    CHECK(r.contains(Tag::sampler, 0x2222));
    CHECK(r.summary().torn);
    CHECK(r.summary().valid_end == 82);
    CHECK(r.summary().torn_reason == "entry cut short: 2000 of 3056 bytes");
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].ends_with(
        "torn_before_append.foz: offset 82: torn last entry dropped (entry cut short: 2000 of 3056 bytes); the 1 "
        "entries before it are kept"));
  }
  {
    // What Fossilize's append left: the stale tail still follows the new entry.
    foz::ArchiveReader r(test::data("foz/edge/torn_then_appended.foz"), opt);
    CHECK(test::counts(r) == "1:2");
    CHECK(r.contains(Tag::sampler, 0x2222));
    CHECK(r.contains(Tag::sampler, 0x3333));
    CHECK(r.summary().torn);
    CHECK(r.summary().valid_end == 148);
  }
  const std::string shared = test::shared("foz/edge");
  if (!std::filesystem::exists(shared)) return;
  for (const char* name : {"truncated_header.foz", "truncated_payload.foz"}) {
    foz::ArchiveReader r(shared + "/" + name, opt);
    CHECK(r.size() == 436);
    CHECK(r.count(Tag::graphics_pipeline) == 143);
    CHECK(r.summary().torn);
    std::vector<std::uint8_t> out;
    for (const foz::Entry& e : r.entries()) r.read_payload(e, out);  // every kept entry decodes
  }
}

TEST_CASE("foz: synth_compute.foz (fossilize-synth, uncompressed, CRC 0)") {
  const std::string path = test::shared("foz/synth_compute.foz");
  if (!std::filesystem::exists(path)) return;
  foz::ArchiveReader r(path);
  CHECK(test::counts(r) == "0:1 2:1 3:1 4:1 7:1500 8:1503");
  CHECK_FALSE(r.summary().torn);
  std::vector<std::uint8_t> out;
  for (const foz::Entry& e : r.entries()) {
    CHECK(e.header.format == 1);
    CHECK(e.header.crc == 0);
    r.read_payload(e, out);
    CHECK(out.size() == e.header.uncompressed_size);
  }
}
