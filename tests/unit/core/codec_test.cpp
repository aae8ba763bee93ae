// SPDX-License-Identifier: MIT
#include "libtrace/core/codec.hpp"

#include <doctest/doctest.h>

#include <zstd.h>

#include <random>

#include "core/codec_internal.hpp"
#include "libtrace/core/error.hpp"
#include "test_util.hpp"

using namespace libtrace;

namespace {

std::string sample_stream(std::size_t n) {
  std::string s;
  std::mt19937 rng(42);
  while (s.size() < n) {
    s += "glVertex3f(x = ";
    s += std::to_string(rng() % 1000);
    s += ")";
    s += static_cast<char>(rng() % 256);
  }
  s.resize(n);
  return s;
}

std::string encode(Container c, const std::string& stream, int level = -1, unsigned threads = 2) {
  test::StringSink sink;
  EncoderOptions opt;
  opt.container = c;
  opt.level = level;
  opt.threads = threads;
  auto enc = make_encoder(opt, sink);
  // Odd write sizes, so chunking does not depend on the caller's.
  for (std::size_t i = 0; i < stream.size(); i += 99991)
    enc->write(stream.data() + i, std::min<std::size_t>(99991, stream.size() - i));
  enc->finish();
  return sink.bytes;
}

std::string decode_file(const std::string& path, Container* seen = nullptr) {
  InputFile in(path);
  auto dec = open_decoder(in);
  if (seen) *seen = dec->container();
  std::string out;
  Block block;
  while (dec->next(block)) out.append(block.begin(), block.end());
  return out;
}

// What the decoder of `path` yields until it ends or throws, and whether a
// truncation error stopped it.
struct Prefix {
  std::string bytes;
  bool truncated = false;
};

Prefix decode_prefix(const std::string& path) {
  InputFile in(path);
  auto dec = open_decoder(in);
  Prefix p;
  Block block;
  try {
    while (dec->next(block)) p.bytes.append(block.begin(), block.end());
  } catch (const Error& e) {
    p.truncated = e.code() == Errc::truncated;
  }
  return p;
}

}  // namespace

TEST_CASE("codec: every container round-trips and is detected from its first bytes") {
  const std::string stream = sample_stream(3 * kSnappyChunk + 12345);
  test::ScratchDir dir;
  for (Container c : {Container::snappy, Container::gzip, Container::brotli, Container::zstd}) {
    CAPTURE(container_name(c));
    const std::string file = dir / "x";
    test::write_file(file, encode(c, stream, c == Container::brotli ? 3 : -1));
    Container seen{};
    CHECK(decode_file(file, &seen) == stream);
    CHECK(seen == c);
  }
}

TEST_CASE("codec: snappy output is 'at' + 1 MiB chunks, identical with 1 or 2 threads") {
  const std::string stream = sample_stream(2 * kSnappyChunk + 5);
  const std::string one = encode(Container::snappy, stream, -1, 1);
  const std::string two = encode(Container::snappy, stream, -1, 2);
  CHECK(one == two);
  CHECK(one.substr(0, 2) == "at");
}

TEST_CASE("codec: parallel gzip equals the stream for zlib's own reader") {
  const std::string stream = sample_stream(5 * (1 << 20) + 77);
  const std::string gz = encode(Container::gzip, stream, 6, 2);
  CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);
  test::ScratchDir dir;
  test::write_file(dir / "x.gz", gz);
  CHECK(std::system(("gzip -t '" + dir / "x.gz" + "'").c_str()) == 0);
  CHECK(decode_file(dir / "x.gz") == stream);
}

TEST_CASE("codec: empty file and non-trace data are bad_magic") {
  test::ScratchDir dir;
  test::write_file(dir / "empty", "");
  InputFile e(dir / "empty");
  CHECK_THROWS_WITH_AS(open_decoder(e), (dir / "empty" + ": offset 0: empty file: no trace or recording in it").c_str(),
                       Error);
  test::write_file(dir / "junk", "this is certainly not a brotli stream, nor anything else");
  try {
    decode_file(dir / "junk");
    FAIL("no exception");
  } catch (const Error& err) {
    CHECK(err.code() == Errc::bad_magic);
  }
}

