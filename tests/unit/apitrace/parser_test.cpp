// SPDX-License-Identifier: MIT
#include "libtrace/apitrace/parser.hpp"

#include <doctest/doctest.h>

#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/dump.hpp"
#include "libtrace/core/error.hpp"
#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::apitrace;

namespace {

// version 6, semantic 6, no properties.
const std::string kHeader("\x06\x06\x00", 3);
// enter thread 0, sig 4 "glFlush" with no args, end of details.
const std::string kEnter0 = std::string("\x00\x00\x04\x07glFlush\x00\x00", 13);

std::unique_ptr<Parser> parse(const std::string& bytes) {
  return std::make_unique<Parser>(std::make_unique<test::MemDecoder>(bytes, 3), "t.trace");
}

}  // namespace

TEST_CASE("trace_parser: header with semantic version and sorted properties") {
  auto p =
      parse(std::string("\x06\x05\x01"
                        "b\x01"
                        "2\x01"
                        "a\x01"
                        "1\x00",
                        11));
  CHECK(p->header().version == 6);
  CHECK(p->header().semantic_version == 5);
  CHECK(p->header().properties.begin()->first == "a");
  CHECK(p->next() == nullptr);
}

TEST_CASE("trace_parser: calls come out at their leave, unfinished ones last and incomplete") {
  // enter 0, enter 1 (sig reused), leave 1, end of stream with 0 unfinished.
  const std::string s = kHeader + kEnter0 + std::string("\x00\x01\x04\x00", 4) + std::string("\x01\x01\x00", 3);
  auto p = parse(s);
  const Call* c = p->next();
  REQUIRE(c);
  CHECK(c->no == 1);
  CHECK(c->thread == 1);
  CHECK(c->name() == "glFlush");
  CHECK((c->flags & kCallIncomplete) == 0);
  c = p->next();
  REQUIRE(c);
  CHECK(c->no == 0);
  CHECK((c->flags & kCallIncomplete) != 0);
  CHECK(p->next() == nullptr);
}

TEST_CASE("trace_parser: a call cut inside its event is dropped, then truncation is reported") {
  const std::string s = kHeader + kEnter0 + std::string("\x01\x00\x00", 3) + std::string("\x00\x00\x04\x01\x00\x07", 6);
  auto p = parse(s);
  REQUIRE(p->next());
  try {
    p->next();
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::truncated);
    CHECK(std::string(e.what()) ==
          "t.trace: stream offset 19: unexpected end of file inside the call event starting here");
  }
}

TEST_CASE("trace_parser: malformed data names the stream offset") {
  auto p = parse(kHeader + std::string("\x07", 1));
  CHECK_THROWS_WITH_AS(p->next(), "t.trace: stream offset 3: unknown event 0x07 (corrupt trace, or two traces joined?)",
                       Error);
  auto q = parse(kHeader + std::string("\x00\x00\x04\x01"
                                       "f\x00\x01\x00\x1f",
                                       9));
  CHECK_THROWS_WITH_AS(q->next(), "t.trace: stream offset 11: unknown value type 0x1f", Error);
}

TEST_CASE("trace_parser: version above 6 is refused") {
  CHECK_THROWS_WITH_AS(parse(std::string("\x07", 1)),
                       "t.trace: stream offset 0: unsupported trace format version 7 (trak reads 0 to 6)", Error);
}

TEST_CASE("trace_parser: values nest 4096 levels deep; deeper, however deep, fails in one line") {
  // One call whose argument is `levels` one-element arrays around a null.
  auto nested = [](std::size_t levels) {
    // enter, thread 0, sig 4 "f" with one argument "a"; argument 0:
    std::string s = kHeader + std::string(
                                  "\x00\x00\x04\x01"
                                  "f\x01\x01"
                                  "a\x01\x00",
                                  10);
    for (std::size_t i = 0; i < levels; ++i) s += std::string("\x0b\x01", 2);
    return s + std::string("\x00\x00\x01\x00\x00", 5);  // null, end of details, leave
  };
  for (const bool skip : {false, true}) {
    CAPTURE(skip);
    ParserOptions opt;
    opt.skip_values = skip;
    Parser deepest(std::make_unique<test::MemDecoder>(nested(4096), 4096), "t.trace", opt);
    const Call* c = deepest.next();
    REQUIRE(c);
    if (!skip) {
      // The walkers after the parser recurse as deep.
      std::string text;
      dump_call(*c, DumpOptions{}, text);
      CHECK(text.size() > 4096);
      text.clear();
      jsonl_call(*c, text);
      CHECK(text.find(std::string(4096, '[') + "null") != std::string::npos);
    }
    CHECK(deepest.next() == nullptr);
    // 4097 levels, and a million (a hostile file), fail alike.
    for (const std::size_t levels : {std::size_t{4097}, std::size_t{1} << 20}) {
      Parser p(std::make_unique<test::MemDecoder>(nested(levels), 4096), "t.trace", opt);
      CHECK_THROWS_WITH_AS(p.next(), "t.trace: stream offset 8207: values nested deeper than 4096 levels", Error);
    }
  }
}

TEST_CASE("trace_parser: absurd lengths fail without huge allocations") {
  // A string claiming 2^62 bytes just runs into the end of the data.
  std::string t = kHeader +
                  std::string(
                      "\x00\x00\x04\x01"
                      "f\x01\x01"
                      "a\x01\x00\x07",
                      11) +
                  std::string("\xff\xff\xff\xff\xff\xff\xff\xff\x3f", 9) + "abc";
  auto p = parse(t);
  CHECK_THROWS_AS(p->next(), Error);
}

TEST_CASE("trace_parser: real v6 trace parses to the end with flat memory") {
  InputFile in(test::data("threads.trace"));
  Parser p(open_decoder(in), in.name());
  std::uint64_t n = 0;
  std::uint32_t max_thread = 0;
  while (const Call* c = p.next()) {
    ++n;
    max_thread = std::max(max_thread, c->thread);
  }
  CHECK(n > 50);
  CHECK(max_thread == 2);
  CHECK(p.header().version == 6);
}
