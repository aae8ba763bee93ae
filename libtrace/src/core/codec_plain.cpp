// SPDX-License-Identifier: MIT
// The "plain" container: bytes as they are (VMA recordings are text files).
#include "core/codec_internal.hpp"

namespace libtrace::detail {

namespace {

// A recording's header is a few kilobytes (the Config section).
constexpr std::size_t kFirstBlock = 16 << 10;

// A regular file is mapped and handed out in place (read() would copy every
// byte once more, a tenth of trak-stat's time on a recording); anything else
// is read.
class PlainDecoder final : public Decoder {
 public:
  explicit PlainDecoder(InputFile& in) : in_(in), base_(in.offset()), mapped_(in.map_rest()) {}
  bool next(Block& out) override {
    if (!mapped_.empty()) {
      if (pos_ == mapped_.size()) return false;
      // The first block is small: a reader parses the header from it on one
      // thread before its others start (trak-stat), and copying a whole
      // block there cost it ~1 ms of page faults before any of them ran.
      const std::string_view v = mapped_.substr(pos_, pos_ ? kDecodeBlock : kFirstBlock);
      out.assign(v.begin(), v.end());
      pos_ += v.size();
      // Copied out, the pages can go (8 MiB at a time: each call costs a
      // TLB flush), so that memory stays flat on a long file.
      if (pos_ - copied_from_ >= (8u << 20) || pos_ == mapped_.size()) {
        in_.unmap_range(mapped_.substr(copied_from_, pos_ - copied_from_));
        copied_from_ = pos_;
      }
      return true;
    }
    out.resize(kDecodeBlock);
    const std::size_t n = in_.read(out.data(), out.size());
    out.resize(n);
    return n > 0;
  }
  Container container() const override { return Container::plain; }
  std::uint64_t file_offset() const override { return mapped_.empty() ? in_.offset() : base_ + pos_; }
  bool in_place() const override { return !mapped_.empty(); }
  void done_with(std::string_view view) override { in_.unmap_range(view); }
  bool next_view(std::string_view& out) override {
    if (pos_ == mapped_.size()) return false;
    out = mapped_.substr(pos_, kDecodeBlock);
    in_.populate(out);
    pos_ += out.size();
    copied_from_ = pos_;  // views are given back by their user (done_with)
    return true;
  }

 private:
  InputFile& in_;
  const std::uint64_t base_;  // the stream's offset in the file
  const std::string_view mapped_;
  std::size_t pos_ = 0;
  std::size_t copied_from_ = 0;  // next() copied out [copied_from_, pos_)
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
