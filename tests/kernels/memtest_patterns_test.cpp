// device.memory's patterns on host buffers, with the functions the GPU kernels run: every pattern verifies
// clean; a planted bit flip is found with its address and bit; an address-line fault (two addresses
// aliased) is caught by address-in-address although walking ones cannot see it; the level plans.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "memtest/memtest_host.h"

using namespace gpucheck::kernels;

namespace {
constexpr std::uint64_t kBase = 0x7f3a00000000ULL;  // a device-like address: the value depends on it
constexpr std::size_t kWords = 8192;

std::vector<PatternSpec> every_kind() {
  return {{MemPattern::kWalkingOnes, 0, 0}, {MemPattern::kWalkingOnes, 5, 0}, {MemPattern::kWalkingZeros, 3, 0},
          {MemPattern::kAddressInAddress, 0, 0}, {MemPattern::kAddressInAddress, 1, 0}, {MemPattern::kXorshift, 0, 42},
          {MemPattern::kXorshift, 0, 0}};
}
}  // namespace

TEST(MemtestPatterns, EveryPatternVerifiesCleanAfterFill) {
  std::vector<std::uint64_t> mem(kWords);
  for (const auto& p : every_kind()) {
    fill_host(p, mem.data(), mem.size(), kBase);
    auto r = verify_host(p, mem.data(), mem.size(), kBase, 16);
    EXPECT_EQ(r.bad_words, 0u) << describe(p);
    EXPECT_TRUE(r.first.empty());
  }
}

TEST(MemtestPatterns, PlantedBitFlipIsFoundWithItsAddressAndBit) {
  std::vector<std::uint64_t> mem(kWords);
  for (const auto& p : every_kind()) {
    fill_host(p, mem.data(), mem.size(), kBase);
    mem[1234] ^= 1ULL << 17;
    auto r = verify_host(p, mem.data(), mem.size(), kBase, 16);
    ASSERT_EQ(r.bad_words, 1u) << describe(p);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].address, kBase + 1234 * 8) << describe(p);
    EXPECT_EQ(r.first[0].expected ^ r.first[0].got, 1ULL << 17);
    EXPECT_EQ(r.first[0].expected, pattern_word(p, 1234, kBase + 1234 * 8));
  }
}

TEST(MemtestPatterns, CountIsExactBeyondTheWordsKept) {
  std::vector<std::uint64_t> mem(kWords);
  PatternSpec p{MemPattern::kXorshift, 0, 7};
  fill_host(p, mem.data(), mem.size(), kBase);
  for (std::size_t i = 0; i < 100; ++i) mem[i * 50] = ~mem[i * 50];
  auto r = verify_host(p, mem.data(), mem.size(), kBase, 4);
  EXPECT_EQ(r.bad_words, 100u);
  ASSERT_EQ(r.first.size(), 4u);
  EXPECT_EQ(r.first[3].address, kBase + 150 * 8);
}

TEST(MemtestPatterns, AddressInAddressCatchesAnAddressLineFaultWalkingOnesCannot) {
  // Address bit 6 of the word index stuck at 1: a write to word i lands on i | 64, so the words with that
  // bit clear hold what was written to their alias. Walking ones repeat every 64 words: blind to it.
  std::vector<std::uint64_t> mem(kWords);
  auto alias = [&](const PatternSpec& p) {
    fill_host(p, mem.data(), mem.size(), kBase);
    for (std::size_t i = 0; i < kWords; ++i)
      if (i & 64) mem[i & ~std::size_t(64)] = mem[i];
    return verify_host(p, mem.data(), mem.size(), kBase, 1).bad_words;
  };
  EXPECT_EQ(alias({MemPattern::kWalkingOnes, 0, 0}), 0u);
  EXPECT_EQ(alias({MemPattern::kAddressInAddress, 0, 0}), kWords / 2);
  EXPECT_EQ(alias({MemPattern::kXorshift, 0, 1}), kWords / 2);
}

TEST(MemtestPatterns, WalkingPatternsCoverEveryBitAndAreComplements) {
  std::set<int> ones;
  for (std::uint64_t i = 0; i < 64; ++i) {
    std::uint64_t w = pattern_word({MemPattern::kWalkingOnes, 9, 0}, i, 0);
    ASSERT_EQ(__builtin_popcountll(w), 1);
    ones.insert(__builtin_ctzll(w));
    EXPECT_EQ(pattern_word({MemPattern::kWalkingZeros, 9, 0}, i, 0), ~w);
  }
  EXPECT_EQ(ones.size(), 64u);
}

TEST(MemtestPatterns, XorshiftDependsOnSeedAndIndex) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t i = 0; i < 100000; ++i) seen.insert(pattern_word({MemPattern::kXorshift, 0, 3}, i, 0));
  EXPECT_EQ(seen.size(), 100000u);  // no repeats: a stuck or aliased word cannot look right by chance
  EXPECT_NE(pattern_word({MemPattern::kXorshift, 0, 3}, 5, 0), pattern_word({MemPattern::kXorshift, 0, 4}, 5, 0));
  EXPECT_EQ(xorshift64star(0), 0u);  // the fixed point the index offset avoids
  EXPECT_NE(pattern_word({MemPattern::kXorshift, 0, 0x9E3779B97F4A7C15ULL}, 0, 0), 0u);
}

TEST(MemtestPatterns, LongWidensTheStandardPlan) {
  auto count = [](const std::vector<PatternSpec>& plan, MemPattern k) {
    std::size_t n = 0;
    for (auto& p : plan) n += p.kind == k;
    return n;
  };
  auto quick = memtest_plan("quick"), standard = memtest_plan("standard"), lng = memtest_plan("long");
  EXPECT_EQ(quick.size(), 4u);
  EXPECT_EQ(count(standard, MemPattern::kWalkingOnes), 4u);
  EXPECT_EQ(count(standard, MemPattern::kAddressInAddress), 2u);
  EXPECT_EQ(count(lng, MemPattern::kWalkingOnes), 64u);  // every bit position of the walking patterns
  EXPECT_EQ(count(lng, MemPattern::kWalkingZeros), 64u);
  EXPECT_EQ(count(lng, MemPattern::kXorshift), 8u);
  EXPECT_EQ(describe(lng.back()), "xorshift seed 0x000000005eed0007");
}
