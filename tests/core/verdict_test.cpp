// core/verdict.h: what a finding is about, the one next-step ranking, the goal that turns a build risk
// into an error, and cause-id aliases.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/verdict.h"

using namespace gpucheck;

namespace {

Finding finding(std::string id, Status s, bool root = false) {
  Finding f;
  f.id = std::move(id);
  f.status = s;
  if (root) f.details = {{"root", true}};
  return f;
}

}  // namespace

TEST(Verdict, ConcernFollowsTheRegistryThenTheFamilyThenTheStatus) {
  EXPECT_EQ(concern_of(finding("cuda.nvcc_torch_major_mismatch", Status::kWarn)), Concern::kAtRisk);
  EXPECT_EQ(concern_of(finding("cuda.nvcc_torch_major_mismatch", Status::kFail)), Concern::kAtRisk);
  EXPECT_EQ(concern_of(finding("install.setup_imports_torch", Status::kFail)), Concern::kAtRisk);
  EXPECT_EQ(concern_of(finding("python.requirement_missing", Status::kWarn)), Concern::kBrokenNow);
  EXPECT_EQ(concern_of(finding("python.numpy_abi", Status::kFail)), Concern::kBrokenNow);
  EXPECT_EQ(concern_of(finding("kernels.adam", Status::kFail)), Concern::kBrokenNow);  // a probe: by status
  EXPECT_EQ(concern_of(finding("bench.slow", Status::kWarn)), Concern::kAtRisk);
  EXPECT_EQ(concern_of(finding("gpu.none", Status::kInfo)), Concern::kNote);
  EXPECT_EQ(concern_of(finding("python.numpy_abi", Status::kPass)), Concern::kNote);
  EXPECT_STREQ(to_string(Concern::kBrokenNow), "broken_now");
}

TEST(Verdict, RankingPutsBrokenNowBeforeABuildRiskThatCameFirst) {
  // As doctor lists them (errors first): the build prediction, then what is broken now.
  Finding nvcc = finding("cuda.nvcc_torch_major_mismatch", Status::kFail);
  Finding missing = finding("python.requirement_missing", Status::kWarn);
  Finding imp = finding("python.import_failed", Status::kFail);
  Finding note = finding("gpu.none", Status::kInfo);
  auto ranked = rank_for_action({&nvcc, &note, &missing, &imp});
  ASSERT_EQ(ranked.size(), 3u);  // the note asks for nothing
  EXPECT_EQ(ranked[0], &imp);    // broken now, an error
  EXPECT_EQ(ranked[1], &missing);  // broken now, a warning
  EXPECT_EQ(ranked[2], &nvcc);   // at risk
  EXPECT_EQ(first_to_act_on({&note}), nullptr);
}

TEST(Verdict, RootCauseFirstWithinTheSameConcern) {
  Finding consequence = finding("ext.symbol_not_visible", Status::kFail);
  Finding root = finding("python.file_overwritten", Status::kFail, true);
  EXPECT_EQ(first_to_act_on({&consequence, &root}), &root);
}

TEST(Verdict, TheSourceBuildGoalMakesTheMismatchAnErrorAndNothingElse) {
  std::vector<Finding> fs = {finding("cuda.nvcc_torch_major_mismatch", Status::kWarn),
                             finding("python.requirement_missing", Status::kWarn),
                             finding("cuda.nvcc_torch_minor_mismatch", Status::kWarn)};
  fs[2].details = {{"fatal_for_build", true}};  // old setuptools: torch raises on a minor mismatch too
  auto used = fs;
  apply_goal(used, Goal::kUseInstalled);
  for (const auto& f : used) EXPECT_EQ(f.status, Status::kWarn) << f.id;
  apply_goal(fs, Goal::kSourceBuild);
  EXPECT_EQ(fs[0].status, Status::kFail);
  EXPECT_EQ(fs[1].status, Status::kWarn);
  EXPECT_EQ(fs[2].status, Status::kFail);
  EXPECT_EQ(fs[0].summary.find("This command's goal is a source build"), 0u);
}

TEST(Verdict, OldIdsAreAliasesOfOneCause) {
  EXPECT_EQ(canonical_cause_id("cuda-mismatch-nvcc-torch"), "cuda.nvcc_torch_major_mismatch");
  EXPECT_EQ(canonical_cause_id("numpy-abi-mismatch"), "python.numpy_abi");
  EXPECT_TRUE(same_cause("driver-too-old", "driver.too_old_for_torch"));
  EXPECT_FALSE(same_cause("driver-too-old", "driver.missing"));
  // doctor --for's planned build names the nvcc/torch mismatch install.*: the same cause, major and minor apart.
  EXPECT_TRUE(same_cause("install.nvcc_torch_major_mismatch", "cuda.nvcc_torch_major_mismatch"));
  EXPECT_TRUE(same_cause("install.nvcc_torch_minor_mismatch", "cuda.nvcc_torch_minor_mismatch"));
  EXPECT_FALSE(same_cause("install.nvcc_torch_major_mismatch", "cuda.nvcc_torch_minor_mismatch"));
  EXPECT_EQ(canonical_cause_id("something.new"), "something.new");
  auto all = cause_aliases("python.numpy_abi");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0], "python.numpy_abi");
  // An alias resolves in the ranking as its cause does.
  EXPECT_EQ(concern_of(finding("cuda-mismatch-nvcc-torch", Status::kFail)), Concern::kAtRisk);
}

// Every cause explain can name (data/signatures/*.json) has a row in the one registry, so its concern is
// the registry's and a report carries the registry's id beside an alias ("cause" in the JSON).
TEST(Verdict, EveryExplainCauseIsInTheRegistry) {
  int ids = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GPUCHECK_SOURCE_DIR) + "/data/signatures")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    auto doc = nlohmann::json::parse(in);
    for (const auto& s : doc.value("signatures", nlohmann::json::array())) {
      ++ids;
      EXPECT_TRUE(is_registered_cause(s.at("id").get<std::string>())) << s.at("id") << " in " << e.path();
    }
  }
  EXPECT_GT(ids, 50);
  nlohmann::json j = finding("cuda-mismatch-nvcc-torch", Status::kWarn);
  EXPECT_EQ(j["cause"], "cuda.nvcc_torch_major_mismatch");
  EXPECT_FALSE(nlohmann::json(finding("cuda.nvcc_torch_major_mismatch", Status::kWarn)).contains("cause"));
}
