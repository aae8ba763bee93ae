// SPDX-License-Identifier: MIT
// Varint SPIR-V and base64 against Fossilize's own output (the vkcube shader
// modules fossilize-convert-db wrote) and their edge cases.
#include "libtrace/foz/varint.hpp"

#include <doctest/doctest.h>

#include <random>

#include "test_util.hpp"

namespace foz = libtrace::foz;

TEST_CASE("foz varint: sizes at every byte boundary") {
  const std::vector<std::uint32_t> words = {
      0, 127, 128, 16383, 16384, (1u << 21) - 1, 1u << 21, (1u << 28) - 1, 1u << 28, 0xffffffffu};
  const std::vector<std::size_t> sizes = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string out;
    foz::encode_varint({&words[i], 1}, out);
    CHECK(out.size() == sizes[i]);
    CHECK(foz::varint_size({&words[i], 1}) == sizes[i]);
    std::uint32_t back = 1;
    CHECK(foz::decode_varint(out, {&back, 1}));
    CHECK(back == words[i]);
  }
  std::string out;
  const std::uint32_t w = 0x07230203;  // the SPIR-V magic, LSB first
  foz::encode_varint({&w, 1}, out);
  CHECK(out == "\x83\x84\x8c\x39");
}

TEST_CASE("foz varint: random words round-trip (as Fossilize's varint_test does)") {
  std::mt19937 rng(1);
  std::vector<std::uint32_t> words(100000);
  for (auto& w : words) w = rng() >> (rng() % 32);
  std::string enc;
  foz::encode_varint(words, enc);
  CHECK(enc.size() == foz::varint_size(words));
  std::vector<std::uint32_t> back(words.size());
  CHECK(foz::decode_varint(enc, back));
  CHECK(back == words);
}

TEST_CASE("foz varint: decoding is strict about length and overflow") {
  std::uint32_t w[2];
  std::size_t at = 99;
  CHECK_FALSE(foz::decode_varint("\x81", {w, 1}, &at));  // runs out mid-word
  CHECK(at == 1);
  CHECK_FALSE(foz::decode_varint(std::string("\x01\x02", 2), {w, 1}, &at));  // a byte left over
  CHECK(at == 1);
  CHECK_FALSE(foz::decode_varint(std::string("\x01", 1), {w, 2}, &at));  // fewer words than asked
  CHECK_FALSE(foz::decode_varint("\xff\xff\xff\xff\x1f", {w, 1}, &at));  // bits past 32
  CHECK(at == 4);
  CHECK_FALSE(foz::decode_varint("\x80\x80\x80\x80\x80\x01", {w, 1}, &at));  // a sixth byte
  CHECK(foz::decode_varint("\xff\xff\xff\xff\x0f", {w, 1}));
  CHECK(w[0] == 0xffffffffu);
  CHECK(foz::decode_varint("", {w, 0}));
}

TEST_CASE("foz varint: the vkcube modules decode to SPIR-V and re-encode to Fossilize's bytes") {
  for (const char* name : {"foz/vkcube_json/04.1778d8b90d391b54.json", "foz/vkcube_json/04.8360ba81b60d3962.json"}) {
    const std::string file = test::read_file(test::data(name));
    const std::size_t nul = file.find('\0');
    REQUIRE(nul != std::string::npos);
    const std::string json = file.substr(0, nul), varint = file.substr(nul + 1);
    const auto num = [&](const char* key) {
      const std::size_t p = json.find(std::string("\"") + key + "\":") + std::string(key).size() + 3;
      return std::stoull(json.substr(p));
    };
    REQUIRE(num("varintSize") == varint.size());
    std::vector<std::uint32_t> words(num("codeSize") / 4);
    REQUIRE(foz::decode_varint(varint, words));
    CHECK(words[0] == 0x07230203u);  // SPIR-V magic
    std::string again;
    foz::encode_varint(words, again);
    CHECK(again == varint);
  }
}

TEST_CASE("foz base64: Fossilize's alphabet and padding, strict decoding") {
  CHECK(foz::encode_base64("", 0).empty());
  CHECK(foz::encode_base64("f", 1) == "Zg==");
  CHECK(foz::encode_base64("fo", 2) == "Zm8=");
  CHECK(foz::encode_base64("foo", 3) == "Zm9v");
  const std::uint8_t spec[] = {0x20, 0, 0, 0, 0x1e, 0, 0, 0, 0, 0, 0xa0, 0x3f};  // from synth_compute
  CHECK(foz::encode_base64(spec, sizeof spec) == "IAAAAB4AAAAAAKA/");
  std::vector<std::uint8_t> out;
  CHECK(foz::decode_base64("IAAAAB4AAAAAAKA/", out));
  CHECK(out == std::vector<std::uint8_t>(spec, spec + sizeof spec));
  CHECK(foz::decode_base64("Zg==", out));
  CHECK(out == std::vector<std::uint8_t>{'f'});
  CHECK(foz::decode_base64("", out));
  CHECK(out.empty());
  CHECK_FALSE(foz::decode_base64("Zg=", out));       // not a multiple of 4
  CHECK_FALSE(foz::decode_base64("Z===", out));      // too much padding
  CHECK_FALSE(foz::decode_base64("Zg==Zg==", out));  // padding before the end
  CHECK_FALSE(foz::decode_base64("Zm-v", out));      // outside the alphabet
  CHECK_FALSE(foz::decode_base64("Zm9\n", out));
}
