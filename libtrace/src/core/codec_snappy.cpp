// SPDX-License-Identifier: MIT
// apitrace's snappy container: 'a' 't', then chunks of u32 LE length + one raw
// snappy block. Chunks are independent, so the encoder compresses them in
// parallel.
#include <snappy-sinksource.h>
#include <snappy.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "core/chunk_pool.hpp"
#include "core/codec_internal.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::detail {

namespace {

// apitrace writes 1 MiB chunks; its reader accepts larger ones. Anything past
// these limits is corruption, and refusing it bounds our allocations.
constexpr std::uint32_t kMaxCompressedChunk = 64u << 20;
constexpr std::size_t kMaxChunk = 256u << 20;

class SnappyDecoder final : public Decoder {
 public:
  explicit SnappyDecoder(InputFile& in) : in_(in) {
    char magic[2];
    in_.read_full(magic, 2);
  }

  bool next(Block& out) override {
    pending_.raise_if_set(done_);
    if (done_) return false;
    for (;;) {
      const std::uint64_t chunk_at = in_.offset();
      std::uint8_t len_bytes[4];
      const std::size_t got = in_.read_full(len_bytes, 4);
      if (got == 0) {
        done_ = true;
        return false;
      }
      if (got < 4) {
        done_ = true;
        throw Error(Errc::truncated, at_offset(in_.name(), chunk_at),
                    "unexpected end of file inside a snappy chunk length");
      }
      const std::uint32_t len =
          static_cast<std::uint32_t>(len_bytes[0]) | static_cast<std::uint32_t>(len_bytes[1]) << 8 |
          static_cast<std::uint32_t>(len_bytes[2]) << 16 | static_cast<std::uint32_t>(len_bytes[3]) << 24;
      if (len == 0) continue;  // apitrace reads an empty chunk as nothing
      if (len > kMaxCompressedChunk) {
        done_ = true;
        throw Error(Errc::bad_record, at_offset(in_.name(), chunk_at),
                    "snappy chunk length " + std::to_string(len) + " is implausible (corrupt file?)");
      }
      compressed_.resize(len);
      const std::size_t have = in_.read_full(compressed_.data(), len);
      const char* src = compressed_.data();
      std::size_t size = 0;
      if (!snappy::GetUncompressedLength(src, have, &size)) {
        done_ = true;
        if (have < len)
          throw Error(Errc::truncated, at_offset(in_.name(), chunk_at), "unexpected end of file inside a snappy chunk");
        throw Error(Errc::bad_record, at_offset(in_.name(), chunk_at), "corrupt snappy chunk");
      }
      if (size > kMaxChunk) {
        done_ = true;
        throw Error(Errc::bad_record, at_offset(in_.name(), chunk_at),
                    "snappy chunk claims " + std::to_string(size) + " bytes (corrupt file?)");
      }
      out.resize(size);
      if (have < len) {
        // Keep what the cut chunk still holds, as apitrace does, then fail.
        snappy::ByteArraySource source(src, have);
        snappy::UncheckedByteArraySink sink(reinterpret_cast<char*>(out.data()));
        const std::size_t n = snappy::UncompressAsMuchAsPossible(&source, &sink);
        out.resize(std::min(n, size));
        pending_.set(Error(Errc::truncated, at_offset(in_.name(), in_.offset()),
                           "unexpected end of file inside a snappy chunk (chunk at offset " + std::to_string(chunk_at) +
                               " is " + std::to_string(len - have) + " bytes short)"));
        // Nothing recovered: the error is all there is (the file ends here,
        // so the next length would read as a clean end).
        if (out.empty()) pending_.raise_if_set(done_);
        return true;
      }
      if (!snappy::RawUncompress(src, len, reinterpret_cast<char*>(out.data()))) {
        done_ = true;
        throw Error(Errc::bad_record, at_offset(in_.name(), chunk_at), "corrupt snappy chunk");
      }
      if (size == 0) continue;
      return true;
    }
  }

  Container container() const override { return Container::snappy; }
  std::uint64_t file_offset() const override { return in_.offset(); }

 private:
  InputFile& in_;
  std::vector<char> compressed_;
  DeferredError pending_;
  bool done_ = false;
};

// Chunks of kSnappyChunk bytes compressed on `threads` threads and written in
// order, so the output is the same bytes as a serial writer's (and
// apitrace's).
class SnappyEncoder final : public Sink {
 public:
  SnappyEncoder(Sink& out, unsigned threads)
      : out_(out),
        framer_(Container::snappy, -1),
        pool_(
            threads, kSnappyChunk, 0,
            [this](ChunkPool::Job& j) {
              j.out.resize(framer_.bound(j.in.size()));
              j.out.resize(framer_.frame(j.in.data(), j.in.size(), j.out.data()));
            },
            [this](const ChunkPool::Job& j) { out_.write(j.out.data(), j.out.size()); }) {
    out_.write(framer_.opening().data(), framer_.opening().size());
  }

  void write(const void* data, std::size_t size) override { pool_.write(data, size); }
  void finish() override {
    pool_.finish(false);  // an empty chunk would read as the end of the file
    out_.finish();
  }

 private:
  Sink& out_;
  const ChunkFramer framer_;
  ChunkPool pool_;  // last: its workers stop before the members they use go
};

}  // namespace

std::size_t snappy_chunk_bound(std::size_t n) { return 4 + snappy::MaxCompressedLength(n); }

std::size_t snappy_chunk(const void* in, std::size_t n, void* out) {
  auto* o = static_cast<char*>(out);
  std::size_t len = 0;
  snappy::RawCompress(static_cast<const char*>(in), n, o + 4, &len);
  for (int b = 0; b < 4; ++b) o[b] = static_cast<char>(len >> (8 * b));
  return 4 + len;
}

unsigned resolve_threads(unsigned threads) {
  if (threads) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw ? hw : 1;
}

std::unique_ptr<Decoder> make_snappy_decoder(InputFile& in) { return std::make_unique<SnappyDecoder>(in); }

std::unique_ptr<Sink> make_snappy_encoder(Sink& out, unsigned threads) {
  return std::make_unique<SnappyEncoder>(out, resolve_threads(threads));
}

}  // namespace libtrace::detail
