// SPDX-License-Identifier: MIT
// Snapshots as PNG: pixels from an image copy turned to RGB, written and read
// back unchanged, other PNGs (grey, alpha) read as RGB, damaged files refused
// with their name, and the comparison's figures on images whose difference is
// known.
#include <doctest/doctest.h>
#include <png.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "libtrace/core/error.hpp"
#include "libtrace/image/png.hpp"
#include "test_util.hpp"

namespace {

using namespace libtrace;

// Every pixel different, every channel value used somewhere.
image::Rgb gradient(std::uint32_t width, std::uint32_t height) {
  image::Rgb img{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 3)};
  for (std::uint32_t y = 0; y < height; ++y)
    for (std::uint32_t x = 0; x < width; ++x) {
      std::uint8_t* p = &img.pixels[(std::size_t{y} * width + x) * 3];
      p[0] = static_cast<std::uint8_t>(x * 37 + y);
      p[1] = static_cast<std::uint8_t>(y * 53 + x * 3);
      p[2] = static_cast<std::uint8_t>((x ^ y) * 11 + 255);
    }
  return img;
}

image::Rgb filled(std::uint32_t width, std::uint32_t height, std::uint8_t v) {
  return {width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 3, v)};
}

void check_refused(const std::string& path, Errc code, const std::string& what) {
  try {
    (void)image::read_png(path);
    FAIL("read: " << path);
  } catch (const Error& e) {
    CHECK(e.code() == code);
    CHECK(std::string(e.what()) == what);
  }
}

}  // namespace

TEST_CASE("image: a PNG written is read back pixel for pixel, its size told from its header alone") {
  test::ScratchDir dir;
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{1, 1}, {7, 5}, {300, 2}};
  for (const auto& [w, h] : sizes) {
    const image::Rgb img = gradient(w, h);
    const std::string path = dir / "frame.png";
    image::write_png(path, img);
    CHECK(test::read_file(path).substr(1, 3) == "PNG");
    const image::Rgb back = image::read_png(path);
    CHECK(back.width == w);
    CHECK(back.height == h);
    CHECK(back.pixels == img.pixels);
    std::uint32_t pw = 0, ph = 0;
    image::png_size(path, pw, ph);
    CHECK(pw == w);
    CHECK(ph == h);
    const image::Difference d = image::compare(img, back);
    CHECK(d.max_channel == 0);
    CHECK(std::isinf(d.psnr));
  }
}

TEST_CASE("image: a PNG with grey and alpha is read as RGB, the alpha dropped") {
  test::ScratchDir dir;
  const std::string path = dir / "grey.png";
  // Grey 10, 20, ... with alphas from opaque to clear: 4 x 2 pixels.
  std::vector<std::uint8_t> ga;
  for (int i = 0; i < 8; ++i) {
    ga.push_back(static_cast<std::uint8_t>(10 * (i + 1)));
    ga.push_back(static_cast<std::uint8_t>(255 - 36 * i));
  }
  png_image out{};
  out.version = PNG_IMAGE_VERSION;
  out.width = 4;
  out.height = 2;
  out.format = PNG_FORMAT_GA;
  REQUIRE(png_image_write_to_file(&out, path.c_str(), 0, ga.data(), 0, nullptr) != 0);

  const image::Rgb img = image::read_png(path);
  CHECK(img.width == 4);
  CHECK(img.height == 2);
  REQUIRE(img.pixels.size() == 4 * 2 * 3);
  for (int i = 0; i < 8; ++i) {
    CHECK(img.pixels[i * 3 + 0] == 10 * (i + 1));
    CHECK(img.pixels[i * 3 + 1] == 10 * (i + 1));
    CHECK(img.pixels[i * 3 + 2] == 10 * (i + 1));
  }
}