TEST_CASE("codec: a cut snappy chunk yields its decodable prefix, then a truncation error") {
  const std::string stream = sample_stream(200000);
  const std::string full = encode(Container::snappy, stream);
  test::ScratchDir dir;
  test::write_file(dir / "cut", full.substr(0, full.size() / 2));
  InputFile in(dir / "cut");
  auto dec = open_decoder(in);
  Block block;
  REQUIRE(dec->next(block));
  CHECK(!block.empty());
  CHECK(std::string(block.begin(), block.end()) == stream.substr(0, block.size()));
  try {
    dec->next(block);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::truncated);
  }
}

TEST_CASE("codec: a snappy chunk cut before any of its data is a truncation error, not the end") {
  const std::string full = encode(Container::snappy, sample_stream(5000));
  test::ScratchDir dir;
  // The whole file, then a next chunk's length and the first bytes of its
  // payload (its uncompressed size): nothing of it can be decoded.
  test::write_file(dir / "cut", full + full.substr(2, 7));
  CHECK_THROWS_WITH_AS(
      decode_file(dir / "cut"),
      (dir / "cut" + ": offset " + std::to_string(full.size() + 7) +
       ": unexpected end of file inside a snappy chunk (chunk at offset " + std::to_string(full.size()) + " is " +
       std::to_string(full.size() - 2 - 4 - 3) + " bytes short)")
          .c_str(),
      Error);
}

TEST_CASE("codec: corrupt snappy chunk and absurd lengths are errors, not garbage") {
  test::ScratchDir dir;
  std::string bad = encode(Container::snappy, sample_stream(5000));
  for (std::size_t i = 10; i < 40; ++i) bad[i] = '\xff';
  test::write_file(dir / "bad", bad);
  CHECK_THROWS_AS(decode_file(dir / "bad"), Error);
  test::write_file(dir / "huge", std::string("at\xff\xff\xff\x7f", 6));
  CHECK_THROWS_WITH_AS(
      decode_file(dir / "huge"),
      (dir / "huge" + ": offset 2: snappy chunk length 2147483647 is implausible (corrupt file?)").c_str(), Error);
}

TEST_CASE("codec: truncated gzip and brotli keep their prefix and then fail") {
  const std::string stream = sample_stream(300000);
  test::ScratchDir dir;
  for (Container c : {Container::gzip, Container::brotli, Container::zstd}) {
    CAPTURE(container_name(c));
    const std::string full = encode(c, stream, c == Container::brotli ? 5 : -1);
    test::write_file(dir / "cut", full.substr(0, full.size() * 3 / 4));
    const Prefix got = decode_prefix(dir / "cut");
    CHECK(got.truncated);
    CHECK(!got.bytes.empty());
    CHECK(stream.compare(0, got.bytes.size(), got.bytes) == 0);
  }
}

TEST_CASE("codec: a plain file is handed out in place, views and copies mixed") {
  test::ScratchDir dir;
  std::string text = "Vulkan Memory Allocator,Calls recording\n";
  while (text.size() < 600000) text += "1,0.5,0,vmaTouchAllocation,000000000000ABCD\n";
  test::write_file(dir / "r.csv", text);
  InputFile in(dir / "r.csv");
  std::string head;
  auto dec = peek_stream(open_decoder(in), 23, head);
  CHECK(head == "Vulkan Memory Allocator");
  REQUIRE(dec->in_place());
  std::string out;
  Block block;
  std::string_view view;
  for (int i = 0;; ++i) {
    if (i % 2) {
      if (!dec->next(block)) break;
      out.append(block.begin(), block.end());
    } else {
      if (!dec->next_view(view)) break;
      out += view;
    }
    CHECK(dec->file_offset() == out.size());
  }
  CHECK(out == text);
  // What is not a regular file is read, not mapped.
  test::write_file(dir / "t.gz", encode(Container::gzip, text));
  InputFile gz(dir / "t.gz");
  CHECK_FALSE(open_decoder(gz)->in_place());
}

