// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a decompressed trace stream, through
// the parser and both renderings.
#include <cstdint>
#include <string>
#include <vector>

#include "bytes_decoder.hpp"
#include "libtrace/apitrace/dump.hpp"
#include "libtrace/apitrace/parser.hpp"
#include "libtrace/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    libtrace::apitrace::Parser parser(std::make_unique<BytesDecoder>(data, size, libtrace::Container::snappy), "fuzz");
    libtrace::apitrace::DumpOptions opt;
    opt.verbose = true;
    opt.thread_ids = true;
    std::string out;
    libtrace::apitrace::dump_header(parser.header(), opt, out);
    while (const libtrace::apitrace::Call* call = parser.next()) {
      out.clear();
      libtrace::apitrace::dump_call(*call, opt, out);
      libtrace::apitrace::jsonl_call(*call, out);
    }
  } catch (const libtrace::Error&) {
    // Rejecting bad input with an Error is the expected outcome.
  }
  return 0;
}
