// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a decompressed trace stream, through
// the parser and both renderings.
#include <cstdint>
#include <string>
#include <vector>

#include "libtrace/dump.hpp"
#include "libtrace/error.hpp"
#include "libtrace/trace_parser.hpp"

namespace {

// Serves the input in two blocks, so values also straddle a boundary.
class BytesDecoder final : public libtrace::Decoder {
 public:
  BytesDecoder(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool next(std::vector<std::uint8_t>& out) override {
    if (pos_ >= size_) return false;
    const std::size_t n = pos_ == 0 ? size_ / 2 + 1 : size_ - pos_;
    out.assign(data_ + pos_, data_ + pos_ + std::min(n, size_ - pos_));
    pos_ += out.size();
    return true;
  }
  libtrace::Container container() const override { return libtrace::Container::snappy; }
  std::uint64_t file_offset() const override { return pos_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    libtrace::Parser parser(std::make_unique<BytesDecoder>(data, size), "fuzz");
    libtrace::DumpOptions opt;
    opt.verbose = true;
    opt.thread_ids = true;
    std::string out;
    libtrace::dump_header(parser.header(), opt, out);
    while (const libtrace::Call* call = parser.next()) {
      out.clear();
      libtrace::dump_call(*call, opt, out);
      libtrace::jsonl_call(*call, out);
    }
  } catch (const libtrace::Error&) {
    // Rejecting bad input with an Error is the expected outcome.
  }
  return 0;
}