TEST_CASE("codec: levels are checked per container") {
  CHECK_NOTHROW(check_level(Container::gzip, 1));
  CHECK_THROWS_AS(check_level(Container::gzip, 10), Error);
  CHECK_THROWS_AS(check_level(Container::snappy, 1), Error);
  CHECK_NOTHROW(check_level(Container::brotli, 0));
  CHECK_THROWS_AS(check_level(Container::brotli, 12), Error);
  CHECK_NOTHROW(check_level(Container::zstd, 19));
  CHECK_THROWS_AS(check_level(Container::zstd, 0), Error);
  CHECK_THROWS_AS(check_level(Container::zstd, 20), Error);
}

namespace {

std::uint32_t u32_at(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}

}  // namespace

TEST_CASE("codec: zstd is written seekable: 2 MiB frames, the same with 1 or 2 threads, a seek table that adds up") {
  const std::string stream = sample_stream(5 * (1 << 20) + 321);
  const std::string one = encode(Container::zstd, stream, -1, 1);
  const std::string two = encode(Container::zstd, stream, -1, 2);
  CHECK(one == two);
  REQUIRE(one.size() > 9);
  CHECK(one.substr(0, 4) == std::string("\x28\xb5\x2f\xfd", 4));
  CHECK(u32_at(one, one.size() - 4) == 0x8F92EAB1u);
  CHECK(one[one.size() - 5] == 0);  // no checksums in the table
  const std::uint32_t frames = u32_at(one, one.size() - 9);
  CHECK(frames == 3);
  const std::size_t table = one.size() - 9 - 8 * frames - 8;
  CHECK(u32_at(one, table) == 0x184D2A5Eu);
  CHECK(u32_at(one, table + 4) == 8 * frames + 9);
  std::uint64_t compressed = 0, decompressed = 0;
  for (std::uint32_t i = 0; i < frames; ++i) {
    compressed += u32_at(one, table + 8 + 8 * i);
    decompressed += u32_at(one, table + 12 + 8 * i);
  }
  CHECK(compressed == table);
  CHECK(decompressed == stream.size());
}

TEST_CASE("codec: the capture's zstd chunks are flushed pieces of 2 MiB frames: read after each, smaller, seekable") {
  // 40 chunks of 100 KB, as a capture flushes them: each piece is readable
  // once written, the frames end at 2 MiB of stream, and the seek table
  // lists them.
  const std::string stream = sample_stream(40 * 100000);
  detail::StreamFramer framer(Container::zstd, 3);
  CHECK(framer.opening().empty());
  std::string file, piece;
  std::vector<std::size_t> ends;  // file size after each chunk
  test::ScratchDir dir;
  for (std::size_t at = 0; at < stream.size(); at += 100000) {
    framer.frame(std::string_view(stream).substr(at, 100000), piece);
    file += piece;
    framer.wrote(piece.size(), 100000);
    ends.push_back(file.size());
  }
  // Cut after the 7th chunk: the 7 chunks, then "cut inside a frame".
  test::write_file(dir / "cut", file.substr(0, ends[6]));
  const Prefix got = decode_prefix(dir / "cut");
  CHECK(got.bytes == stream.substr(0, 7 * 100000));
  CHECK(got.truncated);
  file += framer.closing();
  test::write_file(dir / "whole", file);
  CHECK(decode_file(dir / "whole") == stream);
  CHECK(u32_at(file, file.size() - 4) == 0x8F92EAB1u);
  const std::uint32_t frames = u32_at(file, file.size() - 9);
  CHECK(frames == 2);  // 21 chunks make the first frame 2.1 MB, the rest the second
  const std::size_t table = file.size() - 9 - 8 * frames - 8;
  CHECK(u32_at(file, table + 8) + u32_at(file, table + 16) == table);
  CHECK(u32_at(file, table + 12) == 21 * 100000);
  CHECK(u32_at(file, table + 20) == 19 * 100000);
  // Each chunk in a frame of its own (apitrace's flush) is larger.
  detail::ChunkFramer alone(Container::zstd, 3);
  std::size_t alone_bytes = 0;
  for (std::size_t at = 0; at < stream.size(); at += 100000) {
    std::string out(alone.bound(100000), '\0');
    alone_bytes += alone.frame(stream.data() + at, 100000, out.data());
  }
  CHECK(ends.back() < alone_bytes);
}

