// -r/--for pins bind every fix (issue 31): a fix whose commands install a version a pin excludes is left
// out, with the reason in the finding's evidence; one that fits, or names no version, is kept.
#include <gtest/gtest.h>

#include "checks/planner/pin_guard.h"
#include "checks/planner/requirements_file.h"

using namespace gpucheck;

namespace {

planner::Ask ask(const std::string& spec) { return {knowledge::pep440::Requirement::parse(spec), "requirements.txt:1", false}; }

Fix fix(const std::string& summary, std::vector<std::string> commands) { return {1, summary, std::move(commands), ""}; }

}  // namespace

TEST(PinGuard, AFixInstallingAVersionThePinExcludesIsLeftOut) {
  const std::vector<planner::Ask> asks = {ask("torch<2.0")};
  EXPECT_EQ(planner::pins_broken_by(fix("torch", {"'/v/bin/python' -m pip install 'torch==2.4.1' numpy==1.26.4"}), asks),
            std::vector<std::string>{"torch==2.4.1 (excluded by " + asks[0].label() + ")"});
  EXPECT_TRUE(planner::pins_broken_by(fix("old torch", {"python3 -m pip install torch==1.13.1"}), asks).empty());
  EXPECT_TRUE(planner::pins_broken_by(fix("no version", {"python3 -m pip install --upgrade torch"}), asks).empty());
  EXPECT_TRUE(planner::pins_broken_by(fix("other package", {"pip install 'numpy==2.1.3'"}), asks).empty());
  EXPECT_TRUE(planner::pins_broken_by(fix("advice", {}), asks).empty());

  Finding f;
  f.id = "cuda.nvcc_torch_major_mismatch";
  f.fixes = {fix("Install torch 2.4.1 for CUDA 12.4", {"python3 -m pip install 'torch==2.4.1'"}),
             fix("Point CUDA_HOME at CUDA 11.7", {"export CUDA_HOME=/usr/local/cuda-11.7"})};
  std::vector<Finding> all = {f};
  planner::bind_fixes_to_asks(all, asks);
  ASSERT_EQ(all[0].fixes.size(), 1u);
  EXPECT_EQ(all[0].fixes[0].summary, "Point CUDA_HOME at CUDA 11.7");
  EXPECT_EQ(all[0].fixes[0].rank, 1);
  ASSERT_FALSE(all[0].evidence.empty());
  EXPECT_NE(all[0].evidence.back().value.find("torch==2.4.1 (excluded by torch<2.0"), std::string::npos)
      << all[0].evidence.back().value;
}
