// Which toolkit an extension build would use, and the variable that chose it, kept as facts: a collector's
// choice naming a missing directory is reported with CUDA_HOME and its value, not a name parsed out of prose.
#include <gtest/gtest.h>

#include "checks/doctor/doctor_context.h"
#include "support/doctor_run.h"

using namespace gpucheck;
using namespace gpucheck::knowledge;
using namespace gpucheck::doctor;

namespace {

const KnowledgeBase& kb() {
  static KnowledgeBase k = KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  return k;
}

// One installed 12.1 toolkit; CUDA_HOME names a directory that holds none, as the collector recorded it.
inventory::Inventory dangling_cuda_home() {
  inventory::Inventory inv;
  inventory::Toolkit tk;
  tk.root = "/usr/local/cuda-12.1";
  tk.version = "12.1.105";
  tk.nvcc = tk.root + "/bin/nvcc";
  inv.toolkits.push_back(tk);
  inv.system.environment["CUDA_HOME"] = "/opt/cuda-11.7";
  inv.toolkit_choices.push_back({"torch_cpp_extension", "/opt/cuda-11.7", "", "CUDA_HOME=/opt/cuda-11.7 (does not exist)"});
  return inv;
}

}  // namespace

TEST(BuildToolkit, TheCollectorsChoiceKeepsTheVariableAndItsValueApart) {
  auto inv = dangling_cuda_home();
  DoctorContext ctx(inv, kb());
  EXPECT_EQ(ctx.build.via, "inventory");
  EXPECT_EQ(ctx.build.variable, "CUDA_HOME");
  EXPECT_EQ(ctx.build.value, "/opt/cuda-11.7");
  EXPECT_TRUE(ctx.build.dangling);
  EXPECT_EQ(ctx.build.dangling_path, "/opt/cuda-11.7");
  EXPECT_EQ(ctx.build.toolkit, nullptr);
}

TEST(BuildToolkit, ADanglingCudaHomeFromTheCollectorIsNamedAndUnset) {
  auto rep = gpucheck::testing::run_doctor(dangling_cuda_home(), kb());
  const Finding* f = nullptr;
  for (const auto& x : gpucheck::testing::doctor_findings(rep))
    if (x.id == "cuda.home_dangling") f = &x;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->status, Status::kFail);
  EXPECT_EQ(f->title, "CUDA_HOME=/opt/cuda-11.7 names no CUDA toolkit");
  EXPECT_EQ(f->evidence.at("CUDA_HOME"), "/opt/cuda-11.7");
  ASSERT_FALSE(f->fixes.empty());
  EXPECT_EQ(f->fixes.back().commands, std::vector<std::string>{"unset CUDA_HOME"});
  EXPECT_EQ(model::exit_code(rep), 1);
}

TEST(BuildToolkit, WithoutAChoiceInTheInventoryTheVariableDecides) {
  auto inv = dangling_cuda_home();
  inv.toolkit_choices.clear();
  DoctorContext ctx(inv, kb());
  EXPECT_EQ(ctx.build.via, "CUDA_HOME");
  EXPECT_EQ(ctx.build.variable, "CUDA_HOME");
  EXPECT_EQ(ctx.build.reason, "CUDA_HOME=/opt/cuda-11.7");
  EXPECT_TRUE(ctx.build.dangling);
}
