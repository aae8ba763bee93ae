// SPDX-License-Identifier: MIT
#include "libtrace/image/png.hpp"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "libtrace/core/error.hpp"

namespace libtrace::image {

namespace {

struct File {
  std::FILE* f = nullptr;
  ~File() {
    if (f) std::fclose(f);
  }
};

// Where red and blue are in a pixel of the formats snapshots read.
bool channel_order(VkFormat f, int& r, int& b) {
  switch (f) {
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB: r = 2, b = 0; return true;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32: r = 0, b = 2; return true;
    default: return false;
  }
}

// libpng reports errors by longjmp: these frames hold nothing that a jump
// past them would have to destroy or could leave stale.
bool write_rows(png_structp png, png_infop info, std::FILE* f, const Rgb& image) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  png_init_io(png, f);
  png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (std::uint32_t y = 0; y < image.height; ++y)
    png_write_row(png, const_cast<png_bytep>(image.pixels.data() + std::size_t{y} * image.width * 3));
  png_write_end(png, nullptr);
  return true;
}

bool read_rows(png_structp png, png_infop info, std::FILE* f, Rgb* out) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  png_init_io(png, f);
  png_read_info(png, info);
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  png_read_update_info(png, info);
  out->width = png_get_image_width(png, info);
  out->height = png_get_image_height(png, info);
  if (png_get_rowbytes(png, info) != std::size_t{out->width} * 3 || out->width > (1u << 16) || out->height > (1u << 16))
    return false;
  out->pixels.resize(std::size_t{out->width} * out->height * 3);
  for (std::uint32_t y = 0; y < out->height; ++y)
    png_read_row(png, out->pixels.data() + std::size_t{y} * out->width * 3, nullptr);
  png_read_end(png, nullptr);
  return true;
}

}  // namespace

bool snapshot_format(VkFormat format) {
  int r = 0, b = 0;
  return channel_order(format, r, b);
}

Rgb from_pixels(VkFormat format, const void* pixels, std::uint32_t width, std::uint32_t height) {
  int r = 0, b = 0;
  if (!channel_order(format, r, b)) throw Error(Errc::unsupported, "snapshot", "not an 8-bit RGBA or BGRA format");
  Rgb out{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 3)};
  const auto* src = static_cast<const std::uint8_t*>(pixels);
  for (std::size_t i = 0, n = std::size_t{width} * height; i < n; ++i) {
    out.pixels[i * 3 + 0] = src[i * 4 + r];
    out.pixels[i * 3 + 1] = src[i * 4 + 1];
    out.pixels[i * 3 + 2] = src[i * 4 + b];
  }
  return out;
}

void write_png(const std::string& path, const Rgb& image) {
  const std::string tmp = path + ".tmp";
  bool ok = false;
  {
    File f{std::fopen(tmp.c_str(), "wb")};
    if (!f.f) throw Error(Errc::io, tmp, std::strerror(errno));
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    ok = png && info && write_rows(png, info, f.f, image);
    png_destroy_write_struct(png ? &png : nullptr, info ? &info : nullptr);
    ok = std::fclose(f.f) == 0 && ok;
    f.f = nullptr;
  }
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(Errc::io, path, "cannot write the PNG");
  }
}

Rgb read_png(const std::string& path) {
  File f{std::fopen(path.c_str(), "rb")};
  if (!f.f) throw Error(Errc::io, path, std::strerror(errno));
  unsigned char sig[8] = {};
  if (std::fread(sig, 1, 8, f.f) != 8 || png_sig_cmp(sig, 0, 8) != 0) throw Error(Errc::bad_magic, path, "not a PNG");
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  Rgb out;
  bool ok = false;
  if (png && info) {
    png_set_sig_bytes(png, 8);
    ok = read_rows(png, info, f.f, &out);
  }
  png_destroy_read_struct(png ? &png : nullptr, info ? &info : nullptr, nullptr);
  if (!ok) throw Error(Errc::bad_record, path, "a damaged or unsupported PNG");
  return out;
}

void png_size(const std::string& path, std::uint32_t& width, std::uint32_t& height) {
  File f{std::fopen(path.c_str(), "rb")};
  if (!f.f) throw Error(Errc::io, path, std::strerror(errno));
  unsigned char head[24] = {};  // signature, then the IHDR chunk: length, type, width, height
  if (std::fread(head, 1, 8, f.f) != 8 || png_sig_cmp(head, 0, 8) != 0) throw Error(Errc::bad_magic, path, "not a PNG");
  if (std::fread(head + 8, 1, 16, f.f) != 16 || std::memcmp(head + 12, "IHDR", 4) != 0)
    throw Error(Errc::bad_record, path, "a damaged or unsupported PNG");
  auto be32 = [&](int at) {
    return std::uint32_t{head[at]} << 24 | std::uint32_t{head[at + 1]} << 16 | std::uint32_t{head[at + 2]} << 8 |
           head[at + 3];
  };
  width = be32(16);
  height = be32(20);
}

std::string frame_file_name(std::uint64_t frame) {
  char name[40];
  std::snprintf(name, sizeof name, "frame-%06llu.png", static_cast<unsigned long long>(frame));
  return name;
}

Difference compare(const Rgb& a, const Rgb& b) {
  Difference d;
  const std::size_t n = std::min(a.pixels.size(), b.pixels.size());
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int x = std::abs(int{a.pixels[i]} - int{b.pixels[i]});
    d.max_channel = std::max(d.max_channel, x);
    sum += double(x) * x;
  }
  const double mse = n ? sum / double(n) : 0;
  d.psnr = mse == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(255.0 * 255.0 / mse);
  return d;
}

Rgb difference_picture(const Rgb& replayed, const Rgb& captured) {
  const std::uint32_t w = captured.width, h = captured.height;
  Rgb out;
  out.width = 3 * w;
  out.height = h;
  out.pixels.assign(std::size_t{out.width} * h * 3, 0);
  if (replayed.width != w || replayed.height != h) return out;
  for (std::uint32_t y = 0; y < h; ++y) {
    std::uint8_t* row = out.pixels.data() + std::size_t{y} * out.width * 3;
    const std::uint8_t* a = replayed.pixels.data() + std::size_t{y} * w * 3;
    const std::uint8_t* b = captured.pixels.data() + std::size_t{y} * w * 3;
    std::copy(a, a + std::size_t{w} * 3, row);
    std::copy(b, b + std::size_t{w} * 3, row + std::size_t{w} * 3);
    std::uint8_t* heat = row + std::size_t{w} * 6;
    for (std::uint32_t x = 0; x < w; ++x) {
      int d = 0;
      for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int{a[3 * x + c]} - int{b[3 * x + c]}));
      std::uint8_t* px = heat + 3 * x;
      if (d == 0) {
        const int luma = (int{b[3 * x]} * 77 + int{b[3 * x + 1]} * 150 + int{b[3 * x + 2]} * 29) >> 8;
        px[0] = px[1] = px[2] = static_cast<std::uint8_t>(luma / 4);
      } else {
        px[0] = 255;
        px[1] = static_cast<std::uint8_t>(std::min(255, 64 + 3 * d));
        px[2] = 0;
      }
    }
  }
  return out;
}

}  // namespace libtrace::image
