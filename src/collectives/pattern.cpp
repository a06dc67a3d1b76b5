#include "collectives/pattern.h"

#include <algorithm>
#include <cmath>

namespace gpucheck::collectives {

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

namespace {
std::uint64_t element_hash(std::uint64_t seed, int c, std::size_t i) {
  return mix64(mix64(seed ^ (static_cast<std::uint64_t>(c) * 0x632be59bd9b4e019ull)) + i);
}
int log2_floor(int w) {
  int k = 0;
  while ((1 << (k + 1)) <= w) ++k;
  return k;
}
}  // namespace

bool avg_is_exact(int world) { return world > 0 && (world & (world - 1)) == 0; }

std::int64_t Pattern::magnitude() const {
  switch (dtype) {
    case DType::kF32: return 1 << 12;
    case DType::kF16: return 1 << 5;
    case DType::kBF16: return 1 << 3;
    case DType::kU8: return 127;
  }
  return 1;
}

int Pattern::window() const {
  if (redop == RedOp::kMax || dtype == DType::kU8) return contributors;
  std::int64_t w = (std::int64_t{1} << significand_bits(dtype)) / magnitude();
  return static_cast<int>(std::min<std::int64_t>(w, contributors));
}

int Pattern::exponent() const {
  // A per-case scale so the check is not only about small integers, chosen so no value is subnormal
  // (some reduction kernels flush subnormals) and no sum overflows.
  std::uint64_t h = mix64(seed ^ 0x5ca1e);
  int lo = 0, hi = 0;
  switch (dtype) {
    case DType::kF16: lo = -8; hi = 2; break;      // |sum| <= 2^11 * 2^2 < 65504; q*2^e >= 2^-8
    case DType::kBF16: lo = -24; hi = 24; break;
    case DType::kF32: lo = -40; hi = 40; break;
    case DType::kU8: return 0;
  }
  int e = lo + static_cast<int>(h % static_cast<std::uint64_t>(hi - lo + 1));
  if (redop == RedOp::kAvg && dtype == DType::kF16) e = std::max(e, -8 + log2_floor(world));
  return e;
}

std::int64_t Pattern::numerator(int c, std::size_t i) const {
  if (flag) {
    if (flag_none) return 0;
    return c == static_cast<int>((seed + i) % static_cast<std::uint64_t>(contributors)) ? 1 : 0;
  }
  std::uint64_t h = element_hash(seed, c, i);
  if (dtype == DType::kU8) return static_cast<std::int64_t>(h & 0xff);
  int win = window();
  if (win < contributors) {
    std::size_t pos = (static_cast<std::size_t>(c) + i) % static_cast<std::size_t>(contributors);
    if (pos >= static_cast<std::size_t>(win)) return 0;
  }
  std::int64_t m = magnitude();
  return static_cast<std::int64_t>(h % static_cast<std::uint64_t>(2 * m + 1)) - m;
}

std::uint32_t Pattern::bits(int c, std::size_t i) const {
  if (redop == RedOp::kNone) {
    std::uint64_t h = element_hash(seed, c, i);
    switch (dtype_size(dtype)) {
      case 1: return static_cast<std::uint32_t>(h & 0xffu);
      case 2: return static_cast<std::uint32_t>(h & 0xffffu);
      default: return static_cast<std::uint32_t>(h & 0xffffffffu);
    }
  }
  std::int64_t q = numerator(c, i);
  if (dtype == DType::kU8) return static_cast<std::uint32_t>(q & 0xff);
  return encode(dtype, std::ldexp(static_cast<double>(q), exponent()));
}

std::uint32_t Pattern::reduced_bits(int first, int count, std::size_t i) const {
  if (redop == RedOp::kMax) {
    std::int64_t m = numerator(first, i);
    for (int c = first + 1; c < first + count; ++c) m = std::max(m, numerator(c, i));
    if (dtype == DType::kU8) return static_cast<std::uint32_t>(m & 0xff);
    return encode(dtype, std::ldexp(static_cast<double>(m), exponent()));
  }
  std::int64_t s = 0;
  for (int c = first; c < first + count; ++c) s += numerator(c, i);
  double v = std::ldexp(static_cast<double>(s), exponent());
  if (redop == RedOp::kAvg) v /= world;
  if (dtype == DType::kU8) return static_cast<std::uint32_t>(s & 0xff);
  return encode(dtype, v);
}

std::uint32_t Pattern::corrupted(std::uint32_t b) const {
  if (redop == RedOp::kMax) {
    // Above every generated value, so the maximum itself changes.
    if (dtype == DType::kU8) return b == 0xffu ? 0xfeu : 0xffu;
    return encode(dtype, std::ldexp(static_cast<double>(magnitude() + 1), exponent()));
  }
  switch (dtype) {
    case DType::kU8: return b ^ 0x80u ^ (b == 0 ? 1u : 0u);
    case DType::kF16:
    case DType::kBF16:
      if ((b & 0x7fffu) == 0) return encode(dtype, std::ldexp(1.0, exponent()));
      return b ^ 0x8000u;
    case DType::kF32:
      if ((b & 0x7fffffffu) == 0) return encode(dtype, std::ldexp(1.0, exponent()));
      return b ^ 0x80000000u;
  }
  return ~b;
}

}  // namespace gpucheck::collectives
