// SPDX-License-Identifier: MIT
#include "vma/line_cols.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "vma/line.hpp"

using namespace libtrace::vma;
using namespace libtrace::vma::detail;

namespace {

using Columns = const char* (*)(const char* p, const char* stop, LineCall& call);

// Every column list compiled with no value kept (all number columns only
// validated), as trak-stat compiles some of them.
template <std::size_t... K>
constexpr std::array<Columns, kColumnLists> none_kept(std::index_sequence<K...>) {
  return {&line_columns<kColumnsOf<K>, 0>...};
}
constexpr auto kNoneKept = none_kept(std::make_index_sequence<kColumnLists>{});

template <Col C>
bool skips(std::string s) {
  s += ",\n";
  const char* e = skip_dec<C>(s.data(), s.data() + s.size());
  return e && *e == ',';
}

// The fast parser with nothing kept against the reference parser on one line
// (its '\n' included): it may only accept what the reference parser accepts,
// with the same call but for the numbers it left out. Returns whether it
// accepted.
bool agrees_without_values(const std::string& line_nl, Version v = Version{1, 8}) {
  const char* begin = line_nl.data();
  const char* end = begin + line_nl.size();
  LineCall fast;
  std::size_t list = 0;
  const char* head = parse_head(begin, end, v, fast, list, name_table());
  const char* after = head ? kNoneKept[list](head, end, fast) : nullptr;
  std::string_view line(line_nl);
  line = line.substr(0, line.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  Call ref;
  const auto why = parse_call(line, v, ref);
  if (!after) return false;
  REQUIRE_MESSAGE(!why, line_nl);
  CHECK(after == begin + line_nl.find('\n') + 1);
  CHECK_MESSAGE((fast.thread == ref.thread && fast.time == ref.time && fast.frame == ref.frame &&
                 fast.function == ref.function && fast.numbers == ref.num.size() && fast.lists == ref.lists.size() &&
                 fast.text == ref.text && fast.has_text == ref.has_text),
                line_nl);
  for (std::size_t i = 0; i < ref.lists.size(); ++i) CHECK(fast.list[i] == ref.lists[i]);
  // Pointers and booleans are read all the same.
  const ColList& cols = list == kFunctionCount ? kSixColumnPool : columns(ref.function);
  for (std::size_t i = 0, n = 0; i < cols.n; ++i) {
    if (cols.c[i] == Col::ptr_list || cols.c[i] == Col::text) continue;
    if (cols.c[i] == Col::ptr || cols.c[i] == Col::boolean) CHECK_MESSAGE(fast.num[n] == ref.num[n], line_nl);
    ++n;
  }
  return true;
}

}  // namespace

TEST_CASE("vma_line_cols: skip_dec validates as scan_dec and the range check would") {
  CHECK(skips<Col::u32>("0"));
  CHECK(skips<Col::u32>("7"));
  CHECK(skips<Col::u32>("42"));
  CHECK(skips<Col::u32>("999999999"));
  CHECK(skips<Col::u32>("4294967295"));
  CHECK_FALSE(skips<Col::u32>("4294967296"));
  CHECK_FALSE(skips<Col::u32>("9999999999"));
  CHECK(skips<Col::u32>("00000000000000000000004294967295"));  // from_chars takes leading zeros
  CHECK_FALSE(skips<Col::u32>("00000000000000000000004294967296"));
  CHECK(skips<Col::u64>("18446744073709551615"));
  CHECK_FALSE(skips<Col::u64>("18446744073709551616"));
  CHECK_FALSE(skips<Col::u64>("99999999999999999999"));
  CHECK(skips<Col::u64>("9999999999999999999"));
  CHECK(skips<Col::u64>("000000000000000000000018446744073709551615"));
  for (const char* bad : {"", "-1", "+1", " 1", "x", "(nil)", "0x10"}) {
    CHECK_FALSE_MESSAGE(skips<Col::u32>(bad), std::string(bad));
    CHECK_FALSE_MESSAGE(skips<Col::u64>(bad), std::string(bad));
  }
  // Random digit runs against the whole-field rules.
  std::mt19937_64 rng(13);
  for (int i = 0; i < 100000; ++i) {
    std::string digits;
    const int n = 1 + static_cast<int>(rng() % 24);
    for (int k = 0; k < n; ++k) digits += static_cast<char>('0' + (k == 0 && rng() % 2 ? 1 + rng() % 9 : rng() % 10));
    std::uint64_t v = 0;
    const bool ok = parse_dec(digits, v);
    REQUIRE_MESSAGE(skips<Col::u64>(digits) == ok, digits);
    REQUIRE_MESSAGE(skips<Col::u32>(digits) == (ok && v <= UINT32_MAX), digits);
  }
}

TEST_CASE("vma_line_cols: columns compiled from the schema's lists") {
  for (std::size_t i = 0; i < kFunctionCount; ++i) {
    const auto f = static_cast<Function>(i);
    const ColList c = columns(f);
    CHECK(std::vector<Col>(c.c, c.c + c.n) == schema(f).cols);
  }
  CHECK(kColumnsOf<kFunctionCount>.n == 6);
  CHECK(kFunctionOf<kFunctionCount> == Function::CreatePool);
}

TEST_CASE("vma_line_cols: numbers left out are validated exactly, at their bounds") {
  // Every column class, with nothing kept.
  CHECK(agrees_without_values("1,0.5,0,vmaCreateBuffer,4294967295,18446744073709551615,0,0,0,0,0,0,0,(nil),0x10,\n"));
  CHECK(
      agrees_without_values("1,0.5,0,vmaCreateBuffer,0000000000000000000001,1,2,3,4,5,6,7,8,0x0,0000000000000010,t\n"));
  CHECK(agrees_without_values("1,0.5,0,vmaAllocateMemoryForImage,1,2,3,1,0,4,5,6,7,8,(nil),00000000000000A0\n"));
  CHECK(agrees_without_values("1,0.5,0,vmaFlushAllocation,(nil),0,18446744073709551615\n"));
  CHECK(agrees_without_values("1,0.5,0,vmaFlushAllocation,0x1,00000000000000000000000000001,99999999999999999\r\n"));
  CHECK(agrees_without_values(
      "1,0.5,0,vmaDefragmentationBegin,0,000001D85B8E9900 0x2688,,18446744073709551615,4294967295,0,0,(nil),(nil)\n"));
  CHECK(agrees_without_values("1,0.0,0,vmaCreatePool,2,0,1024,1,4,00000000000000AA\n"));
  CHECK(agrees_without_values("1,0.0,0,vmaCreatePool,2,0,1024,1,4,4294967295,00000000000000AA\n"));
  // Out of range, empty or not a number: declined, for the reference parser
  // to refuse.
  for (const char* line : {
           "1,0.5,0,vmaCreateBuffer,4294967296,1,0,0,0,0,0,0,0,(nil),0x10,\n",
           "1,0.5,0,vmaCreateBuffer,0,18446744073709551616,0,0,0,0,0,0,0,(nil),0x10,\n",
           "1,0.5,0,vmaCreateBuffer,0,1,,0,0,0,0,0,0,(nil),0x10,\n",
           "1,0.5,0,vmaCreateBuffer,0,1,0,0,0,0,0,0,0x1,(nil),0x10,\n",
           "1,0.5,0,vmaCreateBuffer,0,1,0,0,0,0,0,0,0,(nil)\n",
           "1,0.5,0,vmaFlushAllocation,(nil),0,18446744073709551616\n",
           "1,0.5,0,vmaFlushAllocation,(nil),0,99999999999999999999\n",
           "1,0.5,0,vmaFlushAllocation,(nil),-1,0\n",
           "1,0.5,0,vmaFlushAllocation,(nil),0\n",
           "1,0.5,0,vmaFlushAllocation,(nil),0,1,\t\n",
           "1,0.5,0,vmaAllocateMemoryForImage,1,2,3,2,0,4,5,6,7,8,(nil),00000000000000A0\n",
       })
    CHECK_FALSE_MESSAGE(agrees_without_values(line), line);
}

TEST_CASE("vma_line_cols: on mutated lines, nothing kept, only what the reference parser accepts") {
  const std::vector<std::string> seeds = {
      "12560,0.003,0,vmaCreateBuffer,0,131072,128,0,32,3,0,0,0,0000000000000000,000001D85B8B0090,00000000DEADBEEF\n",
      "12556,0.002,0,vmaCreateImage,0,1,126,256,256,1,5,1,1,0,32,0,0,0,1,0,0,0,0000000000000000,000001D85B8B0090,\n",
      "1,0.5,0,vmaAllocateMemory,4294967295,256,15,0,2,0,0,0,0000000000000000,000001D85B8B0240,\n",
      "1,0.5,0,vmaAllocateMemoryPages,65536,256,15,0,1,0,0,0,0000000000000000,00000000000000A0 00000000000000B0,\n",
      "1,0.5,0,vmaFlushAllocation,000001D85B8B0438,0,18446744073709551615\n",
      "1,0.5,0,vmaDefragmentationBegin,0,000001D85B8E9900 0x2688,,18446744073709551615,4294967295,0,0,(nil),0\n",
      "1,0.0,0,vmaCreatePool,2,0,1024,1,4,00000000000000AA\n",
      "1,0.5,0,vmaAllocateMemoryForImage,65536,256,15,1,0,0,1,0,0,0,0000000000000000,000001D85B8B0090,x\r\n",
  };
  std::mt19937_64 rng(17);
  int accepted = 0;
  for (int i = 0; i < 40000; ++i) {
    accepted += agrees_without_values(test::mutate_vma_line(seeds[rng() % seeds.size()], rng));
  }
  CHECK(accepted > 1000);  // the check above had something to compare
}
