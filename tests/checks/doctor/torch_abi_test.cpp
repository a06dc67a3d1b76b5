// The C++11 string ABI of PyTorch's wheels, from data/compat/torch.json, for reports that do not print it.
#include <gtest/gtest.h>

#include "checks/doctor/torch_abi.h"

using gpucheck::doctor::wheel_torch_uses_cxx11_abi;

namespace {
const gpucheck::knowledge::KnowledgeBase& kb() {
  static gpucheck::knowledge::KnowledgeBase k =
      gpucheck::knowledge::KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  return k;
}
}  // namespace

TEST(TorchAbi, EachWheelBuildAsTheTableRecordsIt) {
  EXPECT_EQ(wheel_torch_uses_cxx11_abi(kb(), "2.4.1"), false);        // PyPI's, every 2.4 build alike
  EXPECT_EQ(wheel_torch_uses_cxx11_abi(kb(), "2.6.0+cu124"), false);  // 2.6: the old ABI but its cu126 build
  EXPECT_EQ(wheel_torch_uses_cxx11_abi(kb(), "2.6.0+cu126"), true);
  EXPECT_EQ(wheel_torch_uses_cxx11_abi(kb(), "2.6.0"), false);        // PyPI's 2.6 is its CUDA 12.4 build
  EXPECT_EQ(wheel_torch_uses_cxx11_abi(kb(), "2.8.0+cu128"), true);
  EXPECT_EQ(wheel_torch_uses_cxx11_abi(kb(), "1.4.0"), false);        // before the table: all old
}

TEST(TorchAbi, NoWheelOfPyTorchsHasNoAnswer) {
  EXPECT_FALSE(wheel_torch_uses_cxx11_abi(kb(), "2.1.0a0+41361538.nv23.06"));  // NVIDIA's build
  EXPECT_FALSE(wheel_torch_uses_cxx11_abi(kb(), "2.10.0.dev20251024+cu130"));  // a nightly
  EXPECT_FALSE(wheel_torch_uses_cxx11_abi(kb(), "2.6.0+cpu"));                 // 2.6's builds differ
  EXPECT_FALSE(wheel_torch_uses_cxx11_abi(kb(), "not a version"));
}
