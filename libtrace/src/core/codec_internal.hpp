// SPDX-License-Identifier: MIT
// Factories of the per-container decoders and encoders (one file each).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libtrace/core/codec.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::detail {

// An error a decoder found but holds back until the bytes decoded before it
// have been delivered.
class DeferredError {
 public:
  void set(Error e) {
    if (!error_) error_ = std::move(e);
  }
  explicit operator bool() const { return error_.has_value(); }
  // Throws the held error (once) and marks the decoder finished.
  void raise_if_set(bool& done) {
    if (!error_) return;
    Error e = std::move(*error_);
    error_.reset();
    done = true;
    throw e;
  }

 private:
  std::optional<Error> error_;
};

// Output block size of the streaming decoders (gzip, brotli).
inline constexpr std::size_t kDecodeBlock = 1 << 18;

std::unique_ptr<Decoder> make_snappy_decoder(InputFile& in);
std::unique_ptr<Decoder> make_gzip_decoder(InputFile& in);
std::unique_ptr<Decoder> make_brotli_decoder(InputFile& in);
std::unique_ptr<Decoder> make_plain_decoder(InputFile& in);
std::unique_ptr<Decoder> make_zstd_decoder(InputFile& in);

std::unique_ptr<Sink> make_snappy_encoder(Sink& out, unsigned threads);
std::unique_ptr<Sink> make_gzip_encoder(Sink& out, int level, unsigned threads);
std::unique_ptr<Sink> make_brotli_encoder(Sink& out, int level);
std::unique_ptr<Sink> make_plain_encoder(Sink& out);
std::unique_ptr<Sink> make_zstd_encoder(Sink& out, int level, unsigned threads);

// apitrace's snappy container, for every writer of it (the encoder below,
// the capture layer's stream): the magic that opens it, then chunks.
inline constexpr char kSnappyMagic[2] = {'a', 't'};
// The most one chunk of `n` bytes takes framed.
std::size_t snappy_chunk_bound(std::size_t n);
// `n` bytes at `in` as one chunk (a little-endian u32 length, then one raw
// snappy block) at `out`, which has snappy_chunk_bound(n) bytes; returns the
// chunk's size.
std::size_t snappy_chunk(const void* in, std::size_t n, void* out);

// zstd's seekable format: the seek table (a skippable frame) that ends a
// file of zstd frames, from each frame's (compressed, decompressed) size.
std::string zstd_seek_table(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& frames);

// 0 means "all cores"; at least 1.
unsigned resolve_threads(unsigned threads);

}  // namespace libtrace::detail
