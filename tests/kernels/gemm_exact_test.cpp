// cublas.gemm's numbers on the CPU: which integers each input type holds exactly, the derived bound at
// which every partial sum of a k-term dot product is exact in the accumulator (and that one above it is
// not), the E4M3 codec, and that the per-type tolerance admits fp32 sums in any order but not a wrong value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "gemm/gemm_reference.h"

using namespace gpucheck::kernels;

namespace {
// What the input type stores for integer v (through the real conversions), as a double.
double stored(GemmType t, double v) {
  float f = static_cast<float>(v);
  switch (t) {
    case GemmType::kFp32: return f;
    case GemmType::kTf32: return tf32_truncate(f);
    case GemmType::kFp16: return fp16_to_float(fp16_from_float(f));
    case GemmType::kBf16: return bf16_to_float(bf16_from_float(f));
    case GemmType::kFp8: return e4m3_to_float(e4m3_from_float(f));
  }
  return 0;
}

// A float accumulator that keeps only `bits` significant bits after every addition (truncation): fp32's
// adder at bits = 24 rounds instead, which is never worse; the FP8 tensor core's ~14 bits at bits = 14.
float add_truncated(float acc, float x, int bits) {
  float s = acc + x;
  if (bits >= 24 || s == 0) return s;
  int e;
  std::frexp(s, &e);
  double scale = std::ldexp(1.0, bits - e);
  return static_cast<float>(std::trunc(s * scale) / scale);
}

const GemmType kTypes[] = {GemmType::kFp32, GemmType::kTf32, GemmType::kFp16, GemmType::kBf16, GemmType::kFp8};
}  // namespace

TEST(GemmExact, InputTypesHoldIntegersUpToTheirPrecision) {
  for (GemmType t : kTypes) {
    double top = std::ldexp(1.0, input_precision_bits(t));
    EXPECT_EQ(stored(t, top), top) << to_string(t);
    EXPECT_EQ(stored(t, -top + 1), -top + 1) << to_string(t);
    EXPECT_NE(stored(t, top + 1), top + 1) << to_string(t) << ": the precision claimed is too low";
  }
}

