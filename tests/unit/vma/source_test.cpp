// SPDX-License-Identifier: MIT
#include "vma/source.hpp"

#include <doctest/doctest.h>

#include "test_util.hpp"

using namespace libtrace;
using namespace libtrace::vma;
using namespace libtrace::vma::detail;

TEST_CASE("vma_source: batches of calls, with their warnings where they are due") {
  std::string text = "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nBogus,1\nConfig,End\n";
  for (int i = 0; i < 300; ++i)
    text += std::to_string(i) + ",0.5,0,vmaMapMemory," + (i == 3 ? "x" : "0000000000000001") + "\n";
  text += "7,0.5,0,vmaUnmapMem";
  ReaderOptions opt;
  opt.keep_going = true;
  std::vector<std::string> header_warnings;
  opt.warnings = [&](const std::string& where, const std::string& why) {
    header_warnings.push_back(where + ": " + why);
  };
  // Blocks of 7 bytes: most lines straddle two.
  Source src(std::make_unique<test::MemDecoder>(text, 7), "r.csv", opt);
  REQUIRE(header_warnings.size() == 1);
  CHECK(header_warnings[0] == "r.csv: line 4: unknown Config option 'Bogus' kept as is");
  CHECK(src.header_warnings() == 1);

  Batch b;
  src.fill(b);
  CHECK(b.count == Batch::kCalls);
  CHECK_FALSE(b.last);
  CHECK_FALSE(b.error);
  CHECK(b.calls[0].line == 6);
  CHECK(b.calls[3].thread == 4);  // the line with thread 3 was dropped
  REQUIRE(b.notes.size() == 1);
  CHECK(b.notes[0].before == 3);
  CHECK(b.notes[0].where == "r.csv: line 9");
  CHECK(b.lines == 6 + Batch::kCalls);

  src.fill(b);
  CHECK(b.count == 299 - Batch::kCalls);
  CHECK(b.last);
  CHECK_FALSE(b.error);
  REQUIRE(b.notes.size() == 1);
  CHECK(b.notes[0].before == b.count);
  CHECK(b.notes[0].why == "last line has no line end (the recording was cut off); dropped");
  CHECK(header_warnings.size() == 1);  // batch warnings are the reader's to pass on
}

TEST_CASE("vma_source: an error ends the batch after the calls before it") {
  const std::string text =
      "Vulkan Memory Allocator,Calls recording\n1,2\n1,0.5,0,vmaCreateAllocator\n1,x,0,vmaCreateAllocator\n"
      "1,0.5,0,vmaDestroyAllocator\n";
  Source src(std::make_unique<test::MemDecoder>(text, 4096), "r.csv", ReaderOptions{});
  Batch b;
  src.fill(b);
  CHECK(b.count == 1);
  CHECK(b.last);
  REQUIRE(b.error);
  CHECK_THROWS_WITH_AS(std::rethrow_exception(b.error), "r.csv: line 4: bad time", Error);
}

namespace {

// Every line the chunks of `text` hold, in order.
std::vector<std::string> chunk_lines(const std::string& text, std::size_t block, std::vector<Chunk>* out = nullptr) {
  Source src(std::make_unique<test::MemDecoder>(text, block), "r.csv", ReaderOptions{});
  std::vector<std::string> lines;
  Chunk c;
  while (src.next_chunk(c)) {
    auto split = [&](std::string_view s) {
      while (!s.empty()) {
        const std::size_t nl = s.find('\n');
        REQUIRE(nl != std::string_view::npos);  // whole lines only
        lines.emplace_back(s.substr(0, nl));
        s.remove_prefix(nl + 1);
      }
    };
    split(c.head);
    split(std::string_view(c.data + c.begin, c.end - c.begin));
    if (out) out->push_back(c);
  }
  return lines;
}

}  // namespace

TEST_CASE("vma_source: chunks hand out every line after the header once, in order") {
  std::string text = "Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n";
  std::vector<std::string> want;
  for (int i = 0; i < 200; ++i) {
    want.push_back(std::to_string(i) + ",0.5,0,vmaTouchAllocation," +
                   std::string(static_cast<std::size_t>(i % 40), 'x'));
    text += want.back() + (i % 3 ? "\n" : "\r\n");
    if (i % 3 == 0) want.back() += '\r';
  }
  for (const std::size_t block : {std::size_t{1}, std::size_t{5}, std::size_t{64}, std::size_t{100000}}) {
    std::vector<Chunk> chunks;
    CHECK(chunk_lines(text, block, &chunks) == want);
    REQUIRE_FALSE(chunks.empty());
    CHECK(chunks.back().last);
    CHECK_FALSE(chunks.back().cut_off);
    CHECK(chunks.back().bytes == text.size());
  }
  // A last line with no line end is left out and flagged.
  std::vector<Chunk> chunks;
  CHECK(chunk_lines(text + "7,0.5,0,vmaTouch", 64, &chunks) == want);
  CHECK(chunks.back().cut_off);
}

TEST_CASE("vma_source: a decoder error follows the lines before it") {
  // A brotli stream cut short: the decoder returns what it could, then fails.
  const std::string text = "Vulkan Memory Allocator,Calls recording\n1,2\n1,0.5,0,vmaCreateAllocator\n";
  struct Failing final : Decoder {
    std::string data;
    bool sent = false;
    bool next(libtrace::Block& out) override {
      if (sent) throw Error(Errc::truncated, "r.csv: offset 9", "cut");
      sent = true;
      out.assign(data.begin(), data.end());
      return true;
    }
    Container container() const override { return Container::brotli; }
    std::uint64_t file_offset() const override { return 0; }
  };
  auto d = std::make_unique<Failing>();
  d->data = text + "2,0.5,0,vmaDestroyAll";
  Source src(std::move(d), "r.csv", ReaderOptions{});
  Chunk c;
  REQUIRE(src.next_chunk(c));
  CHECK(c.end - c.begin == std::string("1,0.5,0,vmaCreateAllocator\n").size());
  CHECK_FALSE(c.last);
  REQUIRE(src.next_chunk(c));
  CHECK(c.last);
  REQUIRE(c.error);
  CHECK(c.end == c.begin);
  CHECK_FALSE(src.next_chunk(c));
}
