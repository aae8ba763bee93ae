// SPDX-License-Identifier: MIT
#include "core/json_text.hpp"

#include <doctest/doctest.h>

#include <string>

using libtrace::detail::put_json_string;
using libtrace::detail::to_utf8;
using libtrace::detail::utf8_len;

TEST_CASE("utf8_len accepts well-formed sequences only") {
  CHECK(utf8_len("a", 0) == 1);
  CHECK(utf8_len("\xc3\xa9", 0) == 2);
  CHECK(utf8_len("\xe2\x82\xac", 0) == 3);
  CHECK(utf8_len("\xf0\x9f\x98\x80", 0) == 4);
  CHECK(utf8_len("\xe9", 0) == 0);              // Latin-1 e-acute alone
  CHECK(utf8_len("\xc3", 0) == 0);              // cut short
  CHECK(utf8_len("\xc0\xaf", 0) == 0);          // overlong
  CHECK(utf8_len("\xed\xa0\x80", 0) == 0);      // a surrogate
  CHECK(utf8_len("\xf4\x90\x80\x80", 0) == 0);  // past U+10FFFF
}

TEST_CASE("to_utf8 keeps valid text and reads stray bytes as Latin-1") {
  CHECK(to_utf8("plain, text") == "plain, text");
  CHECK(to_utf8("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(to_utf8("caf\xe9") == "caf\xc3\xa9");
  CHECK(to_utf8("\xff\x80") == "\xc3\xbf\xc2\x80");
  CHECK(to_utf8(std::string("a\0b", 3)) == std::string("a\0b", 3));  // escaping is the writer's
}

TEST_CASE("put_json_string escapes and keeps every byte") {
  std::string out;
  put_json_string(out, "q\"\\\n\t\x01 caf\xe9 \xc3\xa9");
  CHECK(out == "\"q\\\"\\\\\\n\\t\\u0001 caf\\u00e9 \xc3\xa9\"");
}
