// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>

#include "libtrace/apitrace/call_flags.hpp"
#include "libtrace/apitrace/dump.hpp"

using namespace libtrace;
using namespace libtrace::apitrace;

TEST_CASE("dump_jsonl: header and a call with tagged values") {
  TraceHeader h;
  h.version = 6;
  h.semantic_version = 6;
  h.properties = {{"process.name", "/bin/x"}};
  std::string out;
  jsonl_header(h, "gzip", out);
  CHECK(out ==
        "{\"type\":\"header\",\"version\":6,\"semantic_version\":6,\"container\":\"gzip\","
        "\"properties\":{\"process.name\":\"/bin/x\"}}\n");

  FunctionSig f;
  f.name = "glDraw";
  f.arg_names = {"mode", "mask", "p", "s", "nan", "blob"};
  EnumSig e;
  e.values = {{"GL_TRIANGLES", 4}};
  BitmaskSig b;
  b.flags = {{"A", 1}, {"B", 2}};
  Call c;
  c.sig = &f;
  c.no = 9;
  c.thread = 2;
  c.flags = kCallFake | kCallEndFrame;
  auto add = [&](Value v) {
    c.values.push_back(v);
    return static_cast<std::uint32_t>(c.values.size() - 1);
  };
  Value v;
  v.kind = Kind::enumeration;
  v.sig = &e;
  v.num.i = 4;
  c.args.push_back(add(v));
  v = Value{};
  v.kind = Kind::bitmask;
  v.sig = &b;
  v.num.u = 3;
  c.args.push_back(add(v));
  v = Value{};
  v.kind = Kind::pointer;
  v.num.u = 0xabc;
  c.args.push_back(add(v));
  v = Value{};
  v.kind = Kind::string;
  c.bytes = std::string("q\"\xff\xc3\xa9\n", 6);
  v.len = c.bytes.size();
  v.has_data = true;
  c.args.push_back(add(v));
  v = Value{};
  v.kind = Kind::float64;
  v.num.d = std::nan("");
  c.args.push_back(add(v));
  v = Value{};
  v.kind = Kind::blob;
  v.len = 16;
  c.args.push_back(add(v));
  out.clear();
  jsonl_call(c, out);
  CHECK(out ==
        "{\"type\":\"call\",\"no\":9,\"thread\":2,\"name\":\"glDraw\",\"args\":{"
        "\"mode\":{\"enum\":\"GL_TRIANGLES\",\"value\":4},\"mask\":{\"bitmask\":[\"A\",\"B\"],\"value\":3},"
        "\"p\":{\"pointer\":\"0xabc\"},\"s\":\"q\\\"\\u00ff\xc3\xa9\\n\",\"nan\":\"nan\",\"blob\":{\"blob\":16}},"
        "\"flags\":[\"fake\",\"end_frame\"]}\n");
}
