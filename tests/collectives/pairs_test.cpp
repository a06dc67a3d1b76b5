// Planning of the pairwise bisection and the verdict it draws.
#include <gtest/gtest.h>

#include <set>

#include "collectives/pairs.h"
#include "core/errors.h"

using namespace gpucheck::collectives;

TEST(Pairs, AllPairsAndNeighbourRing) {
  EXPECT_EQ(plan_pairs(5, PairsMode::kAll).size(), 10u);
  EXPECT_EQ(plan_pairs(2, PairsMode::kAll).size(), 1u);
  auto ring = plan_pairs(5, PairsMode::kNeighbour);
  ASSERT_EQ(ring.size(), 5u);
  std::vector<int> degree(5, 0);
  for (auto& p : ring) {
    EXPECT_LT(p.a, p.b);
    ++degree[static_cast<std::size_t>(p.a)];
    ++degree[static_cast<std::size_t>(p.b)];
  }
  for (int d : degree) EXPECT_EQ(d, 2);  // every node in exactly two pairs
  EXPECT_EQ(plan_pairs(2, PairsMode::kNeighbour).size(), 1u);
  EXPECT_THROW(plan_pairs(1, PairsMode::kAll), gpucheck::InputError);
  EXPECT_THROW(plan_pairs(4, PairsMode::kOff), gpucheck::InputError);
}

TEST(Pairs, RoundsAreNodeDisjointAndCoverEveryPairOnce) {
  for (int n : {2, 3, 4, 7, 16}) {
    for (auto mode : {PairsMode::kAll, PairsMode::kNeighbour}) {
      auto pairs = plan_pairs(n, mode);
      auto rounds = schedule_rounds(pairs);
      std::size_t covered = 0;
      for (auto& round : rounds) {
        std::set<int> used;
        for (auto& p : round) {
          EXPECT_TRUE(used.insert(p.a).second);
          EXPECT_TRUE(used.insert(p.b).second);
        }
        covered += round.size();
      }
      EXPECT_EQ(covered, pairs.size());
      if (mode == PairsMode::kNeighbour) {
        EXPECT_LE(rounds.size(), 3u) << n;  // a ring needs 2 or 3 rounds
      }
    }
  }
}

TEST(Pairs, NodesInOrderOfFirstAppearance) {
  std::vector<std::string> names;
  auto idx = assign_nodes({"n2", "n2", "n1", "n1", "n3", "n2"}, &names);
  EXPECT_EQ(idx, (std::vector<int>{0, 0, 1, 1, 2, 0}));
  EXPECT_EQ(names, (std::vector<std::string>{"n2", "n1", "n3"}));
}

namespace {
std::vector<PairOutcome> simulate(int nodes, PairsMode mode, int bad_node, bool slow) {
  std::vector<PairOutcome> out;
  for (auto& p : plan_pairs(nodes, mode)) {
    PairOutcome o;
    o.pair = p;
    o.busbw = 100;
    if (p.a == bad_node || p.b == bad_node) {
      if (slow) o.busbw = 40;
      else o.wrong = 12;
    }
    out.push_back(o);
  }
  classify_pairs(out);
  return out;
}
}  // namespace

TEST(Pairs, FindsTheBadNode) {
  for (auto mode : {PairsMode::kAll, PairsMode::kNeighbour})
    for (bool slow : {false, true}) {
      auto out = simulate(6, mode, 3, slow);
      EXPECT_EQ(suspect_nodes(out, 6), (std::vector<int>{3})) << "slow=" << slow;
    }
  auto healthy = simulate(6, PairsMode::kAll, -1, false);
  EXPECT_TRUE(suspect_nodes(healthy, 6).empty());
  for (auto& o : healthy) EXPECT_FALSE(o.bad);
  // two nodes cannot be told apart: both are suspects
  auto two = simulate(2, PairsMode::kAll, 1, false);
  EXPECT_EQ(suspect_nodes(two, 2), (std::vector<int>{0, 1}));
}

TEST(Pairs, WrongDataOutranksASlowPair) {
  // ring of 4, node 2 corrupts (pairs 1-2 and 2-3 wrong), pair 0-3 merely slow on a busy machine
  std::vector<PairOutcome> out;
  for (auto& p : plan_pairs(4, PairsMode::kNeighbour)) {
    PairOutcome o;
    o.pair = p;
    o.busbw = 100;
    if (p.a == 2 || p.b == 2) o.wrong = 5;
    if (p.a == 0 && p.b == 3) o.busbw = 30;
    out.push_back(o);
  }
  classify_pairs(out);
  EXPECT_EQ(suspect_nodes(out, 4), (std::vector<int>{2}));
}

TEST(Pairs, ErrorsMakeAPairBad) {
  std::vector<PairOutcome> out(1);
  out[0].pair = {0, 1};
  out[0].error = "timeout: all_reduce";
  classify_pairs(out);
  EXPECT_TRUE(out[0].bad);
  EXPECT_EQ(out[0].reason, "timeout: all_reduce");
}
