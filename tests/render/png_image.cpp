#include "png_image.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace gpucheck::test {
namespace {

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

std::vector<unsigned char> inflate_all(const std::vector<unsigned char>& in, std::size_t expected) {
  std::vector<unsigned char> out(expected);
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw std::runtime_error("inflateInit failed");
  z.next_in = const_cast<unsigned char*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&z, Z_FINISH);
  inflateEnd(&z);
  if (rc != Z_STREAM_END || z.total_out != expected) throw std::runtime_error("PNG image data do not inflate to the image size");
  return out;
}

int paeth(int a, int b, int c) {
  int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

}  // namespace

Image read_png(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<unsigned char> d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (d.size() < 8 || !std::equal(sig, sig + 8, d.begin())) throw std::runtime_error(path + ": not a PNG file");
  Image img;
  int channels = 0;
  std::vector<unsigned char> idat;
  for (std::size_t at = 8; at + 12 <= d.size();) {
    const std::uint32_t len = be32(&d[at]);
    const std::string type(d.begin() + at + 4, d.begin() + at + 8);
    if (at + 12 + len > d.size()) throw std::runtime_error(path + ": truncated chunk " + type);
    const unsigned char* body = &d[at + 8];
    if (type == "IHDR") {
      img.width = static_cast<int>(be32(body));
      img.height = static_cast<int>(be32(body + 4));
      if (body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[12] != 0)
        throw std::runtime_error(path + ": only 8-bit RGB/RGBA, non-interlaced PNG is supported");
      channels = body[9] == 6 ? 4 : 3;
    } else if (type == "IDAT") {
      idat.insert(idat.end(), body, body + len);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + len;
  }
  if (!channels || img.width <= 0 || img.height <= 0) throw std::runtime_error(path + ": no image header");
  const std::size_t stride = static_cast<std::size_t>(img.width) * channels;
  std::vector<unsigned char> raw = inflate_all(idat, (stride + 1) * img.height);
  std::vector<unsigned char> prev(stride, 0), cur(stride);
  img.pixels.resize(static_cast<std::size_t>(img.width) * img.height);
  for (int y = 0; y < img.height; ++y) {
    const unsigned char* row = &raw[y * (stride + 1)];
    const int filter = row[0];
    for (std::size_t i = 0; i < stride; ++i) {
      const int x = row[1 + i], a = i >= std::size_t(channels) ? cur[i - channels] : 0, b = prev[i],
                c = i >= std::size_t(channels) ? prev[i - channels] : 0;
      int v = 0;
      switch (filter) {
        case 0: v = x; break;
        case 1: v = x + a; break;
        case 2: v = x + b; break;
        case 3: v = x + (a + b) / 2; break;
        case 4: v = x + paeth(a, b, c); break;
        default: throw std::runtime_error(path + ": bad row filter");
      }
      cur[i] = static_cast<unsigned char>(v & 0xFF);
    }
    for (int x = 0; x < img.width; ++x) {
      const unsigned char* p = &cur[static_cast<std::size_t>(x) * channels];
      img.pixels[static_cast<std::size_t>(y) * img.width + x] = {p[0], p[1], p[2]};
    }
    std::swap(prev, cur);
  }
  return img;
}

double share_of_colour(const Image& img, Rgb colour, int y0, int y1, int tolerance) {
  std::size_t n = 0, hit = 0;
  for (int y = std::max(0, y0); y < std::min(img.height, y1); ++y)
    for (int x = 0; x < img.width; ++x, ++n) {
      const Rgb& p = img.at(x, y);
      hit += std::abs(p.r - colour.r) <= tolerance && std::abs(p.g - colour.g) <= tolerance &&
             std::abs(p.b - colour.b) <= tolerance;
    }
  return n ? double(hit) / n : 0;
}

}  // namespace gpucheck::test
