// SPDX-License-Identifier: MIT
// The two binary encodings inside Fossilize payloads: varint SPIR-V (shader
// module entries are JSON + NUL + varint words) and base64 (specialization
// data, and shader code in whole-state documents).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace libtrace::foz {

// Bytes the varint form of `words` takes: 1 to 5 per word, 7 bits each,
// least significant first, bit 7 set when another byte follows.
std::size_t varint_size(std::span<const std::uint32_t> words);

// Appends the varint form of `words` to `out`.
void encode_varint(std::span<const std::uint32_t> words, std::string& out);

// Decodes exactly `out.size()` words from `in`, which must be consumed to the
// last byte (what Fossilize's decode_varint requires). Returns false when the
// input runs out, a word needs more than 32 bits (Fossilize would drop the
// excess bits), or bytes are left over;
// `*error_at` (if given) is the byte offset where decoding stopped.
bool decode_varint(std::string_view in, std::span<std::uint32_t> out, std::size_t* error_at = nullptr);

// Standard base64 with '=' padding, as Fossilize writes it.
std::string encode_base64(const void* data, std::size_t size);

// Strict base64: only A-Z a-z 0-9 + /, length a multiple of 4, '=' only as
// the last one or two characters. Returns false on anything else.
bool decode_base64(std::string_view text, std::vector<std::uint8_t>& out);

}  // namespace libtrace::foz
