// SPDX-License-Identifier: MIT
// zstd containers, as apitrace's development line writes them: plain zstd
// frames one after the other, or the seekable layout (frames of about 2 MiB,
// then a seek table in a skippable frame: magic 0x184D2A5E, one
// {compressed u32, decompressed u32} entry per frame, a footer of the frame
// count u32, a descriptor byte and the magic 0x8F92EAB1). Reading takes
// either (the seek table is a skippable frame to a stream reader); writing
// always gives the seekable one, its frames compressed on every core.
#include <zstd.h>

#include <array>
#include <cstring>

#include "core/chunk_pool.hpp"
#include "core/codec_internal.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::detail {

namespace {

constexpr std::uint32_t kSkippableMagic = 0x184D2A5E;
constexpr std::uint32_t kSeekableMagic = 0x8F92EAB1;

struct DCtxDeleter {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};
struct CCtxDeleter {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

class ZstdDecoder final : public Decoder {
 public:
  explicit ZstdDecoder(InputFile& in) : in_(in), ctx_(ZSTD_createDCtx()), inbuf_(ZSTD_DStreamInSize()) {
    if (!ctx_) throw Error(Errc::io, in_.name(), "zstd: cannot create decoder");
    // A damaged frame header must not make the decoder reserve gigabytes.
    ZSTD_DCtx_setParameter(ctx_.get(), ZSTD_d_windowLogMax, 27);
  }

  bool next(Block& out) override {
    error_.raise_if_set(done_);
    if (done_) return false;
    out.resize(kDecodeBlock);
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    while (o.pos < o.size && !error_ && !done_) {
      if (in_buf_.pos == in_buf_.size && !eof_) {
        const std::size_t n = in_.read(inbuf_.data(), inbuf_.size());
        in_buf_ = {inbuf_.data(), n, 0};
        eof_ = n == 0;
      }
      const bool no_input = eof_ && in_buf_.pos == in_buf_.size;
      if (no_input && !in_frame_) {
        done_ = true;  // the input ends between frames
        break;
      }
      const std::size_t before = o.pos;
      const std::size_t rc = ZSTD_decompressStream(ctx_.get(), &o, &in_buf_);
      if (ZSTD_isError(rc)) {
        const bool first = produced_ + o.pos == 0 && !in_frame_ && frames_ == 0;
        if (first)
          error_.set(Error(Errc::bad_magic, at_offset(in_.name(), 0), "not a zstd container"));
        else
          error_.set(Error(Errc::bad_record, at_offset(in_.name(), file_offset()),
                           std::string("corrupt zstd data (") + ZSTD_getErrorName(rc) + ")"));
        break;
      }
      // 0: a frame (or skippable frame) just ended, whole and flushed. Else
      // the decoder wants more input or still holds output: with no input
      // left, it is drained first, and only a call that gives nothing more
      // means the file ends inside a frame.
      in_frame_ = rc != 0;
      if (rc == 0) ++frames_;
      if (no_input && in_frame_ && o.pos == before)
        error_.set(
            Error(Errc::truncated, at_offset(in_.name(), in_.offset()), "unexpected end of file inside a zstd frame"));
    }
    out.resize(o.pos);
    produced_ += out.size();
    if (!out.empty()) return true;
    return next(out);
  }

  Container container() const override { return Container::zstd; }
  std::uint64_t file_offset() const override { return in_.offset() - (in_buf_.size - in_buf_.pos); }

 private:
  InputFile& in_;
  std::unique_ptr<ZSTD_DCtx, DCtxDeleter> ctx_;
  std::vector<std::uint8_t> inbuf_;
  ZSTD_inBuffer in_buf_{nullptr, 0, 0};
  std::uint64_t produced_ = 0, frames_ = 0;
  DeferredError error_;
  bool in_frame_ = false;
  bool eof_ = false;
  bool done_ = false;
};

class ZstdEncoder final : public Sink {
 public:
  ZstdEncoder(Sink& out, int level, unsigned threads)
      : out_(out),
        framer_(Container::zstd, level),
        pool_(
            threads, kZstdFrameSize, 0, [this](ChunkPool::Job& j) { compress(j); },
            [this](const ChunkPool::Job& j) { emit(j); }) {}

