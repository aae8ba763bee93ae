// SPDX-License-Identifier: MIT
#include "libtrace/apitrace/repack.hpp"

#include <doctest/doctest.h>

#include "libtrace/core/error.hpp"
#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::apitrace;

TEST_CASE("repack: gzip and back keeps every call; verify passes") {
  test::Job<RepackOptions> j("texture.trace", "t.gz");
  j.opt.encoder.container = Container::gzip;
  j.opt.verify = true;
  const RepackResult r = repack_trace(j.opt);
  CHECK(r.calls_verified > 3000);
  RepackOptions back = j.opt;
  back.input = j.dir / "t.gz";
  back.output = j.dir / "t.trace";
  back.encoder.container = Container::snappy;
  repack_trace(back);
  CHECK(compare_traces(test::data("texture.trace"), j.dir / "t.trace") == r.calls_verified);
}

TEST_CASE("repack: the comparison behind --verify catches a corrupted output") {
  test::Job<RepackOptions> j("gears.trace", "g.trace");
  repack_trace(j.opt);
  const test::ScratchDir& dir = j.dir;
  // Same container, one byte of one call changed inside the stream: flip a
  // float in the middle by rewriting through a different stream.
  std::string bytes = test::read_file(dir / "g.trace");
  std::string corrupt = bytes;
  corrupt[corrupt.size() / 2] ^= 0x20;
  test::write_file(dir / "bad.trace", corrupt);
  CHECK_THROWS_AS(compare_traces(test::data("gears.trace"), dir / "bad.trace"), Error);
  // A shorter output is caught too.
  test::write_file(dir / "short.trace", bytes.substr(0, bytes.size() - 1000));
  try {
    compare_traces(test::data("gears.trace"), dir / "short.trace");
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("verify failed") != std::string::npos);
  }
}

TEST_CASE("repack: --verify refuses pipes") {
  RepackOptions opt;
  opt.input = "-";
  opt.output = "x";
  opt.verify = true;
  CHECK_THROWS_AS(repack_trace(opt), Error);
}
