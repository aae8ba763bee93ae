// SPDX-License-Identifier: MIT
// apitrace's dump quirks, one by one (expected strings from apitrace 11.1).
#include <doctest/doctest.h>

#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/dump.hpp"

using namespace libtrace;
using namespace libtrace::apitrace;

namespace {

Value of_kind(Kind kind) {
  Value v;
  v.kind = kind;
  return v;
}

std::string dump_string_arg(const std::string& s, bool multiline = true) {
  FunctionSig f;
  f.name = "glS";
  f.arg_names = {"s"};
  Call c;
  c.sig = &f;
  Value v = of_kind(Kind::string);
  v.len = s.size();
  v.has_data = true;
  c.bytes = s;
  c.values.push_back(v);
  c.args = {0};
  DumpOptions opt;
  opt.multiline = multiline;
  std::string out;
  dump_call(c, opt, out);
  return out;
}

std::string dump_value(Value v, const void* sig = nullptr) {
  FunctionSig f;
  f.name = "f";
  f.arg_names = {"v"};
  Call c;
  c.sig = &f;
  v.sig = sig;
  c.values.push_back(v);
  c.args = {0};
  std::string out;
  dump_call(c, DumpOptions{}, out);
  return out;
}

}  // namespace

TEST_CASE("dump_text: apitrace's sign-extended octal escapes") {
  CHECK(dump_string_arg("\x01") == "0 glS(s = \"\\1\")\n");
  CHECK(dump_string_arg("\x1b") == "0 glS(s = \"\\333\")\n");
  CHECK(dump_string_arg("\x7f") == "0 glS(s = \"\\777\")\n");
  CHECK(dump_string_arg("\xff") == "0 glS(s = \"\\777\")\n");
  CHECK(dump_string_arg("\xc2\xb0") == "0 glS(s = \"\\2\\660\")\n");
  CHECK(dump_string_arg("\xc3\xbc") == "0 glS(s = \"\\3\\774\")\n");
}

TEST_CASE("dump_text: tabs raw, carriage returns dropped, newlines by --multiline") {
  CHECK(dump_string_arg("a\tb\r\nc") == "0 glS(s = \"a\tb\nc\")\n");
  CHECK(dump_string_arg("a\nc", false) == "0 glS(s = \"a\\nc\")\n");
}

TEST_CASE("dump_text: floats as %.7g, doubles as %.16g") {
  Value f = of_kind(Kind::float32);
  f.num.d = static_cast<double>(1e10f);
  CHECK(dump_value(f) == "0 f(v = 1e+10)\n");
  f.num.d = static_cast<double>(-1e-07f);
  CHECK(dump_value(f) == "0 f(v = -1e-07)\n");
  f.num.d = static_cast<double>(3.14159265f);
  CHECK(dump_value(f) == "0 f(v = 3.141593)\n");
  Value d = of_kind(Kind::float64);
  d.num.d = 0.1;
  CHECK(dump_value(d) == "0 f(v = 0.1)\n");
}

TEST_CASE("dump_text: enums take the first matching name, else the number") {
  EnumSig e;
  e.values = {{"GL_ZERO", 0}, {"GL_NONE", 0}};
  Value v = of_kind(Kind::enumeration);
  v.num.i = 0;
  CHECK(dump_value(v, &e) == "0 f(v = GL_ZERO)\n");
  v.num.i = 4660;
  CHECK(dump_value(v, &e) == "0 f(v = 4660)\n");
}

TEST_CASE("dump_text: bitmask decomposition") {
  BitmaskSig b;
  b.flags = {{"NONE", 0}, {"A", 1}, {"B", 2}};
  Value v = of_kind(Kind::bitmask);
  v.num.u = 0;
  CHECK(dump_value(v, &b) == "0 f(v = NONE)\n");
  v.num.u = 3;
  CHECK(dump_value(v, &b) == "0 f(v = A | B)\n");
  v.num.u = 0x12;
  CHECK(dump_value(v, &b) == "0 f(v = B | 0x10)\n");
  BitmaskSig nozero;
  nozero.flags = {{"A", 1}};
  v.num.u = 0;
  CHECK(dump_value(v, &nozero) == "0 f(v = 0x0)\n");
}

TEST_CASE("dump_text: frame end adds a blank line, verbose calls hidden") {
  FunctionSig swap;
  swap.name = "glXSwapBuffers";
  Call c;
  c.sig = &swap;
  c.flags = kCallEndFrame;
  std::string out;
  dump_call(c, DumpOptions{}, out);
  CHECK(out == "0 glXSwapBuffers()\n\n");
  c.flags = kCallVerbose;
  out.clear();
  dump_call(c, DumpOptions{}, out);
  CHECK(out.empty());
  DumpOptions v;
  v.verbose = true;
  v.thread_ids = true;
  c.thread = 10;
  dump_call(c, v, out);
  CHECK(out == "0 @a glXSwapBuffers()\n");
}

TEST_CASE("dump_text: strings end at NUL; wide chars use the same octal rule") {
  CHECK(dump_string_arg(std::string("a\0b", 3)) == "0 glS(s = \"a\")\n");
  CHECK(dump_string_arg("\x80") == "0 glS(s = \"\\0\")\n");
  CHECK(dump_string_arg("\x08") == "0 glS(s = \"\\110\")\n");
}

TEST_CASE("dump_text: nested single arrays, anonymous members, GUIDs") {
  FunctionSig f;
  f.name = "f";
  f.arg_names = {"v"};
  Call c;
  c.sig = &f;
  auto add = [&](Value v) {
    c.values.push_back(v);
    return static_cast<std::uint32_t>(c.values.size() - 1);
  };
  Value one = of_kind(Kind::uint);
  one.num.u = 1;
  Value inner = of_kind(Kind::array);
  inner.count = 1;
  inner.first = add(one);
  Value outer = of_kind(Kind::array);
  outer.count = 1;
  outer.first = add(inner);
  c.args = {add(outer)};
  std::string out;
  dump_call(c, DumpOptions{}, out);
  CHECK(out == "0 f(v = &&1)\n");

  StructSig s;
  s.name = "S";
  s.member_names = {"", "b"};
  Call d;
  d.sig = &f;
  Value n = of_kind(Kind::uint);
  n.num.u = 1;
  d.values.push_back(n);
  n.num.u = 2;
  d.values.push_back(n);
  d.values[0].next = 1;
  Value st = of_kind(Kind::structure);
  st.sig = &s;
  st.count = 2;
  st.first = 0;
  d.values.push_back(st);
  d.args = {2};
  out.clear();
  dump_call(d, DumpOptions{}, out);
  CHECK(out == "0 f(v = {b = 2})\n");
}