TEST_CASE("image: a file that is not a PNG, or is cut short, is refused with its name") {
  test::ScratchDir dir;
  const std::string good = dir / "good.png";
  image::write_png(good, gradient(16, 16));
  const std::string bytes = test::read_file(good);

  check_refused(dir / "missing.png", Errc::io, dir / "missing.png" + ": No such file or directory");
  test::write_file(dir / "text.png", "not a picture at all\n");
  check_refused(dir / "text.png", Errc::bad_magic, dir / "text.png" + ": not a PNG");
  test::write_file(dir / "empty.png", "");
  check_refused(dir / "empty.png", Errc::bad_magic, dir / "empty.png" + ": not a PNG");
  // The header whole, the image data cut.
  test::write_file(dir / "cut.png", bytes.substr(0, bytes.size() / 2));
  check_refused(dir / "cut.png", Errc::bad_record, dir / "cut.png" + ": a damaged or unsupported PNG");
  std::uint32_t w = 0, h = 0;
  image::png_size(dir / "cut.png", w, h);  // its header is still there
  CHECK(w == 16);
  CHECK(h == 16);
  // A damaged header: the size cannot be told either.
  std::string bad = bytes;
  bad[12] = 'X';  // IHDR -> XHDR
  test::write_file(dir / "bad.png", bad);
  check_refused(dir / "bad.png", Errc::bad_record, dir / "bad.png" + ": a damaged or unsupported PNG");
  const std::string damaged = dir / "bad.png" + ": a damaged or unsupported PNG";
  CHECK_THROWS_WITH_AS(image::png_size(dir / "bad.png", w, h), damaged.c_str(), Error);
  const std::string not_png = dir / "text.png" + ": not a PNG";
  CHECK_THROWS_WITH_AS(image::png_size(dir / "text.png", w, h), not_png.c_str(), Error);

  // Writing where there is no folder fails.
  CHECK_THROWS_AS(image::write_png(dir / "no/such/dir/f.png", gradient(2, 2)), Error);
}

TEST_CASE("image: the comparison's largest channel difference and PSNR on known differences") {
  const image::Rgb black = filled(4, 4, 0), white = filled(4, 4, 255);
  image::Difference d = image::compare(black, white);
  CHECK(d.max_channel == 255);
  CHECK(d.psnr == doctest::Approx(0.0));  // MSE = 255^2

  // One channel of 48 off by 10: MSE = 100 / 48.
  image::Rgb a = gradient(4, 4), b = a;
  b.pixels[17] = static_cast<std::uint8_t>(b.pixels[17] >= 10 ? b.pixels[17] - 10 : b.pixels[17] + 10);
  const image::Difference one = image::compare(a, b);
  CHECK(one.max_channel == 10);
  CHECK(one.psnr == doctest::Approx(10 * std::log10(255.0 * 255.0 * 48 / 100)));
  CHECK(image::compare(b, a).psnr == doctest::Approx(one.psnr));  // symmetric

  // Every channel off by 1: MSE 1, the PSNR of 8-bit rounding (48.13 dB).
  image::Rgb c = filled(3, 3, 100), e = filled(3, 3, 101);
  d = image::compare(c, e);
  CHECK(d.max_channel == 1);
  CHECK(d.psnr == doctest::Approx(20 * std::log10(255.0)));

  // More differences, a lower PSNR.
  b.pixels[0] = static_cast<std::uint8_t>(b.pixels[0] ^ 0x80);
  const image::Difference worse = image::compare(a, b);
  CHECK(worse.max_channel == 128);
  CHECK(worse.psnr < one.psnr);
}

TEST_CASE("image: snapshot pixels of RGBA and BGRA formats become RGB, alpha dropped; others are refused") {
  const std::uint8_t bgra[] = {1, 2, 3, 4, 5, 6, 7, 8};  // two pixels
  for (VkFormat f : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB}) {
    CHECK(image::snapshot_format(f));
    const image::Rgb img = image::from_pixels(f, bgra, 2, 1);
    CHECK(img.width == 2);
    CHECK(img.height == 1);
    CHECK(img.pixels == std::vector<std::uint8_t>{3, 2, 1, 7, 6, 5});
  }
  for (VkFormat f : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_A8B8G8R8_UNORM_PACK32,
                     VK_FORMAT_A8B8G8R8_SRGB_PACK32}) {
    CHECK(image::snapshot_format(f));
    CHECK(image::from_pixels(f, bgra, 1, 2).pixels == std::vector<std::uint8_t>{1, 2, 3, 5, 6, 7});
  }
  for (VkFormat f : {VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_A2B10G10R10_UNORM_PACK32,
                     VK_FORMAT_UNDEFINED}) {
    CHECK_FALSE(image::snapshot_format(f));
    CHECK_THROWS_WITH_AS(image::from_pixels(f, bgra, 2, 1), "snapshot: not an 8-bit RGBA or BGRA format", Error);
  }
}

TEST_CASE("image: snapshot file names sort by frame up to a million frames") {
  CHECK(image::frame_file_name(0) == "frame-000000.png");
  CHECK(image::frame_file_name(150) == "frame-000150.png");
  CHECK(image::frame_file_name(999999) == "frame-999999.png");
  CHECK(image::frame_file_name(1234567) == "frame-1234567.png");
}
