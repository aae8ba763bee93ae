// SPDX-License-Identifier: MIT
#include "libtrace/apitrace/parser.hpp"

#include <brotli/encode.h>
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

// Serves `bytes`, then fails as a container does when it is cut short
// (truncated) or corrupt (bad_record).
struct FailingDecoder final : Decoder {
  test::MemDecoder mem;
  Errc code;
  explicit FailingDecoder(std::string bytes, Errc c) : mem(std::move(bytes), 3), code(c) {}
  bool next(Block& out) override {
    if (mem.next(out)) return true;
    throw Error(code, "t.trace: offset 99",
                code == Errc::truncated ? "unexpected end of file inside the gzip stream"
                                        : "corrupt gzip data: invalid distance");
  }
  Container container() const override { return Container::gzip; }
  std::uint64_t file_offset() const override { return mem.file_offset(); }
};

// Every call of a parser's trace; its cut_short() in `cut`.
std::uint64_t count_calls(std::unique_ptr<Decoder> d, std::optional<Error>& cut) {
  Parser p(std::move(d), "x");
  std::uint64_t n = 0;
  while (p.next()) ++n;
  cut = p.cut_short();
  return n;
}

// What a brotli writer that was never closed leaves: every byte flushed, no
// last meta-block.
std::string brotli_unclosed(const std::string& stream) {
  BrotliEncoderState* s = BrotliEncoderCreateInstance(nullptr, nullptr, nullptr);
  BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, 5);
  std::string out;
  std::size_t avail_in = stream.size();
  const auto* next_in = reinterpret_cast<const std::uint8_t*>(stream.data());
  do {
    std::uint8_t buf[1 << 16];
    std::size_t avail_out = sizeof buf;
    std::uint8_t* next_out = buf;
    REQUIRE(
        BrotliEncoderCompressStream(s, BROTLI_OPERATION_FLUSH, &avail_in, &next_in, &avail_out, &next_out, nullptr));
    out.append(reinterpret_cast<const char*>(buf), sizeof buf - avail_out);
  } while (avail_in > 0 || BrotliEncoderHasMoreOutput(s));
  BrotliEncoderDestroyInstance(s);
  return out;
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

TEST_CASE("trace_parser: a container cut short between two calls ends the calls with a warning") {
  std::vector<std::string> warned;
  ParserOptions opt;
  opt.warnings = [&](const std::string& where, const std::string& why) { warned.push_back(where + ": " + why); };
  // enter 0, leave 0: whole calls only.
  Parser p(std::make_unique<FailingDecoder>(kHeader + kEnter0 + std::string("\x01\x00\x00", 3), Errc::truncated),
           "t.trace", opt);
  const Call* c = p.next();
  REQUIRE(c);
  CHECK((c->flags & kCallIncomplete) == 0);
  CHECK(p.next() == nullptr);
  REQUIRE(p.cut_short());
  CHECK(std::string(p.cut_short()->what()) ==
        "t.trace: offset 99: unexpected end of file inside the gzip stream, between two calls: every call in it was "
        "read (as when a trace is not closed)");
  CHECK(warned == std::vector<std::string>{p.cut_short()->what()});
  CHECK(p.next() == nullptr);
  CHECK(warned.size() == 1);
}

TEST_CASE("trace_parser: cut short after a call's enter event: the call is incomplete, the rest a warning") {
  Parser p(std::make_unique<FailingDecoder>(kHeader + kEnter0, Errc::truncated), "t.trace");
  const Call* c = p.next();
  REQUIRE(c);
  CHECK((c->flags & kCallIncomplete) != 0);
  CHECK(p.next() == nullptr);
  REQUIRE(p.cut_short());
  CHECK(p.cut_short()->message() ==
        "unexpected end of file inside the gzip stream, between two call events: every call in it was read, 1 "
        "incomplete (as when a trace is not closed)");
}

TEST_CASE("trace_parser: cut short inside an event, or corrupt anywhere, stays an error") {
  // The leave event of call 0 cut after its first byte: the call comes out
  // incomplete (as apitrace has it), then the error.
  Parser p(std::make_unique<FailingDecoder>(kHeader + kEnter0 + std::string("\x01", 1), Errc::truncated), "t.trace");
  const Call* c = p.next();
  REQUIRE(c);
  CHECK((c->flags & kCallIncomplete) != 0);
  CHECK_THROWS_WITH_AS(p.next(), "t.trace: offset 99: unexpected end of file inside the gzip stream", Error);
  CHECK(!p.cut_short());
  // Corrupt data is an error even where the stream holds whole calls.
  Parser q(std::make_unique<FailingDecoder>(kHeader + kEnter0 + std::string("\x01\x00\x00", 3), Errc::bad_record),
           "t.trace");
  REQUIRE(q.next());
  CHECK_THROWS_WITH_AS(q.next(), "t.trace: offset 99: corrupt gzip data: invalid distance", Error);
  CHECK(!q.cut_short());
}

TEST_CASE("trace_parser: each real container cut short after its last whole call reads every call") {
  // gears.trace's stream, whose last call was entered and never left.
  std::string stream;
  {
    InputFile in(test::data("gears.trace"));
    auto d = open_decoder(in);
    Block block;
    while (d->next(block)) stream.append(block.begin(), block.end());
  }
  auto encoded = [&](Container c) {
    test::StringSink sink;
    EncoderOptions eo;
    eo.container = c;
    auto enc = make_encoder(eo, sink);
    enc->write(stream.data(), stream.size());
    enc->finish();
    return sink.bytes;
  };
  std::optional<Error> cut;
  const std::uint64_t calls = count_calls(std::make_unique<test::MemDecoder>(stream, 4096), cut);
  REQUIRE(calls > 2000);
  CHECK(!cut);
  const std::string gz = encoded(Container::gzip), sn = encoded(Container::snappy);
  const std::vector<std::pair<std::string, std::string>> cuts = {
      {"gzip without its trailer", gz.substr(0, gz.size() - 8)},
      {"gzip cut inside its trailer", gz.substr(0, gz.size() - 3)},
      {"snappy and 2 bytes of a next chunk's length", sn + sn.substr(2, 2)},
      {"snappy and a next chunk cut after its sizes", sn + sn.substr(2, 7)},
      {"brotli never finished", brotli_unclosed(stream)},
  };
  test::ScratchDir dir;
  for (const auto& [what, bytes] : cuts) {
    CAPTURE(what);
    test::write_file(dir / "cut", bytes);
    InputFile in(dir / "cut");
    CHECK(count_calls(prefetch(open_decoder(in)), cut) == calls);
    REQUIRE(cut);
    CHECK(cut->code() == Errc::truncated);
    CHECK(cut->message().find(", between two call events: every call in it was read, 1 incomplete") !=
          std::string::npos);
  }
}
