// SPDX-License-Identifier: MIT
// The "plain" container: bytes as they are (VMA recordings are text files).
#include "codec_internal.hpp"

namespace libtrace::detail {

namespace {

class PlainDecoder final : public Decoder {
 public:
  explicit PlainDecoder(InputFile& in) : in_(in) {}
  bool next(std::vector<std::uint8_t>& out) override {
    out.resize(kDecodeBlock);
    const std::size_t n = in_.read(out.data(), out.size());
    out.resize(n);
    return n > 0;
  }
  Container container() const override { return Container::plain; }
  std::uint64_t file_offset() const override { return in_.offset(); }

 private:
  InputFile& in_;
};

class PlainEncoder final : public Sink {
 public:
  explicit PlainEncoder(Sink& out) : out_(out) {}
  void write(const void* data, std::size_t size) override { out_.write(data, size); }
  void finish() override { out_.finish(); }

 private:
  Sink& out_;
};

}  // namespace

std::unique_ptr<Decoder> make_plain_decoder(InputFile& in) { return std::make_unique<PlainDecoder>(in); }
std::unique_ptr<Sink> make_plain_encoder(Sink& out) { return std::make_unique<PlainEncoder>(out); }

}  // namespace libtrace::detail
