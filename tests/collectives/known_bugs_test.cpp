// Known NCCL bugs recognised from the pattern of wrong cases: the real collectives.nccl finding of the
// first GPU run (an H200 with torch 2.11's NCCL 2.28.9, where one-rank all_reduce avg left the last 3
// elements unwritten: NVIDIA/nccl#1950) is matched against the shipped catalogue, and nothing else is.
#include <gtest/gtest.h>

#include <fstream>

#include "collectives/known_bugs.h"

using namespace gpucheck::collectives;

namespace {

nlohmann::json load(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return nlohmann::json::parse(in);
}

const nlohmann::json& catalog() {
  static const nlohmann::json c = load(std::string(GPUCHECK_SOURCE_DIR) + "/data/collectives/known_bugs.json");
  return c;
}

const nlohmann::json& h200() {
  static const nlohmann::json f = load(std::string(GPUCHECK_SOURCE_DIR) + "/tests/collectives/data/h200-nccl-2.28.9-quick.json");
  return f;
}

}  // namespace

TEST(KnownNcclBugs, TheH200RunOnNccl2289IsTheOneRankAvgTailBug) {
  const auto& rows = h200()["details"]["rows"];
  ASSERT_EQ(h200()["status"], "fail");
  auto bug = match_known_bug(catalog(), rows, 1, "2.28.9");
  ASSERT_TRUE(bug);
  EXPECT_EQ(bug->id, "nccl-one-rank-avg-tail");
  EXPECT_EQ(bug->fixed_in, "2.29.7");
  ASSERT_FALSE(bug->sources.empty());
  EXPECT_EQ(bug->sources.front(), "https://github.com/NVIDIA/nccl/issues/1950");
}

TEST(KnownNcclBugs, NotNamedForAFixedNcclOrAnotherPattern) {
  const auto& rows = h200()["details"]["rows"];
  EXPECT_FALSE(match_known_bug(catalog(), rows, 1, "2.29.7"));  // the fixed release: wrong data is something else
  EXPECT_FALSE(match_known_bug(catalog(), rows, 2, "2.28.9"));  // two ranks: not the one-rank kernel
  EXPECT_FALSE(match_known_bug(catalog(), rows, 1, "unknown"));
  // One more wrong case that does not fit (a sum): the bug does not explain the run, so it is not named.
  nlohmann::json mixed = rows;
  for (auto& r : mixed)
    if (r["redop"] == "sum" && r["op"] == "all_reduce") {
      r["wrong"] = 1;
      break;
    }
  EXPECT_FALSE(match_known_bug(catalog(), mixed, 1, "2.28.9"));
  // No wrong case at all: nothing to explain.
  nlohmann::json clean = rows;
  for (auto& r : clean) r["wrong"] = 0;
  EXPECT_FALSE(match_known_bug(catalog(), clean, 1, "2.28.9"));
}

TEST(KnownNcclBugs, VersionsCompareNumerically) {
  EXPECT_TRUE(nccl_version_below("2.28.9", "2.29.7"));
  EXPECT_TRUE(nccl_version_below("2.9.9", "2.29.7"));  // not as text
  EXPECT_FALSE(nccl_version_below("2.29.7", "2.29.7"));
  EXPECT_FALSE(nccl_version_below("2.30.1", "2.29.7"));
  EXPECT_FALSE(nccl_version_below("", "2.29.7"));
  EXPECT_FALSE(nccl_version_below("2.x.1", "2.29.7"));
}
