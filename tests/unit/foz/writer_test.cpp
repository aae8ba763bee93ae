// SPDX-License-Identifier: MIT
// ArchiveWriter: layout, dedup, append over a torn tail (compared with what
// Fossilize did to the same file), exclusive and numbered files, scale.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "foz/foz_test_util.hpp"
#include "libtrace/foz/archive.hpp"
#include "test_util.hpp"

namespace foz = libtrace::foz;
using foz::Tag;

TEST_CASE("foz writer: an uncompressed entry is byte-identical to Fossilize's") {
  // tiny_one_sampler.foz: one sampler (hash 0x3333), format 1 with a CRC.
  const std::string want = test::read_file(test::data("foz/edge/tiny_one_sampler.foz"));
  foz::ArchiveReader src(test::data("foz/edge/tiny_one_sampler.foz"));
  const auto payload = src.read_payload(Tag::sampler, 0x3333);
  test::ScratchDir dir;
  foz::ArchiveWriter w(dir / "out.foz");
  foz::EncodeOptions opt;
  opt.format = foz::PayloadFormat::none;
  CHECK(w.write(Tag::sampler, 0x3333, payload, opt));
  CHECK_FALSE(w.write(Tag::sampler, 0x3333, payload, opt));  // already there: nothing written
  CHECK(w.contains(Tag::sampler, 0x3333));
  CHECK_FALSE(w.contains(Tag::sampler, 0x3334));
  CHECK(w.entries_written() == 1);
  CHECK_FALSE(std::filesystem::exists(dir / "out.foz"));  // only the temporary until commit
  w.commit();
  CHECK(test::read_file(dir / "out.foz") == want);
  CHECK(w.bytes_written() == want.size());
}

TEST_CASE("foz writer: append cuts the torn tail off, where Fossilize left it") {
  test::ScratchDir dir;
  const std::string path = dir / "a.foz";
  test::write_file(path, test::read_file(test::data("foz/edge/torn_before_append.foz")));
  std::vector<std::string> warnings;
  foz::ReadOptions ro;
  ro.warnings = [&](const std::string& where, const std::string& why) { warnings.push_back(where + ": " + why); };
  {
    // What fossilize-merge-db did: raw copy of tiny_one_sampler's entry.
    foz::ArchiveReader src(test::data("foz/edge/tiny_one_sampler.foz"));
    const foz::Entry& e = src.entries().at(0);
    std::vector<std::uint8_t> stored;
    src.read_stored(e, stored);
    foz::ArchiveWriter w(path, foz::WriteMode::append, ro);
    CHECK(w.append_info().existing_entries == 1);
    CHECK(w.append_info().offset == 82);
    CHECK(w.append_info().truncated_bytes == 2000);
    CHECK(w.contains(Tag::sampler, 0x2222));
    CHECK_FALSE(w.write_raw(Tag::sampler, 0x2222, e.header, stored));  // present before the append
    CHECK(w.write_raw(Tag::sampler, 0x3333, e.header, stored));
    w.commit();
  }
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("offset 82: torn last entry dropped") != std::string::npos);
  const std::string ours = test::read_file(path);
  const std::string fossilize = test::read_file(test::data("foz/edge/torn_then_appended.foz"));
  // The same entries in the same bytes; Fossilize's file keeps 1934 stale bytes after them.
  CHECK(ours.size() == 148);
  CHECK(fossilize.size() == 2082);
  CHECK(fossilize.compare(0, ours.size(), ours) == 0);
  warnings.clear();
  foz::ArchiveReader r(path, ro);
  CHECK_FALSE(r.summary().torn);
  CHECK(warnings.empty());
  CHECK(test::counts(r) == "1:2");
}

