// SPDX-License-Identifier: MIT
// Pipeline-cache headers (VkPipelineCacheHeaderVersionOne) and cache files.
#include <doctest/doctest.h>

#include "foz/foz_test_util.hpp"
#include "replay/foz/cache.hpp"
#include "test_util.hpp"

namespace d = libtrace::foz::detail;

namespace {
// What lavapipe (Mesa 22.3) writes: a bare 32-byte header.
std::string lavapipe_blob() {
  return test::le32(32) + test::le32(1) + test::le32(0x10005) + test::le32(0) +
         std::string("val-%s\0\0\0\0\0\0\0\0\0\0", 16);
}
}  // namespace

TEST_CASE("foz_replay_cache: a version-one header is read, and anything else is refused with a reason") {
  std::string why;
  const std::string blob = lavapipe_blob() + "payload";
  const auto h = d::parse_cache_header(test::bytes(blob), why);
  REQUIRE(h);
  CHECK(h->header_size == 32);
  CHECK(h->vendor_id == 0x10005);
  CHECK(h->device_id == 0);
  CHECK(h->uuid[0] == 'v');
  CHECK(d::uuid_string(h->uuid.data()) == "76616c2d-2573-0000-0000-000000000000");

  CHECK_FALSE(d::parse_cache_header({}, why));
  CHECK(why == "empty file, not a pipeline cache");
  CHECK_FALSE(d::parse_cache_header(test::bytes(blob.substr(0, 31)), why));
  CHECK(why.find("shorter than a pipeline cache header") != std::string::npos);
  std::string v2 = blob;
  v2[4] = 2;
  CHECK_FALSE(d::parse_cache_header(test::bytes(v2), why));
  CHECK(why == "pipeline cache header version 2 (only version 1 exists)");
  std::string big = blob;
  big[0] = 100;
  CHECK_FALSE(d::parse_cache_header(test::bytes(big), why));
  CHECK(why.find("does not fit") != std::string::npos);
}

TEST_CASE("foz_replay_cache: a blob fits only the device that made it") {
  std::string why;
  const std::string blob = lavapipe_blob();
  const auto h = d::parse_cache_header(test::bytes(blob), why);
  REQUIRE(h);
  std::uint8_t uuid[16];
  std::copy(h->uuid.begin(), h->uuid.end(), uuid);
  CHECK(d::cache_mismatch(*h, 0x10005, 0, uuid) == "");
  const std::string m = d::cache_mismatch(*h, 0x10de, 0x2684, uuid);
  CHECK(m.find("made for vendor 0x10005 device 0x0") != std::string::npos);
  CHECK(m.find("this device is vendor 0x10de device 0x2684") != std::string::npos);
  uuid[15] ^= 1;
  CHECK(d::cache_mismatch(*h, 0x10005, 0, uuid) != "");
}

TEST_CASE("foz_replay_cache: files are written whole, through a temporary") {
  test::ScratchDir dir;
  const std::string blob = lavapipe_blob();
  d::write_file_atomically(dir / "c.bin", test::bytes(blob));
  const auto back = d::read_file_bytes(dir / "c.bin");
  CHECK(std::string(back.begin(), back.end()) == blob);
  CHECK_THROWS_AS(d::read_file_bytes(dir / "missing.bin"), libtrace::Error);
  CHECK_THROWS_AS(d::write_file_atomically(dir / "no/such/dir/c.bin", test::bytes(blob)), libtrace::Error);
}
