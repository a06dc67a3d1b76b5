#pragma once
// fp16 (IEEE binary16) and bf16 conversions on raw bit patterns, round-to-nearest-even, identical on host
// and device. Written out (not cuda_fp16.h / F16C) so the CPU references and the scalar offload path do
// exactly what the hardware converters do, and so the conversions are testable on a machine without a
// GPU (tests compare them with F16C and with exact double arithmetic).
#include "common/hd.h"

namespace gpucheck::kernels {

// ---- fp16 --------------------------------------------------------------------------------------------
GK_HD float fp16_to_float(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  if (exp == 0) {  // zero or subnormal: mant * 2^-24, exact in float
    float mag = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return bits_float(float_bits(mag) | sign);
  }
  if (exp == 31)  // inf; NaN comes back quiet with its payload (what F16C and the GPU do)
    return bits_float(sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0u));
  return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

GK_HD std::uint16_t fp16_from_float(float f) {
  std::uint32_t x = float_bits(f);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  std::uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u)  // NaN: quiet it and keep the top payload bits (what F16C and PTX cvt do)
    return static_cast<std::uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
  if (ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
  std::uint32_t e = ax >> 23;
  if (e < 113) {  // below 2^-14: fp16 subnormal (or zero) k * 2^-24
    if (e < 102) return static_cast<std::uint16_t>(sign);  // < 2^-25 rounds to zero
    std::uint32_t mant = (ax & 0x7fffffu) | 0x800000u;
    std::uint32_t shift = 126u - e;  // 14..24
    std::uint32_t k = mant >> shift;
    std::uint32_t rem = mant & ((1u << shift) - 1u);
    std::uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (k & 1u))) ++k;  // may carry into the smallest normal: correct
    return static_cast<std::uint16_t>(sign | k);
  }
  std::uint32_t h = ((e - 112u) << 10) | ((ax >> 13) & 0x3ffu);
  std::uint32_t rem = ax & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // carry into the exponent is correct too
  return static_cast<std::uint16_t>(sign | h);
}

// ---- bf16 --------------------------------------------------------------------------------------------
GK_HD float bf16_to_float(std::uint16_t b) { return bits_float(static_cast<std::uint32_t>(b) << 16); }

GK_HD std::uint16_t bf16_from_float(float f) {  // round to nearest even (what __float2bfloat16 does)
  std::uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

// BMTrain 1.0.x's CPU converter truncates instead (spec §1.3); kept only to model that behaviour.
GK_HD std::uint16_t bf16_from_float_truncate(float f) { return static_cast<std::uint16_t>(float_bits(f) >> 16); }

// inf or NaN <=> exponent all ones. Exact on the raw pattern, no float conversion involved.
GK_HD bool fp16_is_inf_or_nan(std::uint16_t h) { return (h & 0x7c00u) == 0x7c00u; }
GK_HD bool bf16_is_inf_or_nan(std::uint16_t b) { return (b & 0x7f80u) == 0x7f80u; }

}  // namespace gpucheck::kernels
