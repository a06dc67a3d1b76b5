// Our references against LibTorch on the CPU: tensor op, matmul, Adam (L2) and AdamW (decoupled), the
// offload semantics, cross-entropy loss and gradient — and the Adam check must tell the two weight-decay
// styles apart.
#include <gtest/gtest.h>

#include "torch_linkage/torch_crosscheck.h"

using namespace gpucheck::kernels;

TEST(TorchCrosscheck, EverythingAgreesOnCpu) {
  for (auto& [name, reports] : torchcheck::run_all(false)) {
    EXPECT_TRUE(all_ok(reports)) << name << ": " << summarize(reports);
    EXPECT_FALSE(reports.empty()) << name;
  }
}

TEST(TorchCrosscheck, WeightDecayStyleMismatchIsDetected) {
  auto [name, reports] = torchcheck::check_adam(false, false, 3, 0.1f, /*swap_reference=*/true);
  EXPECT_FALSE(all_ok(reports)) << "torch Adam (L2) passed against the decoupled reference";
  auto [name2, reports2] = torchcheck::check_adam(true, false, 3, 0.1f, /*swap_reference=*/true);
  EXPECT_FALSE(all_ok(reports2)) << "torch AdamW passed against the L2 reference";
}

TEST(TorchCrosscheck, ReportsTheLoadedLibtorch) {
  auto info = torchcheck::torch_info();
  EXPECT_FALSE(info.version.empty());
  ASSERT_FALSE(info.loaded.empty());
  bool has_torch = false;
  for (auto& l : info.loaded) has_torch |= l.find("libtorch") != std::string::npos;
  EXPECT_TRUE(has_torch);
}
