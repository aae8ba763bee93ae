// SPDX-License-Identifier: MIT
// A Decoder over the fuzzer's input, served in two blocks so that values and
// lines also straddle a block boundary.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "libtrace/core/codec.hpp"

class BytesDecoder final : public libtrace::Decoder {
 public:
  BytesDecoder(const std::uint8_t* data, std::size_t size, libtrace::Container c)
      : data_(data), size_(size), container_(c) {}
  bool next(libtrace::Block& out) override {
    if (pos_ >= size_) return false;
    const std::size_t n = std::min(size_ - pos_, pos_ == 0 ? size_ / 2 + 1 : size_);
    out.assign(data_ + pos_, data_ + pos_ + n);
    pos_ += n;
    return true;
  }
  libtrace::Container container() const override { return container_; }
  std::uint64_t file_offset() const override { return pos_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  libtrace::Container container_;
  std::size_t pos_ = 0;
};
