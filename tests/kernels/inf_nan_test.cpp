// The inf/NaN test is a bit test on the exponent; it must agree with float classification for every one of
// the 65536 patterns of both formats (exactness, spec §1.5), and the buffer reference must find a single
// bad element anywhere, the last one included.
#include <gtest/gtest.h>

#include <cmath>

#include "inf_nan/inf_nan_reference.h"

using namespace gpucheck::kernels;

TEST(InfNan, BitTestMatchesFloatClassificationForAllPatterns) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    auto u = static_cast<std::uint16_t>(h);
    ASSERT_EQ(fp16_is_inf_or_nan(u), !std::isfinite(fp16_to_float(u))) << h;
    ASSERT_EQ(bf16_is_inf_or_nan(u), !std::isfinite(bf16_to_float(u))) << h;
  }
}

TEST(InfNan, ReferenceFindsOneBadElementAnywhere) {
  for (Dtype d : {Dtype::kFp16, Dtype::kBf16}) {
    for (std::size_t n : {1u, 7u, 1000u, 100003u}) {
      HostTensor t(d, n);
      for (std::size_t i = 0; i < n; ++i) t.set(i, std::sin(double(i)) * 60000.0);
      EXPECT_FALSE(has_inf_nan_reference(t)) << to_string(d) << " n=" << n;
      for (std::size_t pos : {std::size_t{0}, n / 2, n - 1}) {
        for (double bad : {INFINITY, -INFINITY, NAN}) {
          HostTensor u = t;
          u.set(pos, bad);
          EXPECT_TRUE(has_inf_nan_reference(u)) << to_string(d) << " n=" << n << " pos=" << pos;
        }
      }
    }
  }
  // 65504 is finite in fp16; 65520 rounds to inf when stored.
  HostTensor t(Dtype::kFp16, 2);
  t.set(0, 65504.0);
  EXPECT_FALSE(has_inf_nan_reference(t));
  t.set(1, 65520.0);
  EXPECT_TRUE(has_inf_nan_reference(t));
  EXPECT_FALSE(has_inf_nan_reference(HostTensor(Dtype::kFp16, 0)));
}
