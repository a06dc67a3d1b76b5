// An environment stated in sentences (paste_prose.cpp), on real pastes from public threads
// (tests/data/pasted_env, each with its source) and on the statements it must not take.
#include <gtest/gtest.h>

#include "core/files.h"
#include "inventory/paste_formats.h"
#include "inventory/pasted_report.h"
#include "knowledge/gpu_models.h"

using namespace gpucheck::inventory;

namespace {
std::string paste(const std::string& rel) { return gpucheck::read_file(std::string(GPUCHECK_TEST_DATA) + "/" + rel); }
const std::string kCompat = std::string(GPUCHECK_SOURCE_DIR) + "/data/compat";
const std::vector<gpucheck::knowledge::GpuModel>& models() {
  static const auto table = gpucheck::knowledge::load_gpu_models(kCompat);
  return table;
}
}  // namespace

TEST(PasteProse, ReadsTorchAndAJudgedPackageInBackticksAndTheGpuOfASentence) {
  // flash-attention 827: "newly installed `torch` (2.2.0) and `flash-attn` (2.5.3) via `pip`, CUDA 11.8", "on an
  // Nvidia A100 GPU". The bare CUDA 11.8 is not taken: it may be the toolkit's.
  auto f = read_prose_statements(paste("pasted_env/Dao-AILab-flash-attention-827.txt"), models());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.2.0");
  EXPECT_EQ(f->packages.at("flash-attn"), "2.5.3");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "A100");
  EXPECT_FALSE(f->torch_cuda);
  EXPECT_EQ(f->packages.count("cuda"), 0u);
}

TEST(PasteProse, JoinsTorchsCudaTagWrittenAfterAPlus) {
  // ComfyUI 9929: "**Setup:** i7-8750H, GTX 1070, 16 GB RAM." and "**Versions:** PyTorch 2.8.0 + cu129".
  auto f = read_prose_statements(paste("pasted_env/Comfy-Org-ComfyUI-9929.txt"), models());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.8.0+cu129");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "GTX 1070");
}

TEST(PasteProse, ReadsPipsPinsButNotADriverWithoutItsDottedVersion) {
  // walk-these-ways 72: "I am using RTX 4090 / CUDA 11.3 / Nvidia driver 535 version / ... pip3 install
  // torch==1.10.0+cu113 torchvision==0.11.1+cu113 torchaudio==0.10.0+cu113".
  auto f = read_prose_statements(paste("pasted_env/Improbable-AI-walk-these-ways-72.txt"), models());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "1.10.0+cu113");
  EXPECT_EQ(f->packages.at("torchvision"), "0.11.1+cu113");
  EXPECT_EQ(f->packages.at("torchaudio"), "0.10.0+cu113");
  EXPECT_EQ(f->driver_version, "");  // "535" alone is a branch, not a version
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "RTX 4090");
}

TEST(PasteProse, APinOfCudaIsNoPackage) {
  // torch_scatter 462: "the version torch==2.4.0a0+07cecf4168,cuda==12.4".
  auto f = read_prose_statements(paste("pasted_env/rusty1s-pytorch_scatter-462.txt"), models(), true);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.4.0a0+07cecf4168");
  EXPECT_EQ(f->packages.count("cuda"), 0u);
  EXPECT_EQ(f->packages.at("torch-scatter"), "2.1.2");
}

TEST(PasteProse, ReadsPythonAndADottedDriver) {
  auto f = read_prose_statements("I run Python 3.10.12 with torch 2.1.0+cu121; the NVIDIA driver is 535.104.05.\n", models());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->python_version, "3.10.12");
  EXPECT_EQ(f->torch_version, "2.1.0+cu121");
  EXPECT_EQ(f->driver_version, "535.104.05");
}

TEST(PasteProse, TwoTorchVersionsStateNeither) {
  // A thread comparing the torch that worked with the one that fails: which one is installed is not stated.
  auto f = read_prose_statements("It worked with torch 2.1.0 but fails with torch 2.2.1 on my RTX 3090.\nPython 3.10\n",
                                 models());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "");
  EXPECT_EQ(f->packages.count("torch"), 0u);
  // The same release with and without its tag agree.
  auto same = read_prose_statements("torch 2.1.0, that is torch==2.1.0+cu118, on an RTX 3090 GPU\n", models());
  ASSERT_TRUE(same);
  EXPECT_EQ(same->torch_version, "2.1.0+cu118");
}

