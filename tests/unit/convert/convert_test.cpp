// SPDX-License-Identifier: MIT
#include "libtrace/convert/convert.hpp"

#include <doctest/doctest.h>

#include "libtrace/core/error.hpp"
#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::convert;

TEST_CASE("convert: text to a file equals apitrace's dump") {
  test::ScratchDir dir;
  ConvertOptions opt;
  opt.input = test::data("es2gears.br.trace");
  opt.output = dir / "out.txt";
  convert_trace(opt);
  CHECK(test::read_file(dir / "out.txt") == test::read_file(test::data("es2gears.dump.txt")));
}

TEST_CASE("convert: trace -> trace -> text keeps every call") {
  test::ScratchDir dir;
  ConvertOptions opt;
  opt.input = test::data("texture.trace");
  opt.output = dir / "t.trace";
  opt.format = OutputFormat::trace;
  opt.encoder.container = Container::brotli;
  opt.encoder.level = 1;
  convert_trace(opt);
  opt.input = dir / "t.trace";
  opt.output = dir / "t.txt";
  opt.format = OutputFormat::text;
  convert_trace(opt);
  CHECK(test::read_file(dir / "t.txt") == test::read_file(test::data("texture.dump.txt")));
}

TEST_CASE("convert: an input cut inside a call leaves OUT.partial with every recovered call") {
  test::ScratchDir dir;
  ConvertOptions opt;
  opt.input = test::data("gears.trunc60.trace");
  opt.output = dir / "out.txt";
  try {
    convert_trace(opt);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::truncated);
    CHECK(std::string(e.what()).find("output so far kept in " + dir / "out.txt.partial") != std::string::npos);
  }
  CHECK(test::read_file(dir / "out.txt.partial") == test::read_file(test::data("gears.trunc60.dump.txt")));
}

TEST_CASE("convert: an input cut short between two call events converts whole, with one warning") {
  test::ScratchDir dir;
  ConvertOptions opt;
  opt.input = test::data("gears.trunc.trace");
  opt.output = dir / "out.txt";
  std::vector<std::string> warned;
  opt.warnings = [&](const std::string& where, const std::string& why) { warned.push_back(where + ": " + why); };
  convert_trace(opt);
  CHECK(test::read_file(dir / "out.txt") == test::read_file(test::data("gears.trunc.dump.txt")));
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].find("unexpected end of file inside a snappy chunk") != std::string::npos);
}
