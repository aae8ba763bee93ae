// SPDX-License-Identifier: MIT
// gzip container. The decoder reads concatenated members (as gzread does).
// The encoder compresses 1 MiB chunks in parallel into one gzip member, each
// chunk primed with the previous chunk's last 32 KiB as its dictionary (the
// pigz technique), so the ratio stays that of a serial deflate.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <thread>

#include "core/chunk_pool.hpp"
#include "core/codec_internal.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::detail {

namespace {

constexpr std::size_t kInBuf = 1 << 16;
constexpr std::size_t kDict = 32 * 1024;
constexpr std::size_t kGzipChunk = 1 << 20;

// RAII over an inflate stream.
class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&z_, 15 + 16) != Z_OK) throw Error(Errc::io, "", "zlib: cannot initialise inflate");
  }
  ~Inflater() { inflateEnd(&z_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream* operator->() { return &z_; }
  z_stream* get() { return &z_; }

 private:
  z_stream z_{};
};

class GzipDecoder final : public Decoder {
 public:
  explicit GzipDecoder(InputFile& in) : in_(in), inbuf_(kInBuf) {}

  bool next(Block& out) override {
    error_.raise_if_set(done_);
    if (done_) return false;
    out.resize(kDecodeBlock);
    z_.get()->next_out = out.data();
    z_.get()->avail_out = static_cast<uInt>(out.size());
    while (z_.get()->avail_out > 0 && !error_ && !done_) step();
    out.resize(out.size() - z_.get()->avail_out);
    if (!out.empty()) return true;
    return next(out);
  }

  Container container() const override { return Container::gzip; }
  std::uint64_t file_offset() const override { return in_.offset() - z_.get()->avail_in; }

 private:
  // One unit of progress: read input, start a following member, or inflate.
  // Errors are stored, so the bytes decoded before them are still delivered.
  void step() {
    z_stream* z = z_.get();
    if (z->avail_in == 0) {
      const std::size_t n = in_.read(inbuf_.data(), inbuf_.size());
      if (n == 0) {
        if (at_member_end_)
          done_ = true;
        else
          error_.set(Error(Errc::truncated, at_offset(in_.name(), in_.offset()),
                           "unexpected end of file inside the gzip stream"));
        return;
      }
      z->next_in = inbuf_.data();
      z->avail_in = static_cast<uInt>(n);
    }
    if (at_member_end_) {
      // Another member may follow, as gzread allows; it starts with the magic.
      if (z->next_in[0] != 0x1f) {
        error_.set(
            Error(Errc::bad_record, at_offset(in_.name(), file_offset()), "trailing garbage after the gzip stream"));
        return;
      }
      inflateReset(z);
      at_member_end_ = false;
    }
    const int rc = inflate(z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      at_member_end_ = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      error_.set(Error(Errc::bad_record, at_offset(in_.name(), file_offset()),
                       std::string("corrupt gzip data: ") + (z->msg ? z->msg : "inflate failed")));
    }
  }

  InputFile& in_;
  mutable Inflater z_;
  std::vector<std::uint8_t> inbuf_;
  DeferredError error_;
  bool at_member_end_ = false;
  bool done_ = false;
};

// RAII over a raw deflate stream.
class Deflater {
 public:
  explicit Deflater(int level) {
    // memLevel 8 as gzopen uses: on traces it compresses better than 9
    // (smaller deflate blocks adapt their Huffman codes more often).
    if (deflateInit2(&z_, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw Error(Errc::io, "", "zlib: cannot initialise deflate");
  }
  ~Deflater() { deflateEnd(&z_); }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;
  z_stream* get() { return &z_; }

 private:
  z_stream z_{};
};

class GzipEncoder final : public Sink {
 public:
  GzipEncoder(Sink& out, int level, unsigned threads)
      : out_(out),
        level_(level < 0 ? 9 : level),
        pool_(
            threads, kGzipChunk, kDict, [this](ChunkPool::Job& j) { compress(j); },
            [this](const ChunkPool::Job& j) { emit(j); }) {
    // The header apitrace's gzopen writes: no name, no mtime, XFL 2, OS 3.
    static constexpr std::array<std::uint8_t, 10> kHeader{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3};
    out_.write(kHeader.data(), kHeader.size());
  }

  void write(const void* data, std::size_t size) override { pool_.write(data, size); }

  void finish() override {
    pool_.finish(true);  // the last block must carry the deflate end marker
    std::uint8_t trailer[8];
    for (int i = 0; i < 4; ++i) {
      trailer[i] = static_cast<std::uint8_t>(crc_ >> (8 * i));
      trailer[4 + i] = static_cast<std::uint8_t>(total_ >> (8 * i));
    }
    out_.write(trailer, 8);
    out_.finish();
  }

 private:
  void compress(ChunkPool::Job& job) const {
    Deflater d(level_);
    z_stream* z = d.get();
    if (!job.prev_tail.empty()) deflateSetDictionary(z, job.prev_tail.data(), static_cast<uInt>(job.prev_tail.size()));
    job.out.resize(deflateBound(z, job.in.size()) + 16);
    z->next_in = job.in.data();
    z->avail_in = static_cast<uInt>(job.in.size());
    z->next_out = job.out.data();
    z->avail_out = static_cast<uInt>(job.out.size());
    deflate(z, job.last ? Z_FINISH : Z_SYNC_FLUSH);
    job.out.resize(job.out.size() - z->avail_out);
    job.check = static_cast<std::uint32_t>(crc32(0, job.in.data(), static_cast<uInt>(job.in.size())));
  }

  void emit(const ChunkPool::Job& job) {
    out_.write(job.out.data(), job.out.size());
    crc_ = crc32_combine(crc_, job.check, static_cast<z_off_t>(job.in.size()));
    total_ += job.in.size();
  }

  Sink& out_;
  int level_;
  uLong crc_ = crc32(0, nullptr, 0);
  std::uint64_t total_ = 0;
  ChunkPool pool_;  // last: its workers stop before the members they use go
};

}  // namespace

std::unique_ptr<Decoder> make_gzip_decoder(InputFile& in) { return std::make_unique<GzipDecoder>(in); }

std::unique_ptr<Sink> make_gzip_encoder(Sink& out, int level, unsigned threads) {
  return std::make_unique<GzipEncoder>(out, level, resolve_threads(threads));
}

}  // namespace libtrace::detail
