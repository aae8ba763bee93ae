// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a VMA calls recording, through the
// reader and the statistics.
#include <cstdint>
#include <string>
#include <vector>

#include "bytes_decoder.hpp"
#include "libtrace/error.hpp"
#include "libtrace/vma_sim.hpp"
#include "libtrace/vma_stat.hpp"


extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (bool keep_going : {false, true}) {
    try {
      libtrace::vma::StatOptions opt;
      opt.keep_going = keep_going;
      const auto s = libtrace::vma::recording_stats(std::make_unique<BytesDecoder>(data, size, libtrace::Container::plain), "fuzz", opt);
      (void)libtrace::vma::format_json(s);
      (void)libtrace::vma::format_table(s);
      (void)libtrace::vma::format_html(s);
      const auto r = libtrace::vma::simulate(std::make_unique<BytesDecoder>(data, size, libtrace::Container::plain),
                                             "fuzz", libtrace::vma::SimOptions{});
      (void)libtrace::vma::format_sim_json(r);
    } catch (const libtrace::Error&) {
    }
  }
  return 0;
}
