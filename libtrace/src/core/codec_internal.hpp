// SPDX-License-Identifier: MIT
// Factories of the per-container decoders and encoders (one file each).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
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

// apitrace's snappy container: the magic that opens it, then chunks (a
// little-endian u32 length, then one raw snappy block).
inline constexpr char kSnappyMagic[2] = {'a', 't'};
std::size_t snappy_chunk_bound(std::size_t n);
std::size_t snappy_chunk(const void* in, std::size_t n, void* out);
// One zstd frame (checksummed, a context of its own) of `n` bytes; throws
// Error(io).
std::size_t zstd_frame_bound(std::size_t n);
std::size_t zstd_frame(int level, const void* in, std::size_t n, void* out);
// zstd's seekable format: the seek table (a skippable frame) that ends a
// file of zstd frames, from each frame's (compressed, decompressed) size.
std::string zstd_seek_table(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& frames);

// How a chunked container (snappy, zstd) frames the stream, for every
// writer of one: the encoders, which compress chunks on worker threads, and
// the capture layer's stream, whose helper thread writes each chunk as soon
// as it is full so that a crash keeps it (and so cannot be an encoder).
class ChunkFramer {
 public:
  // `c` is snappy or zstd; `level` as EncoderOptions::level.
  ChunkFramer(Container c, int level);
  // What the file starts with (snappy's magic; nothing for zstd).
  std::string_view opening() const;
  // The most `n` bytes take framed.
  std::size_t bound(std::size_t n) const;
  // `n` bytes at `in` as one chunk at `out` (bound(n) bytes); returns its
  // size. Any number of threads at once; throws Error(io).
  std::size_t frame(const void* in, std::size_t n, void* out) const;
  // A framed chunk reached the file, in stream order.
  void wrote(std::size_t framed, std::size_t n);
  // What ends the file (zstd's seek table, listing what wrote() was told).
  std::string closing() const;

 private:
  Container c_;
  int level_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> frames_;
};

// 0 means "all cores"; at least 1.
unsigned resolve_threads(unsigned threads);

}  // namespace libtrace::detail
