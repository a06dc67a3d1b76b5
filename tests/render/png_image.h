#pragma once
// Just enough PNG decoding (zlib + the five row filters) to judge a browser's screenshot: 8-bit RGB or
// RGBA, not interlaced, which is what Chromium writes.
#include <cstdint>
#include <string>
#include <vector>

namespace gpucheck::test {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

struct Image {
  int width = 0, height = 0;
  std::vector<Rgb> pixels;  // row-major
  const Rgb& at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
};

/// Throws std::runtime_error naming what is wrong (not a PNG, unsupported format, bad zlib data).
Image read_png(const std::string& path);

/// Pixels in rows [y0, y1) within `tolerance` (per channel) of `colour`, as a share of those rows.
double share_of_colour(const Image& img, Rgb colour, int y0, int y1, int tolerance = 8);

}  // namespace gpucheck::test
