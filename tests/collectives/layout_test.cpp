// BMTrain's ZeRO-3 layout, checked against the worked examples in specs/bmtrain.md section 2.3.
#include <gtest/gtest.h>

#include "collectives/layout.h"
#include "core/errors.h"

using namespace gpucheck::collectives;

TEST(ZeroLayout, TransformerBlockExample) {
  std::vector<std::size_t> sizes{3072 * 768, 3072, 1237, 1024 * 3072, 1024};
  for (DType t : {DType::kF16, DType::kF32}) {
    auto l = make_zero_layout(t, sizes, 2);
    EXPECT_EQ(l.offsets, (std::vector<std::size_t>{0, 2359296, 2362368, 2363648, 5509376}));
    EXPECT_EQ(l.total, 5510400u);
    EXPECT_EQ(l.partition, 2755200u);
    EXPECT_EQ(make_zero_layout(t, sizes, 3).partition, 1836800u);
    EXPECT_EQ(make_zero_layout(t, sizes, 4).partition, 1377600u);
    EXPECT_EQ(make_zero_layout(t, sizes, 8).partition, 688800u);
  }
}

TEST(ZeroLayout, OddSizesAlignTo512BytesPerDtype) {
  auto f32 = make_zero_layout(DType::kF32, {1000, 7, 1237}, 3);
  EXPECT_EQ(f32.offsets, (std::vector<std::size_t>{0, 1024, 1152}));
  EXPECT_EQ(f32.total, 2432u);
  EXPECT_EQ(f32.partition, 811u);
  EXPECT_EQ(f32.padded_total(), 2433u);
  auto f16 = make_zero_layout(DType::kF16, {1000, 7, 1237}, 3);
  EXPECT_EQ(f16.offsets, (std::vector<std::size_t>{0, 1024, 1280}));
  EXPECT_EQ(f16.total, 2560u);
  EXPECT_EQ(f16.partition, 854u);
  EXPECT_EQ(f16.padded_total(), 2562u);
  EXPECT_EQ(f16.owner(853), 0);
  EXPECT_EQ(f16.owner(854), 1);
  auto big = make_zero_layout(DType::kBF16, {7, 1237, (1u << 24) + 3}, 8);
  EXPECT_EQ(big.offsets[2], 1536u);
  EXPECT_EQ(big.total, 1536u + (1u << 24) + 256u);
  EXPECT_EQ(big.partition * 8, big.total);
}

TEST(ZeroLayout, StandaloneParameterShards) {
  auto s = param_shard(1237, 4, 3);
  EXPECT_EQ(s.storage, 310u);
  EXPECT_EQ(s.begin, 930u);
  EXPECT_EQ(s.end, 1237u);
  EXPECT_EQ(param_shard(5, 4, 2).begin, 4u);
  EXPECT_EQ(param_shard(5, 4, 2).end, 5u);
  EXPECT_EQ(param_shard(5, 4, 3).begin, param_shard(5, 4, 3).end);  // empty
}

TEST(ZeroLayout, RejectsBadInput) {
  EXPECT_THROW(make_zero_layout(DType::kF16, {7}, 0), gpucheck::InputError);
  EXPECT_THROW(make_zero_layout(DType::kF16, {}, 2), gpucheck::InputError);
  EXPECT_THROW(make_zero_layout(DType::kF16, {7, 0}, 2), gpucheck::InputError);
}
