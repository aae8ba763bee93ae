// SPDX-License-Identifier: MIT
// ArchiveScanner and the reader's index pass on hand-made and cut archives:
// truncation at every byte, duplicates, unknown tags, bad names, versions.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <thread>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/archive.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

namespace {

struct Scan {
  std::vector<foz::ScannedEntry> entries;
  std::vector<std::string> payloads;
  foz::ScanSummary summary;
  std::vector<std::string> warnings;
};

Scan scan_file(const std::string& path, bool want_payload = true) {
  Scan s;
  libtrace::InputFile in(path);
  foz::ScanOptions opt;
  opt.want_payload = want_payload;
  opt.warnings = [&](const std::string& where, const std::string& why) { s.warnings.push_back(where + ": " + why); };
  foz::ArchiveScanner sc(in, opt);
  foz::ScannedEntry e;
  while (sc.next(e)) {
    s.entries.push_back(e);
    s.payloads.emplace_back(e.stored.begin(), e.stored.end());
    CHECK(e.raw.size() == (want_payload ? foz::kEntryHeaderSize + e.header.stored_size : 0));
  }
  s.summary = sc.summary();
  return s;
}

std::string error_of(const std::string& path) {
  try {
    foz::ArchiveReader r(path);
  } catch (const libtrace::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("foz scan: truncation at every byte offset keeps exactly the complete entries") {
  const std::string whole = test::read_file(test::data("foz/vkcube.72991ed96a80f842.1.foz"));
  // Entry ends, from the full archive.
  std::vector<std::uint64_t> ends;
  for (const auto& e : scan_file(test::data("foz/vkcube.72991ed96a80f842.1.foz")).entries) ends.push_back(e.end());
  REQUIRE(ends.size() == 15);
  REQUIRE(ends.back() == whole.size());
  test::ScratchDir dir;
  const std::string path = dir / "cut.foz";
  for (std::size_t len = 0; len <= whole.size(); ++len) {
    test::write_file(path, whole.substr(0, len));
    if (len > 0 && len < foz::kMagicSize) {
      CHECK(error_of(path) ==
            path + ": offset " + std::to_string(len) + ": truncated header: " + std::to_string(len) + " of 16 bytes");
      continue;
    }
    std::size_t complete = 0;
    std::uint64_t valid_end = len == 0 ? 0 : foz::kMagicSize;
    for (std::uint64_t e : ends)
      if (e <= len) {
        ++complete;
        valid_end = e;
      }
    const bool torn = len > 0 && valid_end != len;
    for (bool want_payload : {true, false}) {
      const Scan s = scan_file(path, want_payload);
      REQUIRE(s.entries.size() == complete);
      CHECK(s.summary.torn == torn);
      CHECK(s.summary.valid_end == valid_end);
      CHECK(s.summary.file_size == len);
      CHECK(s.warnings.size() == (torn ? 1u : 0u));
    }
    {
      // Bytes held by the caller scan the same.
      const std::string cut = whole.substr(0, len);
      foz::ArchiveScanner sc(test::bytes(cut), "mem");
      foz::ScannedEntry e;
      std::size_t n = 0;
      while (sc.next(e)) {
        CHECK(e.raw.data() == reinterpret_cast<const std::uint8_t*>(cut.data()) + e.offset);  // in place
        ++n;
      }
      CHECK(n == complete);
      CHECK(sc.summary().torn == torn);
      CHECK(sc.size() == len);
    }
    foz::ArchiveReader r(path);
    REQUIRE(r.size() == complete);
    CHECK(r.summary().torn == torn);
    CHECK(r.summary().valid_end == valid_end);
    std::vector<std::uint8_t> out;
    for (const foz::Entry& e : r.entries()) r.read_payload(e, out);
  }
}

TEST_CASE("foz scan: duplicates, unknown tags, version 5, ignored name prefix") {
  test::ScratchDir dir;
  std::string name = test::foz_entry(1, 0x10, "second");
  name.replace(0, 8, "ffffffff");  // chars 0..7 are ignored, as by Fossilize
  const std::string bytes = test::foz_header(5) + test::foz_entry(1, 0x10, "first") +
                            test::foz_entry(11, 0x10, "future") + name + test::foz_entry(4, 0x10, "module") +
                            test::foz_entry(0xffff, 1, "");
  test::write_file(dir / "a.foz", bytes);
  const Scan s = scan_file(dir / "a.foz");
  REQUIRE(s.entries.size() == 5);
  CHECK(s.summary.version == 5);
  CHECK(s.summary.unknown_tags == 2);
  CHECK(s.entries[2].tag_value == 1);
  CHECK(s.payloads[0] == "first");
  CHECK_FALSE(s.entries[1].known_tag());
  foz::ArchiveReader r(dir / "a.foz");
  CHECK(r.version() == 5);
  CHECK(r.size() == 2);
  CHECK(r.duplicates() == 1);
  CHECK(r.read_payload(Tag::sampler, 0x10) == std::vector<std::uint8_t>{'f', 'i', 'r', 's', 't'});
  CHECK(r.entries()[1].tag == Tag::shader_module);
}

TEST_CASE("foz scan: bad headers and names are errors naming the offset") {
  test::ScratchDir dir;
  const std::string p = dir / "x.foz";
  test::write_file(p, test::foz_header(7) + std::string(10, 'x'));
  CHECK(error_of(p) == p + ": offset 15: archive version 7 (trak reads versions 5 and 6)");
  test::write_file(p, std::string("\x81"
                                  "FOSSILIZEDC\0\0\0\x06",
                                  16));
  CHECK(error_of(p) == p + ": offset 0: not a Fossilize archive (no \\x81FOSSILIZEDB magic)");
  test::write_file(p, std::string("\x81"
                                  "FOSSILIZEDB\0\x01\0\x06",
                                  16));
  CHECK(error_of(p) == p + ": offset 12: not a Fossilize archive (header bytes 12-14 are not zero)");
  std::string bad = test::foz_entry(6, 0xabc, "{}");
  bad[30] = 'g';
  test::write_file(p, test::foz_header() + test::foz_entry(6, 1, "{}") + bad);
  CHECK(error_of(p) == p + ": offset 74: entry name \"000000000000000000000006000000g000000abc\" is not 40 hex digits");
  bad[30] = '\n';
  test::write_file(p, test::foz_header() + bad);
  CHECK(error_of(p) ==
        p + ": offset 16: entry name \"000000000000000000000006000000\\x0a000000abc\" is not 40 hex digits");
  // The scanner hands out the entries before the bad one first.
  test::write_file(p, test::foz_header() + test::foz_entry(6, 1, "{}") + bad);
  libtrace::InputFile in(p);
  foz::ArchiveScanner sc(in);
  foz::ScannedEntry e;
  CHECK(sc.next(e));
  CHECK_THROWS_AS(sc.next(e), libtrace::Error);
}

TEST_CASE("foz scan: a forged payload size in a short file is a torn tail, not an allocation") {
  test::ScratchDir dir;
  const std::string p = dir / "x.foz";
  std::string e = test::foz_entry(6, 1, "{}");
  e.replace(40, 4, test::le32(0xfffffff0u));
  test::write_file(p, test::foz_header() + test::foz_entry(6, 2, "{}") + e);
  const Scan s = scan_file(p);
  CHECK(s.entries.size() == 1);
  CHECK(s.summary.torn);
  CHECK(s.summary.torn_reason == "entry cut short: 58 of 4294967336 bytes");
  foz::ArchiveReader r(p);
  CHECK(r.size() == 1);
}

TEST_CASE("foz scan: a pipe is read like a file") {
  const std::string path = test::data("foz/vkcube.72991ed96a80f842.1.foz");
  test::ScratchDir dir;
  const std::string fifo = dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::thread feeder([&] { test::write_file(fifo, test::read_file(path)); });
  const Scan s = scan_file(fifo);
  feeder.join();
  CHECK(s.entries.size() == 15);
  CHECK(s.summary.file_size == 4488);
  CHECK_FALSE(s.summary.torn);
  CHECK_THROWS_AS(foz::ArchiveReader("-"), libtrace::Error);
}
