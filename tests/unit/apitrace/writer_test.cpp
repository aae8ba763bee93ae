// SPDX-License-Identifier: MIT
// Every value type through Writer -> Parser, checked through the dump text.
#include "libtrace/apitrace/writer.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/dump.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::apitrace;

namespace {

// Builds values into a Call by hand.
struct Builder {
  Call& c;
  std::uint32_t add(Value v) {
    c.values.push_back(v);
    return static_cast<std::uint32_t>(c.values.size() - 1);
  }
  std::uint32_t num(Kind k, std::int64_t i) {
    Value v;
    v.kind = k;
    v.num.i = i;
    return add(v);
  }
  std::uint32_t real(Kind k, double d) {
    Value v;
    v.kind = k;
    v.num.d = d;
    return add(v);
  }
  std::uint32_t bytes(Kind k, const std::string& s) {
    Value v;
    v.kind = k;
    v.len = s.size();
    v.data = c.bytes.size();
    v.has_data = true;
    c.bytes += s;
    return add(v);
  }
  std::uint32_t wstr(const std::u32string& s) {
    Value v;
    v.kind = Kind::wstring;
    v.len = s.size();
    v.data = c.bytes.size();
    for (char32_t ch : s) {
      char b[4];
      const auto u = static_cast<std::uint32_t>(ch);
      std::memcpy(b, &u, 4);
      c.bytes.append(b, 4);
    }
    return add(v);
  }
  std::uint32_t list(Kind k, std::vector<std::uint32_t> kids, const void* sig = nullptr) {
    Value v;
    v.kind = k;
    v.sig = sig;
    v.count = static_cast<std::uint32_t>(kids.size());
    const std::uint32_t idx = add(v);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (i == 0)
        c.values[idx].first = kids[0];
      else
        c.values[kids[i - 1]].next = kids[i];
    }
    return idx;
  }
  std::uint32_t tagged(Kind k, const void* sig, std::int64_t i) {
    Value v;
    v.kind = k;
    v.sig = sig;
    v.num.i = i;
    return add(v);
  }
};

std::string round_trip_dump(const std::vector<Call>& calls, TraceHeader header = {}) {
  test::StringSink sink;
  {
    Writer w(sink, header);
    for (const Call& c : calls) w.write_call(c);
    w.flush();
  }
  Parser p(std::make_unique<test::MemDecoder>(sink.bytes), "mem");
  std::string out;
  DumpOptions opt;
  opt.verbose = true;
  dump_header(p.header(), opt, out);
  while (const Call* c = p.next()) dump_call(*c, opt, out);
  return out;
}

}  // namespace

TEST_CASE("trace_writer: every value type survives writer -> parser") {
  FunctionSig f;
  f.id = 7;
  f.name = "glTest";
  f.arg_names = {"n", "neg", "u",   "f",   "d",  "s", "b", "t", "blob",
                 "e", "m",   "arr", "one", "st", "p", "r", "w", "missing"};
  EnumSig e;
  e.id = 3;
  e.values = {{"GL_A", 1}, {"GL_B", 2}, {"GL_ALSO_B", 2}};
  BitmaskSig bm;
  bm.id = 2;
  bm.flags = {{"BIT0", 1}, {"BIT1", 2}};
  StructSig ss;
  ss.id = 9;
  ss.name = "S";
  ss.member_names = {"x", "y"};

  Call c;
  c.sig = &f;
  Builder b{c};
  c.args = {
      b.num(Kind::null, 0),
      b.num(Kind::sint, -42),
      b.num(Kind::uint, 18446744073709551615ull),
      b.real(Kind::float32, 0.1f),
      b.real(Kind::float64, 1.0 / 3),
      b.bytes(Kind::string, "a\"b\\c\td\re\x01\xc2\xae"),
      b.num(Kind::boolean, 0),
      b.num(Kind::boolean, 1),
      b.bytes(Kind::blob, std::string("\0\1\2", 3)),
      b.tagged(Kind::enumeration, &e, 2),
      b.tagged(Kind::bitmask, &bm, 3 | 8),
      b.list(Kind::array, {b.num(Kind::uint, 1), b.num(Kind::uint, 2)}),
      b.list(Kind::array, {b.num(Kind::sint, -1)}),
      b.list(Kind::structure, {b.num(Kind::uint, 5), b.num(Kind::null, 0)}, &ss),
      b.num(Kind::pointer, 0xdeadbeef),
      b.list(Kind::repr, {b.bytes(Kind::string, "human"), b.bytes(Kind::blob, "machine")}),
      b.wstr(U"wide\"\u00e9"),
      kNil,
  };
  c.ret = b.list(Kind::array, {});

  TraceHeader h;
  h.semantic_version = 6;
  h.properties = {{"process.name", "/usr/bin/test"}};
  const std::string dump = round_trip_dump({c}, h);
  CHECK(dump ==
        "// process.name = \"/usr/bin/test\"\n"
        "0 glTest(n = NULL, neg = -42, u = 18446744073709551615, f = 0.1, d = 0.3333333333333333, "
        "s = \"a\\\"b\\\\c\tde\\1\\2\\556\", b = false, t = true, blob = blob(3), e = GL_B, m = BIT0 | BIT1 | 0x8, "
        "arr = {1, 2}, one = &-1, st = {x = 5, y = NULL}, p = 0xdeadbeef, r = \"human\", w = L\"wide\\\"\\551\", "
        "missing = ?) = {}\n");
}

TEST_CASE("trace_writer: incomplete calls stay incomplete; fake flag and numbering survive") {
  FunctionSig f;
  f.id = 4;
  f.name = "glXSwapBuffers";
  f.arg_names = {};
  f.flags = kCallEndFrame;
  FunctionSig g;
  g.id = 5;
  g.name = "memcpy";
  Call a;
  a.sig = &g;
  a.no = 100;  // renumbered on write
  a.flags = kCallFake;
  Call b;
  b.sig = &f;
  b.flags = kCallIncomplete;
  CHECK(round_trip_dump({a, b}) == "0 memcpy() // fake\n1 glXSwapBuffers() // incomplete\n\n");
}

TEST_CASE("trace_writer: signatures are defined once and reused by id") {
  FunctionSig f;
  f.id = 12;
  f.name = "glFlush";
  Call c;
  c.sig = &f;
  test::StringSink sink;
  Writer w(sink, TraceHeader{});
  w.write_call(c);
  w.flush();
  const std::size_t first = sink.bytes.size();
  w.write_call(c);
  w.flush();
  const std::size_t second = sink.bytes.size() - first;
  CHECK(second < 10);  // no name the second time
  CHECK(sink.bytes.find("glFlush") == sink.bytes.rfind("glFlush"));
}