TEST_CASE("codec: zstd frames from the zstd tool read: one frame, frames joined, skippable frames between") {
  // tests/data/zstd/ (its README says how the zstd tool made them from gears.gz.trace's stream).
  const std::string stream = decode_file(test::data("gears.gz.trace"));
  for (const char* name : {"gears.zst.trace", "gears.joined.zst.trace", "gears.skippable.zst.trace"}) {
    CAPTURE(name);
    Container seen{};
    CHECK(decode_file(test::data(std::string("zstd/") + name), &seen) == stream);
    CHECK(seen == Container::zstd);
  }
  // A file that ends inside a frame keeps what came before it.
  test::ScratchDir scratch;
  const std::string one = test::read_file(test::data("zstd/gears.zst.trace"));
  test::write_file(scratch / "cut", one.substr(0, one.size() / 2));
  const Prefix got = decode_prefix(scratch / "cut");
  CHECK(got.truncated);
  CHECK(stream.compare(0, got.bytes.size(), got.bytes) == 0);
}

TEST_CASE("codec: zstd input that is all read while the decoder still holds output is not a cut file") {
  // One frame of 9 MiB of zeros and nothing after it (as the zstd tool
  // writes): its few bytes are read at once, and the decoder hands the
  // output out over many blocks after the input has ended.
  const std::string stream(9 << 20, '\0');
  std::string z(ZSTD_compressBound(stream.size()), '\0');
  z.resize(ZSTD_compress(z.data(), z.size(), stream.data(), stream.size(), 3));
  test::ScratchDir dir;
  test::write_file(dir / "z", z);
  CHECK(decode_file(dir / "z") == stream);
}

TEST_CASE("codec: corrupt zstd data fails with where, after what decoded") {
  const std::string stream = sample_stream(3 << 20);
  std::string z = encode(Container::zstd, stream);
  z[z.size() / 2] = static_cast<char>(z[z.size() / 2] ^ 0x55);
  test::ScratchDir dir;
  test::write_file(dir / "bad", z);
  InputFile in(dir / "bad");
  auto dec = open_decoder(in);
  Block block;
  std::string why;
  try {
    while (dec->next(block)) {
    }
  } catch (const Error& e) {
    why = e.what();
  }
  CHECK(why.find("corrupt zstd data") != std::string::npos);
  test::write_file(dir / "magic", std::string("\x28\xb5", 2));
  CHECK_THROWS_WITH_AS(decode_file(dir / "magic"),
                       (dir / "magic" + ": offset 2: the file ends inside the magic number of a zstd container (2 "
                                        "bytes)")
                           .c_str(),
                       Error);
}

TEST_CASE("codec: prefetch delivers the same blocks and the same error") {
  const std::string stream = sample_stream(3 * kSnappyChunk);
  const std::string full = encode(Container::snappy, stream);
  test::ScratchDir dir;
  test::write_file(dir / "cut", full.substr(0, full.size() - 100));
  InputFile in(dir / "cut");
  auto dec = prefetch(open_decoder(in), 2);
  std::string got;
  Block block;
  CHECK_THROWS_AS(
      [&] {
        while (dec->next(block)) got.append(block.begin(), block.end());
      }(),
      Error);
  CHECK(got.size() > 2 * kSnappyChunk);
  CHECK(stream.compare(0, got.size(), got) == 0);
}
