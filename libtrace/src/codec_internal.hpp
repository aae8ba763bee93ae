// SPDX-License-Identifier: MIT
// Factories of the per-container decoders and encoders (one file each).
#pragma once

#include <memory>

#include "libtrace/codec.hpp"

namespace libtrace::detail {

// Output block size of the streaming decoders (gzip, brotli).
inline constexpr std::size_t kDecodeBlock = 1 << 18;

std::unique_ptr<Decoder> make_snappy_decoder(InputFile& in);
std::unique_ptr<Decoder> make_gzip_decoder(InputFile& in);
std::unique_ptr<Decoder> make_brotli_decoder(InputFile& in);

std::unique_ptr<Sink> make_snappy_encoder(Sink& out, unsigned threads);
std::unique_ptr<Sink> make_gzip_encoder(Sink& out, int level, unsigned threads);
std::unique_ptr<Sink> make_brotli_encoder(Sink& out, int level);

// 0 means "all cores"; at least 1.
unsigned resolve_threads(unsigned threads);

}  // namespace libtrace::detail
