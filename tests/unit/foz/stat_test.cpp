// SPDX-License-Identifier: MIT
// stats on the vkcube capture and on archives cut from it: dangling
// references, duplicates, unknown tags, damage.
#include <doctest/doctest.h>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/stat.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

foz::FozStats stats_of(const std::string& path) {
  libtrace::InputFile in(path);
  return foz::stats(in);
}

const std::string kCube = "foz/vkcube.72991ed96a80f842.1.foz";

}  // namespace

TEST_CASE("foz stat: the vkcube capture") {
  const foz::FozStats s = stats_of(test::data(kCube));
  CHECK(s.version == 6);
  CHECK(s.entries == 15);
  CHECK(s.file_bytes == 4488);
  CHECK(s.per_tag[4].entries == 2);
  // Sums of the payload headers, and the modules' codeSize from the JSON convert-db wrote.
  CHECK(s.uncompressed_bytes() == 5498);
  CHECK(s.stored_bytes() == 4488 - 16 - 15 * 56);
  CHECK(s.spirv_bytes == 1280 + 1560);
  REQUIRE(s.applications.size() == 1);
  CHECK(s.applications[0].graphics == 1);
  CHECK(s.dangling.empty());
  CHECK(s.dangling_links == 0);
  CHECK_FALSE(s.torn);
  CHECK(s.bad_entries.empty());
  CHECK(s.json_errors.empty());
  CHECK_FALSE(s.error);
}

TEST_CASE("foz stat: a pipeline naming a module the archive lacks") {
  // Entries of the capture at their offsets (see the CLI tests): module 1778d8b90d391b54 is at 2889, 693 bytes.
  const std::string whole = test::read_file(test::data(kCube));
  test::ScratchDir dir;
  test::write_file(dir / "x.foz", whole.substr(0, 2889) + whole.substr(2889 + 56 + 637) +
                                      whole.substr(2889, 56 + 637) /* a duplicate-free reorder check below */);
  // Put the module back after the pipeline: order does not matter, so nothing dangles.
  CHECK(stats_of(dir / "x.foz").dangling.empty());
  test::write_file(dir / "y.foz", whole.substr(0, 2889) + whole.substr(2889 + 56 + 637));
  const foz::FozStats s = stats_of(dir / "y.foz");
  REQUIRE(s.dangling.size() == 1);
  CHECK(s.dangling[0].tag == Tag::shader_module);
  CHECK(s.dangling[0].hash == 0x1778d8b90d391b54ull);
  CHECK(s.dangling[0].from_tag == Tag::graphics_pipeline);
  CHECK(s.dangling[0].from_hash == 0xe3b925b0c1c00de1ull);
  CHECK(s.dangling[0].referrers == 1);
  CHECK(s.dangling_links == 1);  // the module's link
  CHECK(foz::report_table(s).find("shader_module 1778d8b90d391b54") != std::string::npos);
}

TEST_CASE("foz stat: duplicates and unknown tags are counted, not double-counted") {
  const std::string whole = test::read_file(test::data(kCube));
  test::ScratchDir dir;
  test::write_file(dir / "x.foz", whole + whole.substr(16) + test::foz_entry(12, 5, "future"));
  const foz::FozStats s = stats_of(dir / "x.foz");
  CHECK(s.entries == 15);
  CHECK(s.duplicates == 15);
  CHECK(s.unknown_tags == 1);
  CHECK(s.per_tag[8].entries == 7);
  CHECK(s.applications[0].links == 7);
}

TEST_CASE("foz stat: damage is listed with offsets; the rest is still counted") {
  std::string whole = test::read_file(test::data(kCube));
  whole[4000] ^= 0x20;  // inside the graphics pipeline's payload (3783..4488)
  test::ScratchDir dir;
  test::write_file(dir / "x.foz", whole + test::foz_entry(6, 9, "BBBB", 1, 0) + test::foz_entry(1, 10, "{}", 7, 0));
  const foz::FozStats s = stats_of(dir / "x.foz");
  CHECK(s.entries == 17);
  CHECK(s.crc_failures == 1);
  REQUIRE(s.bad_entries.size() == 2);
  CHECK(s.bad_entries[0].offset == 3727);
  CHECK(s.bad_entries[0].crc);
  CHECK(s.bad_entries[1].why == "unknown payload format 7 (1 = none, 2 = zlib)");
  REQUIRE(s.json_errors.size() == 1);
  CHECK(s.json_errors[0].hash == 9);
  const std::string j = foz::report_json(s);
  CHECK(j.find("\"crc_failures\":1") != std::string::npos);
}
