// SPDX-License-Identifier: MIT
// repack_foz: formats, levels, CRC policies, duplicates, torn tails, verify.
#include <doctest/doctest.h>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/repack.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

TEST_CASE("foz repack: every format, level and CRC policy keeps hashes and decoded payloads") {
  test::ScratchDir dir;
  const std::string src = test::data("foz/vkcube.72991ed96a80f842.1.foz");
  for (auto format : {foz::PayloadFormat::none, foz::PayloadFormat::zlib}) {
    for (int level : {1, 6, 9}) {
      for (auto crc : {foz::CrcPolicy::add, foz::CrcPolicy::strip, foz::CrcPolicy::keep}) {
        for (unsigned threads : {1u, 3u}) {
          foz::FozRepackOptions opt;
          opt.output = dir / "out.foz";
          opt.encode.format = format;
          opt.encode.level = level;
          opt.crc = crc;
          opt.threads = threads;
          opt.verify = true;
          libtrace::InputFile in(src);
          const foz::FozRepackResult r = foz::repack_foz(in, opt);
          CHECK(r.entries == 15);
          CHECK(r.verified == 15);
          foz::ArchiveReader out(opt.output);
          for (const foz::Entry& e : out.entries()) {
            CHECK(e.header.format == static_cast<std::uint32_t>(format));
            // keep: the layer's capture has a CRC on every entry.
            CHECK((e.header.crc != 0) == (crc != foz::CrcPolicy::strip));
          }
        }
      }
    }
  }
}

TEST_CASE("foz repack: duplicates, unknown tags and a torn tail are dropped; a bad entry keeps a partial") {
  test::ScratchDir dir;
  const std::string whole = test::read_file(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  test::write_file(dir / "in.foz",
                   whole + whole.substr(16, 186 + 145) + test::foz_entry(40, 1, "x") + whole.substr(16, 100));
  foz::FozRepackOptions opt;
  opt.output = dir / "out.foz";
  int warnings = 0;
  opt.warnings = [&](const std::string&, const std::string&) { ++warnings; };
  {
    libtrace::InputFile in(dir / "in.foz");
    const foz::FozRepackResult r = foz::repack_foz(in, opt);
    CHECK(r.entries == 15);
    CHECK(r.duplicates_dropped == 2);  // the first two entries (186 and 145 bytes) again
    CHECK(r.unknown_tags_dropped == 1);
    CHECK(r.torn_tail_dropped);
    CHECK(warnings == 1);
  }
  CHECK(foz::compare_foz(test::data("foz/vkcube.72991ed96a80f842.1.foz"), opt.output) == 15);
  std::string bad = whole;
  bad[4000] ^= 1;
  test::write_file(dir / "bad.foz", bad);
  libtrace::InputFile in(dir / "bad.foz");
  CHECK_THROWS_AS(foz::repack_foz(in, opt), libtrace::Error);
  CHECK(foz::ArchiveReader(opt.output + ".partial").size() == 14);
  // --verify needs files.
  opt.verify = true;
  opt.output = "-";
  libtrace::InputFile in2(dir / "in.foz");
  CHECK_THROWS_AS(foz::repack_foz(in2, opt), libtrace::Error);
}
