#pragma once
// cublas.gemm's element types and the numbers its correctness checks rest on: how many bits each input
// type and each accumulator keeps, the largest integer inputs whose products and every partial sum are
// exact (so the GPU must return the exact integer result), and the per-type tolerance for random inputs.
// Host and device share the fp8 (E4M3) codec.
#include <cmath>
#include <cstdint>
#include <string>

#include "common/half_bits.h"
#include "common/hd.h"

namespace gpucheck::kernels {

enum class GemmType { kFp32, kTf32, kFp16, kBf16, kFp8 };

const char* to_string(GemmType t);
/// Bytes of one input element (tf32 is stored as fp32).
int input_bytes(GemmType t);

/// Significand bits (with the implicit one) of the input as the multiplier sees it: every integer with
/// |x| <= 2^bits is exact. fp32 24, tf32 11 (fp32 storage, inputs cut to 10 stored bits by the tensor
/// core), fp16 11, bf16 8, fp8 E4M3 4.
int input_precision_bits(GemmType t);

/// Significand bits every partial sum is guaranteed to keep. fp32 accumulation: 24. FP8 on Hopper's
/// tensor cores: about 14 (DeepSeek-V3 technical report, arXiv:2412.19437, section 3.3.2, measured on
/// H800: "limited to retaining around 14 bits"), so 14 is used although cuBLAS promotes partial sums to
/// fp32 at intervals.
int accumulation_precision_bits(GemmType t);

/// The largest integer magnitude a such that inputs in [-a, a] are exact in the input type and every
/// partial sum of a k-term dot product (|sum| <= k * a^2, in any order) is an integer the accumulator
/// represents exactly: a <= 2^input_bits and k * a^2 <= 2^accumulation_bits. 0 when even a = 1 fails.
std::int64_t exact_integer_bound(GemmType t, std::int64_t k);

/// The error allowed on a random-input product, relative to sum_p |a_ip * b_pj| (the bound scales with
/// that sum, not with |c|, because cancellation can make c arbitrarily small):
///   accumulation: gamma_k = k*u / (1 - k*u), Higham's bound for any summation order, u the accumulator's
///   unit roundoff (2^-24 for fp32); tensor-core types get 2 * gamma_k because their fp32 adders
///   truncate the aligned operands instead of rounding (Fasi et al., "Numerical behavior of NVIDIA tensor
///   cores", PeerJ CS 2021), which doubles u; fp8 uses u = 2^-13 (the 14 bits above);
///   inputs: tf32 adds 2 * 2^-10, each factor cut to 10 stored mantissa bits (truncation, worst case);
///   fp16/bf16/fp8 inputs are generated in their type, so they are exact and their products exact in fp32;
///   output: fp32 results, one more rounding of 2^-24.
double gemm_tolerance(GemmType t, std::int64_t k);

// ---- fp8 E4M3 (OCP FP8, "fn": no infinities, NaN = S.1111.111, max 448) -------------------------------
GK_HD float e4m3_to_float(std::uint8_t v) {
  std::uint32_t sign = v >> 7, exp = (v >> 3) & 0xfu, mant = v & 7u;
  float mag;
  if (exp == 15 && mant == 7) return bits_float(0x7fc00000u | (sign << 31));  // NaN
  if (exp == 0) mag = static_cast<float>(mant) * 0.001953125f;                 // mant * 2^-9
  else mag = bits_float(((exp + 120u) << 23) | (mant << 20));
  return sign ? -mag : mag;
}

/// Round to nearest even, saturating to +-448 (what __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3) does);
/// NaN stays NaN.
GK_HD std::uint8_t e4m3_from_float(float f) {
  std::uint32_t x = float_bits(f);
  std::uint8_t sign = static_cast<std::uint8_t>((x >> 24) & 0x80u);
  std::uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return static_cast<std::uint8_t>(sign | 0x7f);
  if (ax >= 0x43e00000u) return static_cast<std::uint8_t>(sign | 0x7e);  // >= 448 (and inf): saturate
  std::uint32_t e = ax >> 23;
  if (e < 121) {  // below 2^-6: subnormal k * 2^-9 (k = 0..7, 8 is the smallest normal: correct carry)
    float k = bits_float(ax) * 512.0f;  // exact scaling
    float r = rintf(k);                 // ties to even in the default rounding mode
    return static_cast<std::uint8_t>(sign | static_cast<std::uint32_t>(r));
  }
  std::uint32_t q = ((e - 120u) << 3) | ((ax >> 20) & 7u);
  std::uint32_t rem = ax & 0xfffffu;
  if (rem > 0x80000u || (rem == 0x80000u && (q & 1u))) ++q;
  if (q > 0x7e) q = 0x7e;  // rounding up past 448 saturates
  return static_cast<std::uint8_t>(sign | q);
}

/// tf32 as the tensor core sees an fp32 input: the low 13 mantissa bits cut (truncation, the worst case).
GK_HD float tf32_truncate(float f) { return bits_float(float_bits(f) & 0xffffe000u); }

}  // namespace gpucheck::kernels
