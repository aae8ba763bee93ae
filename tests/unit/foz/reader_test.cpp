// SPDX-License-Identifier: MIT
// ArchiveReader on the real archives Fossilize wrote (tests/data/foz,
// ../shared/data/foz): counts per tag as the data README says Fossilize reads
// them, payloads byte-equal to fossilize-convert-db's JSON, torn files.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/archive.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

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
  const std::string shared = test::data("foz/edge");
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
  const std::string path = test::data("foz/synth_compute.foz");
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
