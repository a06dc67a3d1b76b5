// Pasted environment reports as inventories: real `collect_env` outputs from public issue threads (torch
// 1.1, 1.12, 2.1, 2.4, vLLM's sectioned format with 2.5) and one run on this machine (Debian's torch 1.13).
#include <gtest/gtest.h>

#include "core/files.h"
#include "inventory/collect_env_text.h"

using namespace gpucheck::inventory;

namespace {
Inventory parse(const std::string& name) {
  std::string path = std::string(GPUCHECK_TEST_DATA) + "/collect_env/" + name + ".txt";
  auto inv = inventory_from_collect_env(gpucheck::read_file(path), path);
  EXPECT_TRUE(inv.has_value()) << name;
  return inv ? *inv : Inventory{};
}
}  // namespace

TEST(CollectEnvText, Torch21FourA100sNvcc118) {
  auto inv = parse("vllm-3842-torch-2.1");
  EXPECT_EQ(inv.schema_version, "2");
  ASSERT_EQ(inv.pythons.size(), 1u);
  EXPECT_EQ(inv.pythons[0].version, "3.10.12");
  EXPECT_EQ(inv.pythons[0].torch_version, "2.1.2+cu121");
  EXPECT_EQ(inv.pythons[0].torch_cuda, "12.1");
  EXPECT_EQ(inv.pythons[0].cuda_available, true);
  ASSERT_EQ(inv.gpus.size(), 4u);
  EXPECT_EQ(inv.gpus[3].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(inv.gpus[3].index, 3);
  EXPECT_TRUE(inv.driver.present);
  EXPECT_EQ(inv.driver.version, "535.104.05");
  ASSERT_EQ(inv.toolkits.size(), 1u);
  EXPECT_EQ(inv.toolkits[0].version, "11.8.89");
  ASSERT_GE(inv.compilers.size(), 1u);
  EXPECT_EQ(inv.compilers[0].name, "gcc");
  EXPECT_EQ(inv.compilers[0].version, "11.4.0");
  EXPECT_EQ(inv.system.glibc, "2.35");
  EXPECT_EQ(inv.system.os_pretty, "Ubuntu 22.04.3 LTS (x86_64)");
  EXPECT_TRUE(inv.libraries.empty()) << "cuDNN: Could not collect";
}

TEST(CollectEnvText, Torch11OldSpellingsYesNoAndPipPackages) {
  auto inv = parse("torch-points3d-66-torch-1.1");
  EXPECT_EQ(inv.pythons[0].version, "3.6");
  EXPECT_EQ(inv.pythons[0].torch_version, "1.1.0");
  EXPECT_EQ(inv.pythons[0].torch_cuda, "9.0.176");
  EXPECT_EQ(inv.pythons[0].cuda_available, true);  // "Yes"
  EXPECT_EQ(inv.pythons[0].packages.at("torch-geometric"), "1.3.2");
  EXPECT_EQ(inv.pythons[0].packages.at("torchvision"), "0.2.0");
  ASSERT_EQ(inv.gpus.size(), 1u);
  EXPECT_EQ(inv.gpus[0].name, "GeForce RTX 2060");
  EXPECT_EQ(inv.driver.version, "418.67");
  EXPECT_EQ(inv.compilers[0].version, "8.3.0");
}

TEST(CollectEnvText, Torch112CudnnFromTheCandidates) {
  auto inv = parse("vllm-4066-torch-1.12");
  EXPECT_EQ(inv.pythons[0].torch_version, "1.12.1+cu113");
  ASSERT_EQ(inv.libraries.size(), 1u);
  EXPECT_EQ(inv.libraries[0].name, "cudnn");
  EXPECT_EQ(inv.libraries[0].version, "8.2.0");
  EXPECT_EQ(inv.libraries[0].path, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.2.0");
  EXPECT_EQ(inv.compilers[0].version, "7.5.0");
}

TEST(CollectEnvText, Torch24GpuListAfterAnEmptyValue) {
  auto inv = parse("vllm-10034-torch-2.4");
  ASSERT_EQ(inv.gpus.size(), 3u);
  EXPECT_EQ(inv.gpus[0].name, "NVIDIA A10");
  EXPECT_EQ(inv.toolkits.at(0).version, "12.5.82");
  EXPECT_EQ(inv.driver.version, "555.42.06");
}

TEST(CollectEnvText, VllmSectionedFormat) {
  auto inv = parse("vllm-21310-torch-2.5-sections");
  EXPECT_EQ(inv.pythons[0].torch_version, "2.5.1+cu124");
  EXPECT_EQ(inv.pythons[0].torch_cuda, "12.4");
  EXPECT_EQ(inv.pythons[0].version, "3.10.16");
  EXPECT_EQ(inv.compilers[0].version, "8.5.0");
  EXPECT_EQ(inv.system.glibc, "2.28");
}

TEST(CollectEnvText, ThisMachineDebianTorch113WithoutDriver) {
  auto inv = parse("local-debian-torch-1.13");
  EXPECT_EQ(inv.pythons[0].torch_version, "1.13.0a0");
  EXPECT_EQ(inv.pythons[0].torch_cuda, "") << "Could not collect";
  EXPECT_EQ(inv.pythons[0].cuda_available, false);
  EXPECT_FALSE(inv.driver.present);
  EXPECT_NE(inv.driver.error, "");
  EXPECT_EQ(inv.toolkits.at(0).version, "13.0.88");
  EXPECT_EQ(inv.libraries.at(0).version, "9");
  EXPECT_TRUE(inv.gpus.empty());
}

TEST(CollectEnvText, OtherTextIsNotAReport) {
  EXPECT_FALSE(looks_like_collect_env(gpucheck::read_file(std::string(GPUCHECK_TEST_DATA) + "/logs/vllm-1060.log")));
  EXPECT_FALSE(looks_like_collect_env("PyTorch version: 2.1.0\n"));  // one line is a mention, not a report
  EXPECT_FALSE(inventory_from_collect_env("", "x").has_value());
  EXPECT_FALSE(inventory_from_collect_env(std::string(100000, '\xff'), "x").has_value());
}
