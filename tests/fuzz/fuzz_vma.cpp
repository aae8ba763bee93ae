// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a VMA calls recording, through the
// reader and the statistics; and each line through both call parsers, which
// must agree wherever the fast one accepts a line (also when it keeps no
// numbers, as trak-stat's does for some columns).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bytes_decoder.hpp"
#include "libtrace/core/error.hpp"
#include "libtrace/vma/sim.hpp"
#include "libtrace/vma/stat.hpp"
#include "vma/line.hpp"
#include "vma/line_cols.hpp"

namespace {

using namespace libtrace::vma::detail;

// The column parsers compiled with no number kept, as trak-stat compiles
// some: they must validate what they leave out as the reference parser does.
template <std::size_t... K>
constexpr std::array<const char* (*)(const char*, const char*, LineCall&), kColumnLists> none_kept(
    std::index_sequence<K...>) {
  return {&line_columns<kColumnsOf<K>, 0>...};
}
constexpr auto kNoneKept = none_kept(std::make_index_sequence<kColumnLists>{});

void check_parsers_agree(const std::uint8_t* data, std::size_t size) {
  using namespace libtrace::vma;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  for (std::size_t pos = 0; pos < all.size();) {
    const std::size_t nl = all.find('\n', pos);
    if (nl == std::string_view::npos) break;
    // A copy, so that reading past the line's '\n' is caught.
    const std::string line_nl(all.substr(pos, nl + 1 - pos));
    pos = nl + 1;
    for (const Version v : {Version{1, 8}, Version{1, 4}}) {
      Call fast, ref;
      const char* after = detail::parse_call_fast(line_nl.data(), line_nl.data() + line_nl.size(), v, fast);
      if (!after) continue;
      std::string_view line(line_nl.data(), line_nl.size() - 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      const bool same = !detail::parse_call(line, v, ref) && fast.thread == ref.thread && fast.time == ref.time &&
                        fast.frame == ref.frame && fast.function == ref.function && fast.num == ref.num &&
                        fast.lists == ref.lists && fast.text == ref.text && fast.has_text == ref.has_text &&
                        after == line_nl.data() + line_nl.size();
      if (!same) __builtin_trap();
    }
    for (const Version v : {Version{1, 8}, Version{1, 4}}) {
      LineCall fast;
      std::size_t list = 0;
      const char* end = line_nl.data() + line_nl.size();
      const char* head = parse_head(line_nl.data(), end, v, fast, list, name_table());
      if (!head || !kNoneKept[list](head, end, fast)) continue;
      std::string_view line(line_nl.data(), line_nl.size() - 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      Call ref;
      if (detail::parse_call(line, v, ref) || fast.function != ref.function || fast.numbers != ref.num.size() ||
          fast.text != ref.text || fast.has_text != ref.has_text)
        __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_parsers_agree(data, size);
  for (bool keep_going : {false, true}) {
    try {
      libtrace::vma::StatOptions opt;
      opt.keep_going = keep_going;
      const auto s =
          libtrace::vma::stats(std::make_unique<BytesDecoder>(data, size, libtrace::Container::plain), "fuzz", opt);
      (void)libtrace::vma::report_json(s);
      (void)libtrace::vma::report_table(s);
      (void)libtrace::vma::report_html(s);
      const auto r = libtrace::vma::simulate(std::make_unique<BytesDecoder>(data, size, libtrace::Container::plain),
                                             "fuzz", libtrace::vma::SimOptions{});
      (void)libtrace::vma::report_json(r);
    } catch (const libtrace::Error&) {
    }
  }
  return 0;
}
