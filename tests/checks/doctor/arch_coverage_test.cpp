#include <gtest/gtest.h>

#include "checks/doctor/arch_coverage.h"

using namespace gpucheck::doctor;

TEST(ArchCoverage, SassRunsWithinItsMajorOnNewerMinors) {
  std::vector<std::string> cu118{"sm_37", "sm_50", "sm_60", "sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"};
  EXPECT_EQ(arch_coverage("8.9", cu118), Coverage::kSass);  // sm_86 SASS runs on 8.9
  EXPECT_EQ(arch_coverage("9.0", cu118), Coverage::kSass);
  EXPECT_EQ(arch_coverage("12.0", cu118), Coverage::kNone);  // RTX 5090 with a cu118 wheel
  EXPECT_EQ(arch_coverage("3.5", cu118), Coverage::kNone);
}

TEST(ArchCoverage, PtxCoversNewerArchitecturesAndArchSpecificTargetsOnlyTheirOwn) {
  EXPECT_EQ(arch_coverage("9.0", {"sm_80", "compute_80"}), Coverage::kPtxOnly);
  EXPECT_EQ(arch_coverage("12.0", {"7.5", "8.0+PTX"}), Coverage::kPtxOnly);
  EXPECT_EQ(arch_coverage("7.5", {"8.0+PTX"}), Coverage::kNone);
  EXPECT_EQ(arch_coverage("9.0", {"sm_90a"}), Coverage::kSass);
  EXPECT_EQ(arch_coverage("10.0", {"sm_90a"}), Coverage::kNone);
  EXPECT_EQ(arch_coverage("not a cc", {"sm_90"}), Coverage::kNone);
  EXPECT_EQ(arch_to_cc("sm_120"), "12.0");
  EXPECT_EQ(arch_to_cc("8.6+PTX"), "8.6");
  EXPECT_EQ(arch_to_cc("bogus"), "");
}