TEST_CASE("foz writer: append to a missing or empty file starts an archive; to another format it refuses") {
  test::ScratchDir dir;
  {
    foz::ArchiveWriter w(dir / "new.foz", foz::WriteMode::append);
    CHECK(w.write(Tag::shader_module, 7, test::bytes("abc")));
    w.commit();
  }
  test::write_file(dir / "empty.foz", "");
  {
    foz::ArchiveWriter w(dir / "empty.foz", foz::WriteMode::append);
    w.commit();
  }
  CHECK(test::read_file(dir / "empty.foz") == test::foz_header());
  foz::ArchiveReader r(dir / "new.foz");
  CHECK(r.read_payload(Tag::shader_module, 7) == std::vector<std::uint8_t>{'a', 'b', 'c'});
  test::write_file(dir / "text.foz", "hello, this is not an archive");
  CHECK_THROWS_AS(foz::ArchiveWriter(dir / "text.foz", foz::WriteMode::append), libtrace::Error);
  CHECK(test::read_file(dir / "text.foz") == "hello, this is not an archive");
}

TEST_CASE("foz writer: exclusive create fails on an existing file; numbered files never collide") {
  test::ScratchDir dir;
  test::write_file(dir / "x.foz", "keep");
  CHECK_THROWS_AS(foz::ArchiveWriter(dir / "x.foz", foz::WriteMode::exclusive), libtrace::Error);
  CHECK(test::read_file(dir / "x.foz") == "keep");

  // Four processes at once, like four game processes under the layer.
  std::vector<pid_t> kids;
  for (int i = 0; i < 4; ++i) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      int rc = 0;
      try {
        auto w = foz::ArchiveWriter::create_numbered(dir / "app.1234.foz");
        w->write(Tag::compute_pipeline, static_cast<std::uint64_t>(::getpid()), test::bytes("{}"));
        w->commit();
      } catch (...) {
        rc = 1;
      }
      ::_exit(rc);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  std::set<std::uint64_t> pids;
  for (int n = 1; n <= 4; ++n) {
    foz::ArchiveReader r(dir / ("app.1234." + std::to_string(n) + ".foz"));
    REQUIRE(r.size() == 1);
    pids.insert(r.entries()[0].hash);
  }
  CHECK(pids.size() == 4);
  CHECK_FALSE(std::filesystem::exists(dir / "app.1234.5.foz"));
  auto w = foz::ArchiveWriter::create_numbered(dir / "app.1234");
  CHECK(w->path() == dir / "app.1234.5.foz");
}

TEST_CASE("foz writer: tens of thousands of entries round-trip, hashes ascending, first duplicate wins") {
  test::ScratchDir dir;
  std::mt19937_64 rng(42);
  std::map<std::pair<unsigned, std::uint64_t>, std::string> want;
  {
    foz::ArchiveWriter w(dir / "big.foz");
    for (int i = 0; i < 30000; ++i) {
      const unsigned tag = static_cast<unsigned>(rng() % foz::kTagCount);
      const std::uint64_t hash = rng() % 20000;  // collisions on purpose
      std::string payload = "{\"n\":" + std::to_string(i) + ",\"pad\":\"" + std::string(rng() % 300, 'a') + "\"}";
      foz::EncodeOptions opt;
      opt.format = i % 3 ? foz::PayloadFormat::zlib : foz::PayloadFormat::none;
      opt.level = 1 + i % 9;
      opt.checksum = i % 2;
      const bool fresh = want.emplace(std::pair{tag, hash}, payload).second;
      CHECK(w.write(static_cast<Tag>(tag), hash, test::bytes(payload), opt) == fresh);
    }
    w.commit();
  }
  foz::ArchiveReader r(dir / "big.foz");
  CHECK(r.size() == want.size());
  CHECK(r.duplicates() == 0);
  std::vector<std::uint8_t> out;
  for (unsigned t = 0; t < foz::kTagCount; ++t) {
    const auto hs = r.hashes(static_cast<Tag>(t));
    CHECK(std::is_sorted(hs.begin(), hs.end()));
    for (std::uint64_t h : hs) {
      r.read_payload(*r.find(static_cast<Tag>(t), h), out);
      REQUIRE(std::string(out.begin(), out.end()) == want.at({t, h}));
    }
  }
}
