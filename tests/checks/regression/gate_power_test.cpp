// The gate's operating characteristics at its defaults (threshold 5%, alpha 0.01, 9 repetitions each),
// measured on seeded synthetic repetitions: how often a real 10% slowdown is caught (power) and how often
// pure noise fails a build (false alarms). docs/regression.md quotes the figures this test prints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "checks/regression/gate.h"

namespace gpucheck::regression {
namespace {

constexpr int kTrials = 1000;
constexpr int kRepetitions = 9;

// Normal deviates by Box-Muller from mt19937_64, whose output the standard fixes (std::normal_distribution
// is implementation-defined): the same seed gives the same trials on every compiler.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return (static_cast<double>(rng_() >> 11) + 0.5) / 9007199254740992.0; }
  double normal() {
    double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }
  // Repetitions of a benchmark whose true time is `mean` with coefficient of variation `cv`. Lognormal,
  // as benchmark times are: positive, with a longer slow tail.
  std::vector<double> times(double mean, double cv, int n) {
    const double sigma = std::sqrt(std::log(1 + cv * cv));
    std::vector<double> out;
    for (int i = 0; i < n; ++i) out.push_back(mean * std::exp(sigma * normal() - sigma * sigma / 2));
    return out;
  }

 private:
  std::mt19937_64 rng_;
};

// Fraction of trials the default gate calls a regression, NEW's true time = (1 + shift) * BASE's.
double regression_rate(double shift, double cv, std::uint64_t seed) {
  Noise noise(seed);
  int hits = 0;
  for (int t = 0; t < kTrials; ++t) {
    auto base = noise.times(1000.0, cv, kRepetitions);
    auto current = noise.times(1000.0 * (1 + shift), cv, kRepetitions);
    hits += compare_samples(base, current, GateOptions{}).verdict == Verdict::kRegression;
  }
  return static_cast<double>(hits) / kTrials;
}

TEST(GatePower, TenPercentSlowdownIsCaughtAtNineRepetitions) {
  for (double cv : {0.01, 0.02, 0.03}) {
    double power = regression_rate(0.10, cv, 20261201);
    std::printf("power: 10%% shift, CV %.0f%%, %d vs %d repetitions: %.1f%% of %d trials\n", 100 * cv,
                kRepetitions, kRepetitions, 100 * power, kTrials);
    RecordProperty("power_cv" + std::to_string(static_cast<int>(100 * cv)), std::to_string(power));
    EXPECT_GE(power, 0.95) << "CV " << cv;
  }
}

TEST(GatePower, PureNoiseRarelyFails) {
  for (double cv : {0.01, 0.02, 0.03}) {
    double alarms = regression_rate(0.0, cv, 42);
    std::printf("false alarms: no shift, CV %.0f%%: %.1f%% of %d trials\n", 100 * cv, 100 * alarms, kTrials);
    RecordProperty("false_alarms_cv" + std::to_string(static_cast<int>(100 * cv)), std::to_string(alarms));
    EXPECT_LE(alarms, 0.01) << "CV " << cv;
  }
}

TEST(GatePower, AShiftBelowTheThresholdNeverFails) {
  // 3% slower with 1% noise is significant, but under the 5% threshold: not a regression.
  Noise noise(7);
  for (int t = 0; t < 200; ++t) {
    auto c = compare_samples(noise.times(1000, 0.01, 9), noise.times(1030, 0.01, 9), GateOptions{});
    EXPECT_NE(c.verdict, Verdict::kRegression) << c.reason;
  }
}

TEST(Gate, DeterministicAndOrderFree) {
  Noise noise(99);
  auto base = noise.times(1000, 0.02, 9), current = noise.times(1120, 0.02, 9);
  auto first = compare_samples(base, current, GateOptions{});
  EXPECT_EQ(first.verdict, Verdict::kRegression) << first.reason;
  for (int k = 0; k < 20; ++k) {
    std::shuffle(base.begin(), base.end(), std::mt19937_64(k));
    std::shuffle(current.begin(), current.end(), std::mt19937_64(k + 100));
    auto again = compare_samples(base, current, GateOptions{});
    EXPECT_EQ(again.verdict, first.verdict);
    EXPECT_EQ(again.test.p, first.test.p);
    EXPECT_EQ(again.change, first.change);
  }
}

TEST(Gate, VerdictsAndTheirReasons) {
  std::vector<double> base = {100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9};
  std::vector<double> slower, faster, same;
  for (double b : base) slower.push_back(b * 1.2), faster.push_back(b * 0.8), same.push_back(b + 0.05);
  EXPECT_EQ(compare_samples(base, slower, {}).verdict, Verdict::kRegression);
  EXPECT_EQ(compare_samples(base, faster, {}).verdict, Verdict::kImprovement);
  EXPECT_EQ(compare_samples(base, same, {}).verdict, Verdict::kUnchanged);
  EXPECT_NEAR(compare_samples(base, slower, {}).change, 0.2, 1e-12);
  // 3 vs 3 can reach p = 0.1 at best: never significant at 0.01, said so instead of "unchanged".
  auto few = compare_samples({1, 1.01, 0.99}, {2, 2.01, 1.99}, {});
  EXPECT_EQ(few.verdict, Verdict::kUndecidable);
  EXPECT_NE(few.reason.find("smallest possible p 0.1"), std::string::npos) << few.reason;
  // A 20% slowdown with a looser threshold (25%) passes; with alpha 1e-6 it cannot be significant.
  EXPECT_EQ(compare_samples(base, slower, {0.25, 0.01}).verdict, Verdict::kUnchanged);
  EXPECT_EQ(compare_samples(base, slower, {0.05, 1e-6}).verdict, Verdict::kUndecidable);
  EXPECT_THROW(compare_samples({}, base, {}), std::invalid_argument);
  EXPECT_DOUBLE_EQ(median({3, 1, 2, 4}), 2.5);
}

}  // namespace
}  // namespace gpucheck::regression
