// THE peer rule (core/peer_outlier.h), which the thresholds' peer_outlier and stress.gemm both judge with.
#include <gtest/gtest.h>

#include "core/peer_outlier.h"

namespace gpucheck {
namespace {

std::vector<std::size_t> low(const PeerJudgement& j) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < j.low.size(); ++i)
    if (j.low[i]) out.push_back(i);
  return out;
}

TEST(PeerOutlier, FlagsDcgm122sSlowA100AndOnlyIt) {
  // DCGM#122: an A100 at ~6.7 TFLOP/s among peers at ~19.
  PeerJudgement j = judge_peers({19.1, 18.9, 6.7, 19.3, 19.0, 18.8, 19.2, 19.0}, PeerRule{});
  ASSERT_TRUE(j.judged);
  EXPECT_DOUBLE_EQ(j.median, 19.0);
  EXPECT_NEAR(j.mad, 0.15, 1e-9);  // deviations 0 0 .1 .1 .2 .2 .3 12.3
  EXPECT_DOUBLE_EQ(j.floor, 0.95 * 19.0);
  EXPECT_EQ(low(j), std::vector<std::size_t>{2});
  EXPECT_NEAR(j.z[2], 0.6745 * (19.0 - 6.7) / 0.15, 1e-6);
}

TEST(PeerOutlier, BothConditionsMustHold) {
  // Within 5% of the median: not an outlier, however small the spread (z is huge here).
  EXPECT_TRUE(low(judge_peers({19.0, 19.0, 19.1, 18.9, 18.5}, PeerRule{})).empty());
  // 29% below the median but the GPUs spread evenly: robust z 1.35, not above 3.5.
  PeerJudgement spread = judge_peers({10, 12, 14, 16, 18}, PeerRule{});
  EXPECT_TRUE(low(spread).empty());
  EXPECT_NEAR(spread.z[0], 0.6745 * 4 / 2, 1e-9);
  // MAD 0 (every other GPU equal): the relative condition alone.
  EXPECT_EQ(low(judge_peers({19, 19, 19, 15}, PeerRule{})), std::vector<std::size_t>{3});
  EXPECT_TRUE(low(judge_peers({19, 19, 19, 18.5}, PeerRule{})).empty());
}

TEST(PeerOutlier, FewerThanMinPeersIsNoVerdict) {
  EXPECT_FALSE(judge_peers({6.7}, PeerRule{}).judged);
  EXPECT_FALSE(judge_peers({10, 20}, PeerRule{}).judged);  // a median of two is no norm
  EXPECT_FALSE(judge_peers({}, PeerRule{}).judged);
  PeerRule four;
  four.min_peers = 4;
  EXPECT_FALSE(judge_peers({19, 19, 6.7}, four).judged);
  EXPECT_TRUE(judge_peers({19, 19, 19, 6.7}, four).judged);
}

TEST(PeerOutlier, LowerIsBetterLooksAboveTheMedian) {
  // Fleet merge's times: the slow node is the one above its peers.
  PeerJudgement j = judge_peers({10.0, 10.1, 9.9, 10.0, 14.0}, PeerRule{}, /*higher_is_better=*/false);
  ASSERT_TRUE(j.judged);
  EXPECT_EQ(low(j), std::vector<std::size_t>{4});
  EXPECT_DOUBLE_EQ(j.floor, 1.05 * 10.0);
  EXPECT_NEAR(j.worse_by[4], 0.4, 1e-9);
  EXPECT_GT(j.z[4], 3.5);
  EXPECT_LT(j.z[2], 0);  // faster than the median: the good side
  // The same values read as higher-is-better: nothing is low (14 is the best).
  EXPECT_TRUE(low(judge_peers({10.0, 10.1, 9.9, 10.0, 14.0}, PeerRule{})).empty());
}

TEST(PeerOutlier, MedianAndMad) {
  EXPECT_EQ(median_of({}), 0);
  EXPECT_EQ(median_of({3, 1, 2}), 2);
  EXPECT_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(mad_of({1, 2, 3, 4, 100}, 3), 1);
}

}  // namespace
}  // namespace gpucheck
