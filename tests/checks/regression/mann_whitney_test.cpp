// The U statistic and its p-values against published tables and samples worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "checks/regression/mann_whitney.h"

namespace gpucheck::regression {
namespace {

// The critical value of a published table: the largest U with two-sided P(U <= u) <= alpha.
int critical_value(std::size_t n1, std::size_t n2, double alpha) {
  int best = -1;
  for (std::size_t u = 0; u <= n1 * n2 / 2; ++u)
    if (2 * exact_cdf(static_cast<double>(u), n1, n2) <= alpha + 1e-12) best = static_cast<int>(u);
  return best;
}

TEST(UDistribution, SmallCasesCountedByHand) {
  // n1 = n2 = 2: the 6 orders xxyy..yyxx give U = 0,1,2,2,3,4.
  EXPECT_EQ(u_counts(2, 2), (std::vector<double>{1, 1, 2, 1, 1}));
  // n1 = n2 = 3: partitions of U = 0..9 into at most 3 parts of at most 3 (20 arrangements), e.g.
  // U = 4: 3+1, 2+2, 2+1+1; U = 6: 3+3, 3+2+1, 2+2+2; U = 7: 3+3+1, 3+2+2.
  EXPECT_EQ(u_counts(3, 3), (std::vector<double>{1, 1, 2, 3, 3, 3, 3, 2, 1, 1}));
  auto c = u_counts(9, 9);
  EXPECT_EQ(std::accumulate(c.begin(), c.end(), 0.0), 48620.0);  // C(18, 9)
  EXPECT_EQ(u_counts(4, 7), u_counts(7, 4));
  EXPECT_DOUBLE_EQ(exact_cdf(0, 4, 4), 1.0 / 70);
  EXPECT_DOUBLE_EQ(exact_cdf(2, 4, 4), 4.0 / 70);  // U = 0, 1, 2, 2
}

// Critical values of the Mann-Whitney U table (two-tailed), as printed in statistics textbooks (e.g.
// Zar, Biostatistical Analysis, Table B.11; the same as the tables of Milton 1964 and Kanji's 100
// Statistical Tests): reject when U <= the value.
TEST(UDistribution, MatchesThePublishedCriticalValues) {
  const std::vector<std::pair<int, int>> alpha05 = {{5, 2},   {6, 5},   {7, 8},   {8, 13},  {9, 17}, {10, 23},
                                                    {11, 30}, {12, 37}, {13, 45}, {14, 55}, {15, 64}, {20, 127}};
  for (auto [n, u] : alpha05) EXPECT_EQ(critical_value(n, n, 0.05), u) << "n1 = n2 = " << n << ", alpha .05";
  const std::vector<std::pair<int, int>> alpha01 = {{5, 0},   {6, 2},   {7, 4},   {8, 7},   {9, 11},
                                                    {10, 16}, {11, 21}, {12, 27}, {15, 51}, {20, 105}};
  for (auto [n, u] : alpha01) EXPECT_EQ(critical_value(n, n, 0.01), u) << "n1 = n2 = " << n << ", alpha .01";
  // The n1 = 5 row, n2 = 5..20, alpha .05.
  const std::vector<int> row5 = {2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 17, 18, 19, 20};
  for (std::size_t n2 = 5; n2 <= 20; ++n2) EXPECT_EQ(critical_value(5, n2, 0.05), row5[n2 - 5]) << "n2 = " << n2;
  EXPECT_EQ(critical_value(4, 4, 0.01), -1) << "4 vs 4 can never be significant at .01";
}

TEST(UTest, ScipysDocumentedExample) {
  // scipy.stats.mannwhitneyu's documentation: males vs females, U1 = 17, exact p = 0.1111 (7 of 126
  // arrangements have U <= 3, doubled), asymptotic p = 0.11134688653314041.
  std::vector<double> males = {19, 22, 16, 29, 24}, females = {20, 11, 17, 12};
  UTest t = mann_whitney_u(males, females);
  EXPECT_EQ(t.u1, 17);
  EXPECT_EQ(t.u2, 3);
  EXPECT_TRUE(t.exact);
  EXPECT_NEAR(t.p, 14.0 / 126, 1e-15);
  EXPECT_NEAR(asymptotic_p_two_sided(17, 5, 4), 0.11134688653314041, 1e-12);
}

TEST(UTest, HandComputedSamples) {
  // Complete separation, 3 vs 3: U = 0, p = 2/20.
  UTest t = mann_whitney_u({1, 2, 3}, {4, 5, 6});
  EXPECT_EQ(t.u1, 0);
  EXPECT_DOUBLE_EQ(t.p, 0.1);
  // Swapping the samples swaps U1 and U2 and keeps p.
  UTest s = mann_whitney_u({4, 5, 6}, {1, 2, 3});
  EXPECT_EQ(s.u1, 9);
  EXPECT_DOUBLE_EQ(s.p, t.p);
  // Interleaved 1 3 5 | 2 4 6: x beats y in (3>2), (5>2), (5>4): U1 = 3; P(U <= 3) = 7/20, p = 0.7.
  UTest m = mann_whitney_u({1, 3, 5}, {2, 4, 6});
  EXPECT_EQ(m.u1, 3);
  EXPECT_DOUBLE_EQ(m.p, 0.7);
  // 9 vs 9 fully separated: the smallest p there is, 2 / C(18, 9).
  std::vector<double> a, b;
  for (int i = 0; i < 9; ++i) a.push_back(100 + i), b.push_back(200 + i);
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).p, 2.0 / 48620);
  EXPECT_DOUBLE_EQ(smallest_p(9, 9), 2.0 / 48620);
}

TEST(UTest, TiesUseMidranksAndTheCorrectedVariance) {
  // {1,2,2} vs {2,3,3}: midranks 1, 3, 3 | 3, 5.5, 5.5; R1 = 7, U1 = 7 - 6 = 1. Tie groups of 3 and 2:
  // sum(t^3 - t) = 24 + 6 = 30; sigma^2 = 9/12 * (7 - 30/30) = 4.5; z = (8 - 4.5 - 0.5)/sqrt(4.5).
  UTest t = mann_whitney_u({1, 2, 2}, {2, 3, 3});
  EXPECT_TRUE(t.ties);
  EXPECT_FALSE(t.exact);
  EXPECT_EQ(t.u1, 1);
  EXPECT_NEAR(t.z, 3.0 / std::sqrt(4.5), 1e-12);
  EXPECT_NEAR(t.p, std::erfc(3.0 / std::sqrt(4.5) / std::sqrt(2.0)), 1e-12);
  // A run compared with itself: every value tied across the samples, no evidence at all.
  std::vector<double> same = {5, 7, 6, 9, 8, 5.5, 6.5, 7.5, 8.5};
  UTest self = mann_whitney_u(same, same);
  EXPECT_EQ(self.u1, 40.5);
  EXPECT_EQ(self.p, 1.0);
  EXPECT_EQ(mann_whitney_u({3, 3, 3}, {3, 3}).p, 1.0);
}

TEST(UTest, EmptyAndLargeSamples) {
  EXPECT_EQ(mann_whitney_u({}, {1, 2}).p, 1.0);
  // 60 vs 60 (beyond the exact range): normal approximation, still separated.
  std::vector<double> a, b;
  for (int i = 0; i < 60; ++i) a.push_back(i), b.push_back(i + 0.5 + 30);
  UTest t = mann_whitney_u(a, b);
  EXPECT_FALSE(t.exact);
  EXPECT_LT(t.p, 1e-10);
}

}  // namespace
}  // namespace gpucheck::regression
