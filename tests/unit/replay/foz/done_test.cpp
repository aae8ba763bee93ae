// SPDX-License-Identifier: MIT
// The resume database: created when missing, appended in whole 0-byte
// entries that other readers see, a torn tail cut on reopening.
#include <doctest/doctest.h>

#include "foz/foz_test_util.hpp"
#include "replay/foz/done.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

TEST_CASE("foz_replay_done: entries are appended as Fossilize's replayer cache writes them, and read back") {
  test::ScratchDir dir;
  const std::string path = dir / "done.foz";
  {
    foz::detail::DoneLog log(path, {});
    CHECK(log.existing() == 0);
    CHECK_FALSE(log.contains(Tag::compute_pipeline, 0x1111));
    log.add(Tag::compute_pipeline, 0x1111);
    log.add(Tag::graphics_pipeline, 0x2222);
    log.flush();
    CHECK(log.added() == 2);
  }
  // Byte for byte: header, then name + {0, 1, 0, 0} per entry.
  CHECK(test::read_file(path) == test::foz_header() + test::foz_entry(7, 0x1111, "") + test::foz_entry(6, 0x2222, ""));
  {
    foz::detail::DoneLog log(path, {});
    CHECK(log.existing() == 2);
    CHECK(log.contains(Tag::compute_pipeline, 0x1111));
    CHECK(log.contains(Tag::graphics_pipeline, 0x2222));
    CHECK_FALSE(log.contains(Tag::graphics_pipeline, 0x1111));
    log.add(Tag::raytracing_pipeline, 0x3333);
  }  // the destructor flushes
  foz::ArchiveReader r(path);
  CHECK(test::counts(r) == "6:1 7:1 9:1");
}

TEST_CASE("foz_replay_done: a torn tail left by a killed run is cut off before appending") {
  test::ScratchDir dir;
  const std::string path = dir / "done.foz";
  const std::string whole = test::foz_header() + test::foz_entry(7, 0x1111, "");
  test::write_file(path, whole + test::foz_entry(7, 0x2222, "").substr(0, 30));
  std::vector<std::string> warnings;
  {
    foz::detail::DoneLog log(path,
                             [&](const std::string& w, const std::string& m) { warnings.push_back(w + ": " + m); });
    CHECK(log.existing() == 1);
    log.add(Tag::compute_pipeline, 0x3333);
  }
  CHECK_FALSE(warnings.empty());
  CHECK(test::read_file(path) == whole + test::foz_entry(7, 0x3333, ""));
}

TEST_CASE("foz_replay_done: what is not an archive is refused, not overwritten") {
  test::ScratchDir dir;
  test::write_file(dir / "notes.txt", "not an archive at all");
  CHECK_THROWS_AS(foz::detail::DoneLog(dir / "notes.txt", {}), libtrace::Error);
  CHECK(test::read_file(dir / "notes.txt") == "not an archive at all");
  CHECK_THROWS_AS(foz::detail::DoneLog("-", {}), libtrace::Error);
}
