// The device's conversions (half_hw.h: cuda_fp16.h / cuda_bf16.h intrinsics, compiled here for the host)
// against the host's bit-level round-to-nearest-even (half_bits.h), which the references use: decode of all
// 65536 fp16 and bf16 patterns, encode of every non-NaN pattern's value, its neighbours one float step away
// and the exact midpoints to the next pattern (the ties), plus 4M random floats over the whole float range.
// Same bits everywhere except NaN payloads (both must stay NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "common/half_bits.h"
#include "common/half_hw.h"
#include "common/storage.h"

using namespace gpucheck::kernels;

namespace {

template <class Hw, class Sw>
void expect_same_encode(float f, Hw hw, Sw sw, const char* what, std::size_t& checked) {
  if (std::isnan(f)) return;
  const std::uint16_t a = hw(f), b = sw(f);
  ++checked;
  ASSERT_EQ(a, b) << what << " encode of " << f << " (bits " << std::hex << float_bits(f) << ")";
}

// Every value of interest around pattern p: itself, +-1 float step, and the midpoint to the next pattern.
template <class Decode, class Hw, class Sw>
void encode_around_every_pattern(Decode decode, Hw hw, Sw sw, const char* what) {
  std::size_t checked = 0;
  for (std::uint32_t p = 0; p < 65536; ++p) {
    const float v = decode(static_cast<std::uint16_t>(p));
    if (std::isnan(v)) continue;
    const float next = decode(static_cast<std::uint16_t>(p + 1 < 65536 ? p + 1 : p));
    for (float f : {v, std::nextafter(v, INFINITY), std::nextafter(v, -INFINITY)})
      expect_same_encode(f, hw, sw, what, checked);
    if (!std::isnan(next) && !std::isinf(next) && !std::isinf(v)) {
      const float mid = static_cast<float>((static_cast<double>(v) + next) / 2);  // exact: a tie
      for (float f : {mid, std::nextafter(mid, INFINITY), std::nextafter(mid, -INFINITY)})
        expect_same_encode(f, hw, sw, what, checked);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 4000000; ++i) expect_same_encode(bits_float(rng()), hw, sw, what, checked);
  EXPECT_GT(checked, 4000000u + 65536u * 3);
}

}  // namespace

TEST(HalfHw, Fp16DecodeEveryPatternSameBits) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const float hw = fp16_to_float_hw(static_cast<std::uint16_t>(h)), sw = fp16_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(sw)) ASSERT_TRUE(std::isnan(hw)) << h;
    else ASSERT_EQ(float_bits(hw), float_bits(sw)) << "fp16 pattern " << h;
  }
}

TEST(HalfHw, Bf16DecodeEveryPatternSameBits) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const float hw = bf16_to_float_hw(static_cast<std::uint16_t>(b)), sw = bf16_to_float(static_cast<std::uint16_t>(b));
    if (std::isnan(sw)) ASSERT_TRUE(std::isnan(hw)) << b;
    else ASSERT_EQ(float_bits(hw), float_bits(sw)) << "bf16 pattern " << b;
  }
}

TEST(HalfHw, Fp16EncodeSameBitsAroundEveryValueAndTie) {
  encode_around_every_pattern(fp16_to_float, fp16_from_float_hw, fp16_from_float, "fp16");
}

TEST(HalfHw, Bf16EncodeSameBitsAroundEveryValueAndTie) {
  encode_around_every_pattern(bf16_to_float, bf16_from_float_hw, bf16_from_float, "bf16");
}

TEST(HalfHw, NanStaysNan) {
  for (std::uint32_t u : {0x7fc00000u, 0x7f800001u, 0xffc00001u, 0x7fffffffu}) {
    EXPECT_EQ(fp16_from_float_hw(bits_float(u)) & 0x7c00u, 0x7c00u);
    EXPECT_NE(fp16_from_float_hw(bits_float(u)) & 0x3ffu, 0u);
    EXPECT_EQ(bf16_from_float_hw(bits_float(u)) & 0x7f80u, 0x7f80u);
    EXPECT_NE(bf16_from_float_hw(bits_float(u)) & 0x7fu, 0u);
  }
}
