// fp16/bf16 conversions used by every kernel and reference: exhaustive over fp16, compared with the F16C
// hardware converter where the CPU has it, and with exact nearest-even rounding computed in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "adam/cpu_isa.h"
#include "common/half_bits.h"

#if defined(__x86_64__)
#include <immintrin.h>
__attribute__((target("f16c"))) static std::uint16_t hw_fp16(float f) {
  return static_cast<std::uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) static float hw_fp16_to_float(std::uint16_t h) { return _cvtsh_ss(h); }
#endif

using namespace gpucheck::kernels;

namespace {
// CPUID traps to the hypervisor on VMs (tens of µs): ask once.
bool have_f16c() {
  static const bool yes = detect_cpu_features().f16c && detect_cpu_features().os_avx;
  return yes;
}

// Nearest-even rounding of x to a format with `mant` mantissa bits and minimum exponent `emin` (of the
// subnormal spacing), overflow threshold `max_finite`; exact in double for float inputs.
double round_nearest_even(double x, int mant, int min_exp, double max_finite) {
  if (std::isnan(x) || std::isinf(x)) return x;
  double a = std::fabs(x);
  int e = a == 0 ? min_exp : std::max(std::ilogb(a) - mant, min_exp);
  double q = std::ldexp(1.0, e);
  double k = std::floor(a / q), rem = a - k * q;
  if (rem > q / 2 || (rem == q / 2 && std::fmod(k, 2.0) == 1.0)) k += 1;
  double r = k * q;
  double overflow = max_finite + std::ldexp(1.0, std::ilogb(max_finite) - mant) / 2;  // half an ulp above max
  if (a >= overflow) r = INFINITY;
  return std::copysign(r, x);
}
}  // namespace

TEST(HalfBits, Fp16DecodeAllPatternsExact) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    float f = fp16_to_float(static_cast<std::uint16_t>(h));
    std::uint32_t exp = (h >> 10) & 31, mant = h & 1023;
    double want = exp == 0 ? std::ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(1024 + mant, int(exp) - 25);
    if (h & 0x8000) want = -want;
    if (std::isnan(want)) ASSERT_TRUE(std::isnan(f)) << h;
    else ASSERT_EQ(static_cast<double>(f), want) << "pattern " << h;
#if defined(__x86_64__)
    if (have_f16c()) {
      float hw = hw_fp16_to_float(static_cast<std::uint16_t>(h));
      if (std::isnan(hw)) ASSERT_TRUE(std::isnan(f));
      else ASSERT_EQ(float_bits(hw), float_bits(f)) << "F16C disagrees on pattern " << h;
    }
#endif
  }
}

TEST(HalfBits, Fp16EncodeHandPickedCases) {
  EXPECT_EQ(fp16_from_float(1.0f), 0x3c00);
  EXPECT_EQ(fp16_from_float(-2.0f), 0xc000);
  EXPECT_EQ(fp16_from_float(65504.0f), 0x7bff);
  EXPECT_EQ(fp16_from_float(65519.99f), 0x7bff);
  EXPECT_EQ(fp16_from_float(65520.0f), 0x7c00);  // tie between 65504 (odd) and 65536: rounds to even = inf
  EXPECT_EQ(fp16_from_float(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(fp16_from_float(std::ldexp(1.0f, -25)), 0x0000);           // tie to even (zero)
  EXPECT_EQ(fp16_from_float(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(fp16_from_float(std::ldexp(3.0f, -25)), 0x0002);           // 1.5 * 2^-24: tie to even 2
  EXPECT_EQ(fp16_from_float(1.0f + std::ldexp(1.0f, -11)), 0x3c00);    // tie, even stays
  EXPECT_EQ(fp16_from_float(1.0f + std::ldexp(3.0f, -11)), 0x3c02);    // tie, odd rounds up
  EXPECT_EQ(fp16_from_float(-0.0f), 0x8000);
  EXPECT_EQ(fp16_from_float(INFINITY), 0x7c00);
  EXPECT_TRUE(fp16_is_inf_or_nan(fp16_from_float(NAN)));
  EXPECT_NE(fp16_from_float(NAN) & 0x3ff, 0);
}

TEST(HalfBits, Fp16EncodeMatchesExactRoundingAndF16C) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> bits;
  auto check = [&](float f) {
    std::uint16_t h = fp16_from_float(f);
    double want = round_nearest_even(f, 10, -24, 65504.0);
    if (std::isnan(f)) ASSERT_TRUE(fp16_is_inf_or_nan(h) && (h & 0x3ff)) << f;
    else ASSERT_EQ(static_cast<double>(fp16_to_float(h)), want) << "float " << f << " bits " << float_bits(f);
#if defined(__x86_64__)
    if (have_f16c()) {
      ASSERT_EQ(hw_fp16(f), h) << "F16C disagrees for bits " << float_bits(f);
    }
#endif
  };
  // Every fp16 value, its midpoints to the neighbours and one float ulp either side of them.
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {
    float a = fp16_to_float(static_cast<std::uint16_t>(h)), b = fp16_to_float(static_cast<std::uint16_t>(h + 1));
    float mid = static_cast<float>((static_cast<double>(a) + b) / 2);
    for (float f : {a, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
      check(f);
      check(-f);
    }
  }
  // Random float bit patterns, NaNs and infinities included.
  for (int i = 0; i < 2000000; ++i) check(bits_float(bits(rng)));
}

TEST(HalfBits, Bf16EncodeMatchesExactRounding) {
  EXPECT_EQ(bf16_from_float(1.0f), 0x3f80);
  EXPECT_EQ(bf16_from_float(1.0f + std::ldexp(1.0f, -8)), 0x3f80);       // tie, even stays
  EXPECT_EQ(bf16_from_float(1.0f + std::ldexp(3.0f, -8)), 0x3f82);       // tie, odd rounds up
  EXPECT_EQ(bf16_from_float_truncate(1.0f + std::ldexp(3.0f, -8)), 0x3f81);
  EXPECT_EQ(bf16_from_float(3.4028235e38f), 0x7f80);                      // rounds past the max to inf
  EXPECT_TRUE(bf16_is_inf_or_nan(bf16_from_float(NAN)));
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 2000000; ++i) {
    float f = bits_float(bits(rng));
    std::uint16_t b = bf16_from_float(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(bf16_is_inf_or_nan(b) && (b & 0x7f));
      continue;
    }
    double want = round_nearest_even(f, 7, -133, 3.38953139e38);
    ASSERT_EQ(static_cast<double>(bf16_to_float(b)), want) << "bits " << float_bits(f);
  }
}