  void write(const void* data, std::size_t size) override { pool_.write(data, size); }

  void finish() override {
    pool_.finish(false);
    const std::string table = framer_.closing();
    out_.write(table.data(), table.size());
    out_.finish();
  }

 private:
  void compress(ChunkPool::Job& job) const {
    if (job.in.empty()) {
      job.out.clear();
      return;
    }
    job.out.resize(framer_.bound(job.in.size()));
    job.out.resize(framer_.frame(job.in.data(), job.in.size(), job.out.data()));
  }

  void emit(const ChunkPool::Job& job) {
    if (job.out.empty()) return;
    out_.write(job.out.data(), job.out.size());
    framer_.wrote(job.out.size(), job.in.size());
  }

  Sink& out_;
  ChunkFramer framer_;
  ChunkPool pool_;  // last: its workers stop before the members they use go
};

}  // namespace

std::size_t zstd_frame_bound(std::size_t n) { return ZSTD_compressBound(n); }

std::size_t zstd_frame(int level, const void* in, std::size_t n, void* out) {
  // One context per frame: frames compress on many threads at once.
  std::unique_ptr<ZSTD_CCtx, CCtxDeleter> ctx(ZSTD_createCCtx());
  if (!ctx) throw Error(Errc::io, "", "zstd: cannot create encoder");
  ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_checksumFlag, 1);
  const std::size_t done = ZSTD_compress2(ctx.get(), out, zstd_frame_bound(n), in, n);
  if (ZSTD_isError(done)) throw Error(Errc::io, "", std::string("zstd: ") + ZSTD_getErrorName(done));
  return done;
}

struct ZstdFlusher::Ctx {
  std::unique_ptr<ZSTD_CCtx, CCtxDeleter> c;
};

ZstdFlusher::ZstdFlusher(int level) : ctx_(std::make_unique<Ctx>()) {
  ctx_->c.reset(ZSTD_createCCtx());
  if (!ctx_->c) throw Error(Errc::io, "", "zstd: cannot create encoder");
  ZSTD_CCtx_setParameter(ctx_->c.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(ctx_->c.get(), ZSTD_c_checksumFlag, 1);
}

ZstdFlusher::~ZstdFlusher() = default;

void ZstdFlusher::put(std::string_view in, bool end_frame, std::string& out) {
  ZSTD_inBuffer i{in.data(), in.size(), 0};
  const ZSTD_EndDirective mode = end_frame ? ZSTD_e_end : ZSTD_e_flush;
  for (;;) {
    const std::size_t at = out.size();
    out.resize(at + ZSTD_compressBound(in.size() - i.pos) + ZSTD_CStreamOutSize());
    ZSTD_outBuffer o{out.data() + at, out.size() - at, 0};
    const std::size_t left = ZSTD_compressStream2(ctx_->c.get(), &o, &i, mode);
    out.resize(at + o.pos);
    // The frame is unusable after an error: its writer stops there.
    if (ZSTD_isError(left)) throw Error(Errc::io, "", std::string("zstd: ") + ZSTD_getErrorName(left));
    if (left == 0) return;
  }
}

std::string zstd_seek_table(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& frames) {
  std::string t;
  const auto u32 = [&t](std::uint32_t x) {
    for (int i = 0; i < 4; ++i) t.push_back(static_cast<char>(x >> (8 * i)));
  };
  u32(kSkippableMagic);
  u32(static_cast<std::uint32_t>(frames.size() * 8 + 9));
  for (const auto& [compressed, decompressed] : frames) {
    u32(compressed);
    u32(decompressed);
  }
  u32(static_cast<std::uint32_t>(frames.size()));
  t.push_back(0);  // descriptor: no per-frame checksums in the table
  u32(kSeekableMagic);
  return t;
}

std::unique_ptr<Decoder> make_zstd_decoder(InputFile& in) { return std::make_unique<ZstdDecoder>(in); }

std::unique_ptr<Sink> make_zstd_encoder(Sink& out, int level, unsigned threads) {
  return std::make_unique<ZstdEncoder>(out, level, resolve_threads(threads));
}

}  // namespace libtrace::detail