TEST(GemmExact, E4m3CodecRoundTripsEveryCodeAndRoundsToNearestEven) {
  for (int v = 0; v < 256; ++v) {
    float f = e4m3_to_float(static_cast<std::uint8_t>(v));
    if ((v & 0x7f) == 0x7f) {
      EXPECT_TRUE(std::isnan(f));
      continue;
    }
    std::uint8_t back = e4m3_from_float(f);
    if (v == 0x80) EXPECT_EQ(back, 0x80);  // -0 keeps its sign
    else EXPECT_EQ(back, v) << v;
  }
  EXPECT_EQ(e4m3_to_float(0x7e), 448.0f);
  EXPECT_EQ(e4m3_to_float(0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(e4m3_to_float(e4m3_from_float(17.0f)), 16.0f);  // tie: to the even code
  EXPECT_EQ(e4m3_to_float(e4m3_from_float(19.0f)), 20.0f);
  EXPECT_EQ(e4m3_to_float(e4m3_from_float(1e6f)), 448.0f);  // saturates, no infinity in E4M3
  EXPECT_EQ(e4m3_to_float(e4m3_from_float(-460.0f)), -448.0f);
}

TEST(GemmExact, BoundFollowsFromInputAndAccumulatorPrecision) {
  EXPECT_EQ(exact_integer_bound(GemmType::kFp32, 1024), 128);   // 1024 * 128^2 = 2^24
  EXPECT_EQ(exact_integer_bound(GemmType::kFp16, 1024), 128);
  EXPECT_EQ(exact_integer_bound(GemmType::kBf16, 16), 256);     // input-limited: 2^8
  EXPECT_EQ(exact_integer_bound(GemmType::kTf32, 1), 2048);     // input-limited: 2^11
  EXPECT_EQ(exact_integer_bound(GemmType::kFp8, 1024), 4);      // 1024 * 4^2 = 2^14
  EXPECT_EQ(exact_integer_bound(GemmType::kFp8, 16), 16);       // input-limited: 2^4
  EXPECT_EQ(exact_integer_bound(GemmType::kFp32, 1000), 129);   // floor(sqrt(2^24 / 1000))
  EXPECT_EQ(exact_integer_bound(GemmType::kFp8, 1 << 15), 0);   // nothing is exact: the probe must not claim it
  for (GemmType t : kTypes)
    for (std::int64_t k : {1, 7, 256, 1000, 4096}) {
      std::int64_t a = exact_integer_bound(t, k);
      if (a == 0) continue;
      EXPECT_LE(k * a * a, std::int64_t{1} << accumulation_precision_bits(t));
      EXPECT_TRUE(a + 1 > (std::int64_t{1} << input_precision_bits(t)) ||
                  k * (a + 1) * (a + 1) > (std::int64_t{1} << accumulation_precision_bits(t)));
    }
}

TEST(GemmExact, AtTheBoundEverySumOrderIsExactAndOneAboveItIsNot) {
  for (GemmType t : kTypes) {
    const std::int64_t k = 1024;
    const std::int64_t a = exact_integer_bound(t, k);
    const int bits = accumulation_precision_bits(t);
    // Worst case: every product is +a^2 (all partial sums as large as they get).
    float acc = 0;
    for (std::int64_t p = 0; p < k; ++p) acc = add_truncated(acc, static_cast<float>(a * a), bits);
    EXPECT_EQ(static_cast<std::int64_t>(acc), k * a * a) << to_string(t);
    // Random integer inputs at the bound, summed in three orders.
    GemmCase c = make_integer_case(t, 2, 2, k, a, 11);
    auto exact = exact_product(c);
    std::mt19937_64 rng(5);
    for (int order = 0; order < 3; ++order) {
      std::vector<std::int64_t> idx(k);
      std::iota(idx.begin(), idx.end(), 0);
      if (order == 1) std::reverse(idx.begin(), idx.end());
      if (order == 2) std::shuffle(idx.begin(), idx.end(), rng);
      for (std::int64_t j = 0; j < 2; ++j)
        for (std::int64_t i = 0; i < 2; ++i) {
          float s = 0;
          for (auto p : idx)
            s = add_truncated(s, static_cast<float>(c.a_value[i * k + p] * c.b_value[j * k + p]), bits);
          EXPECT_EQ(static_cast<std::int64_t>(s), exact[i + j * 2]) << to_string(t) << " order " << order;
        }
    }
  }
  // One above the fp32 bound (k = 1024, a = 129): the all-a^2 sum passes 2^24 and loses its odd bits.
  float acc = 0;
  for (int p = 0; p < 1024; ++p) acc += 129.0f * 129.0f;
  EXPECT_NE(static_cast<std::int64_t>(acc), 1024LL * 129 * 129);
}

TEST(GemmExact, ExactCheckReportsTheWrongElement) {
  GemmCase c = make_integer_case(GemmType::kBf16, 3, 4, 64, exact_integer_bound(GemmType::kBf16, 64), 3);
  auto want = exact_product(c);
  std::vector<float> got(want.begin(), want.end());
  EXPECT_TRUE(check_exact(c, want, got).ok);
  got[2 + 3 * 3] += 1;
  auto r = check_exact(c, want, got);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.wrong, 1);
  EXPECT_NE(r.first.find("c[2,3]"), std::string::npos) << r.first;
}

TEST(GemmExact, ToleranceAdmitsFp32SumsInAnyOrderButNotAWrongValue) {
  for (GemmType t : kTypes) {
    const std::int64_t m = 8, n = 8, k = 1024;
    GemmCase c = make_random_case(t, m, n, k, 99);
    std::vector<double> want, abs_sum;
    reference_product(c, want, abs_sum);
    double tol = gemm_tolerance(t, k);
    const int bits = t == GemmType::kFp8 ? 14 : 24;
    for (int order = 0; order < 2; ++order) {
      std::vector<float> got(m * n);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i) {
          float s = 0;
          for (std::int64_t q = 0; q < k; ++q) {
            std::int64_t p = order ? k - 1 - q : q;
            s = add_truncated(s, static_cast<float>(c.a_value[i * k + p] * c.b_value[j * k + p]), bits);
          }
          got[i + j * m] = s;
        }
      auto r = check_tolerance(c, want, abs_sum, got, tol);
      EXPECT_TRUE(r.ok) << to_string(t) << ": " << r.first;
      got[5] = static_cast<float>(want[5] + 2 * tol * abs_sum[5]);
      EXPECT_FALSE(check_tolerance(c, want, abs_sum, got, tol).ok) << to_string(t);
    }
  }
  EXPECT_GT(gemm_tolerance(GemmType::kTf32, 256), gemm_tolerance(GemmType::kFp16, 256));
  EXPECT_GT(gemm_tolerance(GemmType::kFp8, 256), gemm_tolerance(GemmType::kBf16, 256));
}
