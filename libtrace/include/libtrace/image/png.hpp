// SPDX-License-Identifier: MIT
// 8-bit RGB images as PNG files (libpng): the snapshots of captures and
// replays, and their comparison.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>
#include <vector>

namespace libtrace::image {

struct Rgb {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // rows top to bottom, 3 bytes a pixel
};

// Whether snapshots can be taken of images of this format: 8-bit RGBA or BGRA.
bool snapshot_format(VkFormat format);
// Tightly packed pixels of such a format (as an image copy leaves them in a
// buffer) as RGB, alpha dropped.
Rgb from_pixels(VkFormat format, const void* pixels, std::uint32_t width, std::uint32_t height);

// Written to a temporary beside `path`, renamed on success; Error(io) otherwise.
void write_png(const std::string& path, const Rgb& image);
// Any PNG libpng reads, as 8-bit RGB (alpha dropped, grey expanded);
// Error(io) or Error(bad_record) with the file's name.
Rgb read_png(const std::string& path);
// The width and height a PNG's header declares, read without decoding it
// (a reference of another size is told without its pixels); errors as read_png.
void png_size(const std::string& path, std::uint32_t& width, std::uint32_t& height);

// The file name of frame N's snapshot, for captures and replays alike:
// frame-000150.png.
std::string frame_file_name(std::uint64_t frame);

// The largest difference of one channel (0..255) and the PSNR in dB
// (infinity for equal images) of two images of the same size.
struct Difference {
  int max_channel = 0;
  double psnr = 0;
};
Difference compare(const Rgb& a, const Rgb& b);

// Where two images of the same size differ, for a person to look at: the
// replayed image, the captured one and a heat map side by side. The heat
// map is the captured image dimmed where the pixels are equal, and red
// (a channel a few steps off) to yellow (far off) where they are not.
Rgb difference_picture(const Rgb& replayed, const Rgb& captured);

}  // namespace libtrace::image
