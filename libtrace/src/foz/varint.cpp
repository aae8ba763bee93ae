// SPDX-License-Identifier: MIT
// Varint SPIR-V and base64, byte-compatible with Fossilize's varint.cpp and
// encode_base64().
#include "libtrace/foz/varint.hpp"

#include <array>

namespace libtrace::foz {

std::size_t varint_size(std::span<const std::uint32_t> words) {
  std::size_t n = 0;
  for (std::uint32_t w : words) {
    n += w < (1u << 7) ? 1 : w < (1u << 14) ? 2 : w < (1u << 21) ? 3 : w < (1u << 28) ? 4 : 5;
  }
  return n;
}

void encode_varint(std::span<const std::uint32_t> words, std::string& out) {
  out.reserve(out.size() + varint_size(words));
  for (std::uint32_t w : words) {
    while (w >= 0x80) {
      out.push_back(static_cast<char>(0x80 | (w & 0x7f)));
      w >>= 7;
    }
    out.push_back(static_cast<char>(w));
  }
}

bool decode_varint(std::string_view in, std::span<std::uint32_t> out, std::size_t* error_at) {
  std::size_t pos = 0;
  for (std::uint32_t& word : out) {
    std::uint32_t w = 0;
    unsigned shift = 0;
    for (;;) {
      if (pos >= in.size() || shift >= 32) {
        if (error_at) *error_at = pos;
        return false;
      }
      const auto b = static_cast<std::uint8_t>(in[pos]);
      // A fifth byte carries bits 28-31 only; more would be silently lost.
      if (shift == 28 && (b & 0x70)) {
        if (error_at) *error_at = pos;
        return false;
      }
      ++pos;
      w |= static_cast<std::uint32_t>(b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
    word = w;
  }
  if (pos != in.size()) {
    if (error_at) *error_at = pos;
    return false;
  }
  return true;
}

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_index() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<std::uint8_t>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr auto kIndex = make_index();

}  // namespace

std::string encode_base64(const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::string out;
  out.reserve(4 * ((size + 2) / 3));
  for (std::size_t i = 0; i < size; i += 3) {
    std::uint32_t v = std::uint32_t{p[i]} << 16;
    if (i + 1 < size) v |= std::uint32_t{p[i + 1]} << 8;
    if (i + 2 < size) v |= p[i + 2];
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < size ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back(i + 2 < size ? kAlphabet[v & 63] : '=');
  }
  return out;
}

bool decode_base64(std::string_view text, std::vector<std::uint8_t>& out) {
  out.clear();
  if (text.size() % 4) return false;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int pad = 0;
    if (last && text[i + 3] == '=') pad = text[i + 2] == '=' ? 2 : 1;
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + static_cast<std::size_t>(k)];
      int d = 0;
      if (k >= 4 - pad) {
        if (c != '=') return false;
      } else {
        d = kIndex[static_cast<std::uint8_t>(c)];
        if (d < 0) return false;
      }
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    if (pad < 2) out.push_back(static_cast<std::uint8_t>(v >> 8));
    if (pad < 1) out.push_back(static_cast<std::uint8_t>(v));
  }
  return true;
}

}  // namespace libtrace::foz
