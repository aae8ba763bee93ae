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
// Stream bytes per zstd frame: as apitrace's writer (and the zstd seekable
// format's usual maximum frame size) has them.
inline constexpr std::size_t kZstdFrameSize = 2 << 20;
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

// A zstd frame written in pieces: each put() is compressed against the
// frame's earlier pieces and flushed, so a reader decodes everything put
// so far; the frame ends on the put() told so.
class ZstdFlusher {
 public:
  explicit ZstdFlusher(int level);
  ~ZstdFlusher();
  ZstdFlusher(const ZstdFlusher&) = delete;
  ZstdFlusher& operator=(const ZstdFlusher&) = delete;
  // Appends `in`, compressed, to `out`; throws Error(io), after which the
  // frame cannot go on.
  void put(std::string_view in, bool end_frame, std::string& out);

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

// How the capture layer frames its stream: chunks one after the other, each
// written as soon as it exists and readable once written (a crash keeps
// it). Snappy chunks are independent. zstd chunks are flushed pieces of one
// frame that ends once it holds about 2 MiB: a capture flushes at every
// submit, and a frame per flush (what apitrace's writer does) compresses
// each chunk alone, which made vkcube's 300 frames 24 % larger. A file cut
// after any chunk reads up to it (a zstd reader says the frame is cut).
class StreamFramer {
 public:
  StreamFramer(Container c, int level);
  std::string_view opening() const { return chunks_.opening(); }
  // `chunk` framed into `out`; one thread at a time; throws Error(io).
  void frame(std::string_view chunk, std::string& out);
  // The chunk frame() gave last reached the file.
  void wrote(std::size_t framed, std::size_t n);
  // What ends the file: the open zstd frame's end, then the seek table.
  std::string closing();

 private:
  ChunkFramer chunks_;
  std::unique_ptr<ZstdFlusher> zstd_;
  bool ended_ = false;  // the last frame() ended a zstd frame
  std::size_t framed_ = 0, in_frame_ = 0;
};

// 0 means "all cores"; at least 1.
unsigned resolve_threads(unsigned threads);

}  // namespace libtrace::detail
