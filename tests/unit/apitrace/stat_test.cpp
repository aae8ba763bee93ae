// SPDX-License-Identifier: MIT
#include "libtrace/apitrace/stat.hpp"

#include <doctest/doctest.h>

#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::apitrace;

// Expected figures come from `apitrace info` (texture.info.json) and from
// counting lines of `apitrace dump -v` (texture.dump-v-tid.txt).
TEST_CASE("trace_stat: texture.trace agrees with apitrace") {
  const TraceStats s = stats(test::data("texture.trace"));
  const std::string info = test::read_file(test::data("texture.info.json"));
  CHECK(info.find("\"FramesCount\": " + std::to_string(s.frames)) != std::string::npos);
  CHECK(info.find("\"ActualDataSize\": " + std::to_string(s.stream_bytes)) != std::string::npos);
  CHECK(info.find("\"ContainerSize\": " + std::to_string(s.file_bytes)) != std::string::npos);
  const std::string dump = test::read_file(test::data("texture.dump-v-tid.txt"));
  std::uint64_t lines = 0;
  for (std::size_t i = 0; i < dump.size(); i = dump.find('\n', i) + 1) {
    if (std::isdigit(static_cast<unsigned char>(dump[i]))) ++lines;
    if (dump.find('\n', i) == std::string::npos) break;
  }
  CHECK(s.calls == lines);
  CHECK(s.blobs > 0);
  CHECK_FALSE(s.error);
  CHECK(s.api == "OpenGL + GLX/WGL/CGL");
}

TEST_CASE("trace_stat: a trace cut inside a call reports what it read and the error") {
  const TraceStats s = stats(test::data("gears.trunc60.trace"));
  CHECK(s.error);
  CHECK_FALSE(s.cut_short);
  CHECK(s.calls == 9);
  CHECK(s.incomplete_calls == 0);
}

TEST_CASE("trace_stat: a trace cut short between two call events counts every call, no error") {
  // Its cut snappy chunk decodes to a stream that ends after call 1199's enter.
  const TraceStats s = stats(test::data("gears.trunc.trace"));
  CHECK_FALSE(s.error);
  REQUIRE(s.cut_short);
  CHECK(s.cut_short->code() == Errc::truncated);
  CHECK(s.calls == 1200);
  CHECK(s.incomplete_calls == 1);
}
