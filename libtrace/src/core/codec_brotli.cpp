// SPDX-License-Identifier: MIT
// apitrace's brotli container: one raw brotli stream, no magic, no framing.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include <cstring>

#include "core/codec_internal.hpp"
#include "libtrace/core/error.hpp"

namespace libtrace::detail {

namespace {

constexpr std::size_t kInBuf = 1 << 16;

struct DecoderDeleter {
  void operator()(BrotliDecoderState* s) const { BrotliDecoderDestroyInstance(s); }
};
struct EncoderDeleter {
  void operator()(BrotliEncoderState* s) const { BrotliEncoderDestroyInstance(s); }
};

class BrotliDecoder final : public Decoder {
 public:
  explicit BrotliDecoder(InputFile& in)
      : in_(in), state_(BrotliDecoderCreateInstance(nullptr, nullptr, nullptr)), inbuf_(kInBuf) {
    if (!state_) throw Error(Errc::io, in_.name(), "brotli: cannot create decoder");
  }

  bool next(Block& out) override {
    error_.raise_if_set(done_);
    if (done_) return false;
    out.resize(kDecodeBlock);
    std::uint8_t* next_out = out.data();
    std::size_t avail_out = out.size();
    while (avail_out > 0 && !error_ && !done_) {
      if (avail_in_ == 0 && !eof_) {
        avail_in_ = in_.read(inbuf_.data(), inbuf_.size());
        next_in_ = inbuf_.data();
        if (avail_in_ == 0) eof_ = true;
      }
      const BrotliDecoderResult rc =
          BrotliDecoderDecompressStream(state_.get(), &avail_in_, &next_in_, &avail_out, &next_out, nullptr);
      if (rc == BROTLI_DECODER_RESULT_SUCCESS) {
        if (avail_in_ > 0 || in_.peek(1).size() > 0)
          error_.set(Error(Errc::bad_record, at_offset(in_.name(), file_offset()),
                           "trailing garbage after the brotli stream"));
        else
          done_ = true;
      } else if (rc == BROTLI_DECODER_RESULT_ERROR) {
        const char* why = BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state_.get()));
        if (produced_ + static_cast<std::uint64_t>(next_out - out.data()) == 0)
          error_.set(Error(Errc::bad_magic, at_offset(in_.name(), 0),
                           "not a trace: neither snappy ('at'), gzip (1f 8b) nor brotli data"));
        else
          error_.set(Error(Errc::bad_record, at_offset(in_.name(), file_offset()),
                           std::string("corrupt brotli data (") + why + ")"));
      } else if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT && eof_ && !BrotliDecoderHasMoreOutput(state_.get())) {
        // Brotli asks for input while it still holds decoded output: that
        // output is drained first, so that a cut stream gives all it can.
        error_.set(Error(Errc::truncated, at_offset(in_.name(), in_.offset()),
                         "unexpected end of file inside the brotli stream"));
      }
    }
    out.resize(out.size() - avail_out);
    produced_ += out.size();
    if (!out.empty()) return true;
    return next(out);
  }

  Container container() const override { return Container::brotli; }
  std::uint64_t file_offset() const override { return in_.offset() - avail_in_; }

 private:
  InputFile& in_;
  std::unique_ptr<BrotliDecoderState, DecoderDeleter> state_;
  std::vector<std::uint8_t> inbuf_;
  const std::uint8_t* next_in_ = nullptr;
  std::size_t avail_in_ = 0;
  std::uint64_t produced_ = 0;
  DeferredError error_;
  bool eof_ = false;
  bool done_ = false;
};

class BrotliEncoder final : public Sink {
 public:
  BrotliEncoder(Sink& out, int level)
      : out_(out), state_(BrotliEncoderCreateInstance(nullptr, nullptr, nullptr)), outbuf_(kInBuf) {
    if (!state_) throw Error(Errc::io, "", "brotli: cannot create encoder");
    // apitrace's repack: quality 11 unless asked, window 24.
    BrotliEncoderSetParameter(state_.get(), BROTLI_PARAM_QUALITY, static_cast<std::uint32_t>(level < 0 ? 11 : level));
    BrotliEncoderSetParameter(state_.get(), BROTLI_PARAM_LGWIN, 24);
  }

  void write(const void* data, std::size_t size) override {
    run(BROTLI_OPERATION_PROCESS, static_cast<const std::uint8_t*>(data), size);
  }
  void finish() override {
    run(BROTLI_OPERATION_FINISH, nullptr, 0);
    out_.finish();
  }

 private:
  void run(BrotliEncoderOperation op, const std::uint8_t* next_in, std::size_t avail_in) {
    for (;;) {
      std::uint8_t* next_out = outbuf_.data();
      std::size_t avail_out = outbuf_.size();
      if (!BrotliEncoderCompressStream(state_.get(), op, &avail_in, &next_in, &avail_out, &next_out, nullptr))
        throw Error(Errc::io, "", "brotli: compression failed");
      if (avail_out < outbuf_.size()) out_.write(outbuf_.data(), outbuf_.size() - avail_out);
      const bool more_out = BrotliEncoderHasMoreOutput(state_.get());
      if (op == BROTLI_OPERATION_FINISH) {
        if (BrotliEncoderIsFinished(state_.get())) return;
      } else if (avail_in == 0 && !more_out) {
        return;
      }
    }
  }

  Sink& out_;
  std::unique_ptr<BrotliEncoderState, EncoderDeleter> state_;
  std::vector<std::uint8_t> outbuf_;
};

}  // namespace

std::unique_ptr<Decoder> make_brotli_decoder(InputFile& in) { return std::make_unique<BrotliDecoder>(in); }

std::unique_ptr<Sink> make_brotli_encoder(Sink& out, int level) { return std::make_unique<BrotliEncoder>(out, level); }

}  // namespace libtrace::detail