TEST(PasteProse, TakesNoGpuWithoutAWordOfOneNorTwoModelsThatDisagree) {
  // "T4" in a line that speaks of no GPU (a log's step name) is not one; two models in two lines are neither.
  auto t4 = read_prose_statements("step T4 done\ntorch 2.1.0+cu121 and Python 3.10\n", models());
  ASSERT_TRUE(t4);
  EXPECT_TRUE(t4->gpus.empty());
  auto two = read_prose_statements("runs on my RTX 3090 GPU\nfails on the RTX 4090 card\ntorch 2.1.0+cu121, Python 3.10\n", models());
  ASSERT_TRUE(two);
  EXPECT_TRUE(two->gpus.empty());
}

TEST(PasteProse, NamesInsideWordsPathsAndUrlsAreNotStatements) {
  // libtorch's version, the torch in a URL or a wheel file's name, torch.cuda: none is the installed torch.
  EXPECT_FALSE(read_prose_statements(
      "libtorch 2.1.0 from https://download.pytorch.org/whl/torch-2.1.0+cu121.html and torch.cuda 12.1\nPython 3.10\n",
      models()));
  // A pin pip could not install states nothing installed.
  EXPECT_FALSE(read_prose_statements(
      "pip install torch==1.10.0+cu113\nERROR: No matching distribution found for torch==1.10.0+cu113\nPython 3.12\n",
      models()));
}

TEST(PasteProse, ReadsTheCompiledPackagesUsersNameBesideTorch) {
  // torch_scatter 438: "I'm using torch 2.1.0.post303 and torch_scatter 2.1.2 with cuda 12.2."
  auto f = read_prose_statements(paste("pasted_env/rusty1s-pytorch_scatter-438.txt"), models());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.1.0.post303");
  EXPECT_EQ(f->packages.at("torch-scatter"), "2.1.2");
  EXPECT_EQ(f->packages.count("cuda"), 0u);
}

TEST(PasteProse, OneFactAloneIsNoReport) {
  EXPECT_FALSE(read_prose_statements("With torch 2.1.2+cu121 and exllamav2 0.0.15+cu121.\n", models()));
  // Beside another report's format, torch's version alone adds to it.
  EXPECT_TRUE(read_prose_statements("With torch 2.1.2+cu121 and exllamav2 0.0.15+cu121.\n", models(), true));
  // A traceback with no version is no report at all.
  EXPECT_FALSE(read_prose_statements(paste("pasted_env/xiangning-chen-DrNAS-4.txt"), models()));
}

TEST(PasteProse, ThePastedEnvironmentJudgesTheStatedFacts) {
  // The reader is the last resort of read_pasted_environment: its facts carry provenance "pasted" and name it.
  auto env = read_pasted_environment(paste("pasted_env/Comfy-Org-ComfyUI-9929.txt"), "9929.txt", kCompat, true);
  ASSERT_TRUE(env);
  ASSERT_EQ(env->formats.size(), 1u);
  EXPECT_EQ(env->formats[0], "an environment stated in sentences");
  ASSERT_EQ(env->inventory.gpus.size(), 1u);
  EXPECT_EQ(env->inventory.gpus[0].cc_major, 6);
  EXPECT_EQ(env->inventory.gpus[0].cc_minor, 1);
  ASSERT_FALSE(env->inventory.pythons.empty());
  EXPECT_EQ(env->inventory.pythons[0].torch_version, "2.8.0+cu129");
  EXPECT_EQ(env->inventory.pythons[0].torch_cuda, "12.9");
  // Without log statements (a live report's text), sentences are not read.
  EXPECT_FALSE(read_pasted_environment(paste("pasted_env/Comfy-Org-ComfyUI-9929.txt"), "9929.txt", kCompat, false));
}
