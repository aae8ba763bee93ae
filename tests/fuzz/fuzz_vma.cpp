// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a VMA calls recording, through the
// reader and the statistics.
#include <cstdint>
#include <string>
#include <vector>

#include "libtrace/error.hpp"
#include "libtrace/vma_stat.hpp"

namespace {

class BytesDecoder final : public libtrace::Decoder {
 public:
  BytesDecoder(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool next(std::vector<std::uint8_t>& out) override {
    if (pos_ >= size_) return false;
    const std::size_t n = std::min<std::size_t>(size_ - pos_, pos_ == 0 ? size_ / 2 + 1 : size_);
    out.assign(data_ + pos_, data_ + pos_ + n);
    pos_ += n;
    return true;
  }
  libtrace::Container container() const override { return libtrace::Container::plain; }
  std::uint64_t file_offset() const override { return pos_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (bool keep_going : {false, true}) {
    try {
      libtrace::vma::StatOptions opt;
      opt.keep_going = keep_going;
      const auto s = libtrace::vma::recording_stats(std::make_unique<BytesDecoder>(data, size), "fuzz", opt);
      (void)libtrace::vma::format_json(s);
      (void)libtrace::vma::format_table(s);
    } catch (const libtrace::Error&) {
    }
  }
  return 0;
}
