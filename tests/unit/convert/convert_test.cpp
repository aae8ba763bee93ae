// SPDX-License-Identifier: MIT
#include "libtrace/convert/convert.hpp"

#include <doctest/doctest.h>

#include "libtrace/core/error.hpp"
#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::convert;

TEST_CASE("convert: text to a file equals apitrace's dump") {
  test::Job<ConvertOptions> j("es2gears.br.trace", "out.txt");
  convert_trace(j.opt);
  CHECK(test::read_file(j.dir / "out.txt") == test::read_file(test::data("es2gears.dump.txt")));
}

TEST_CASE("convert: trace -> trace -> text keeps every call") {
  test::Job<ConvertOptions> j("texture.trace", "t.trace");
  j.opt.format = OutputFormat::trace;
  j.opt.encoder.container = Container::brotli;
  j.opt.encoder.level = 1;
  convert_trace(j.opt);
  j.opt.input = j.dir / "t.trace";
  j.opt.output = j.dir / "t.txt";
  j.opt.format = OutputFormat::text;
  convert_trace(j.opt);
  CHECK(test::read_file(j.dir / "t.txt") == test::read_file(test::data("texture.dump.txt")));
}

TEST_CASE("convert: an input cut inside a call leaves OUT.partial with every recovered call") {
  test::Job<ConvertOptions> j("gears.trunc60.trace", "out.txt");
  try {
    convert_trace(j.opt);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::truncated);
    CHECK(std::string(e.what()).find("output so far kept in " + j.dir / "out.txt.partial") != std::string::npos);
  }
  CHECK(test::read_file(j.dir / "out.txt.partial") == test::read_file(test::data("gears.trunc60.dump.txt")));
}

TEST_CASE("convert: an input cut short between two call events converts whole, with one warning") {
  test::Job<ConvertOptions> j("gears.trunc.trace", "out.txt");
  std::vector<std::string> warned;
  j.opt.warnings = [&](const std::string& where, const std::string& why) { warned.push_back(where + ": " + why); };
  convert_trace(j.opt);
  CHECK(test::read_file(j.dir / "out.txt") == test::read_file(test::data("gears.trunc.dump.txt")));
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].find("unexpected end of file inside a snappy chunk") != std::string::npos);
}
