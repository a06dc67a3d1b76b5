// The seed machine's answer, exactly: Ubuntu 22.04, Python 3.10, driver for CUDA 12.1, torch 2.0.1+cu118
// installed by hand, nvcc 12.1, `pip install bmtrain==0.2.2` (../shared/seeds/000_a98027b884d51af6.txt).
#include <gtest/gtest.h>

#include <sstream>

#include "inventory/model.h"
#include "render/render.h"
#include "support/doctor_run.h"

using namespace gpucheck;
using namespace gpucheck::knowledge;
using namespace gpucheck::doctor;
using namespace gpucheck::testing;

namespace {

const std::string kScenarios = std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/doctor/scenarios/";

model::Report seed_doctor(const std::string& scenario, const std::string& request) {
  static KnowledgeBase kb = KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  return run_doctor(inventory::load_inventory(kScenarios + scenario + ".json"), kb, request);
}

const Finding& find(const std::vector<Finding>& v, const std::string& id) {
  for (const auto& f : v)
    if (f.id == id) return f;
  throw std::runtime_error("no finding " + id);
}

std::string evidence(const Finding& f, const std::string& what) {
  for (const auto& e : f.evidence)
    if (e.what == what) return e.value;
  return "<missing>";
}

const std::string kMismatch =
    "The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.8). Please make "
    "sure to use the same CUDA versions.";


/// The plan's build paths: its fixes after the prebuilt wheel doctor offers first where one exists for this
/// Python (bmtrain 0.2.3.post2 instead of building 0.2.2, as explain ranks them; issue 31).
std::vector<Fix> build_paths(const Finding& plan) {
  std::vector<Fix> out;
  for (const auto& f : plan.fixes)
    if (f.summary.rfind("A prebuilt wheel instead of a build: ", 0) != 0) out.push_back(f);
  return out;
}

}  // namespace

TEST(Seed, SecondAttemptNamesTheMismatchBeforeAnythingIsCompiled) {
  auto rep = seed_doctor("seed2_torch_cu118_nvcc_121", "bmtrain==0.2.2");
  const Finding& m = find(doctor_findings(rep), "cuda.nvcc_torch_major_mismatch");
  EXPECT_EQ(m.status, Status::kFail);
  EXPECT_EQ(evidence(m, "torch.version.cuda"), "11.8");
  EXPECT_EQ(evidence(m, "nvcc"), "12.1.105");
  EXPECT_EQ(evidence(m, "toolkit chosen by torch.utils.cpp_extension"), "/usr/local/cuda-12.1");
  EXPECT_NE(m.explanation.find(kMismatch), std::string::npos) << m.explanation;
  // No 11.8 toolkit here: install one side by side first (keeps torch), then the torch matching 12.1.
  ASSERT_EQ(m.fixes.size(), 2u);
  EXPECT_EQ(m.fixes[0].commands.front(), "conda install -y -c nvidia/label/cuda-11.8.0 cuda-toolkit");
  // The planner's torch for nvcc 12.1 (the same explain names): PyPI's newest CUDA 12.1 build, with this
  // environment's own interpreter.
  EXPECT_EQ(m.fixes[1].commands, std::vector<std::string>{"/root/anaconda3/envs/CPM-Bee/bin/python -m pip install torch==2.4.1"});
  EXPECT_EQ(model::exit_code(rep), 1);
}

TEST(Seed, SecondAttemptInstallPathsAreRankedWithExactCommands) {
  auto rep = seed_doctor("seed2_torch_cu118_nvcc_121", "bmtrain==0.2.2");
  const Finding* plan = install_plan(rep);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan_verdict(*plan), PlanVerdict::kInstallsByPath);
  // The one toolkit the plan judged: 12.1 at /usr/local/cuda-12.1 with nvcc, via PATH and the symlink.
  const auto& toolkits = rep.inventory.at("toolkits");
  ASSERT_EQ(toolkits.size(), 1u);
  EXPECT_EQ(major_minor(toolkits[0]["version"].get<std::string>()), "12.1");
  EXPECT_EQ(toolkits[0]["root"], "/usr/local/cuda-12.1");
  EXPECT_EQ(toolkits[0]["nvcc"], "/usr/local/cuda-12.1/bin/nvcc");
  EXPECT_EQ(toolkits[0]["found_via"], (std::vector<std::string>{"PATH", "/usr/local/cuda symlink"}));
  const std::vector<Finding> own = plan_findings(rep);
  const Finding& iso = find(own, "install.setup_imports_torch");
  EXPECT_NE(iso.explanation.find("No module named 'torch'"), std::string::npos);
  EXPECT_NE(iso.explanation.find("--no-build-isolation"), std::string::npos);
  const Finding& mm = find(own, "install.nvcc_torch_major_mismatch");
  EXPECT_EQ(mm.status, Status::kFail);
  EXPECT_NE(mm.explanation.find(kMismatch), std::string::npos);

  // bmtrain==0.2.2 is honoured exactly (the 0.2.3.post2 wheel is planned for `bmtrain>=0.2.1`): no 11.8
  // toolkit here, so every plan replaces torch with a CUDA 12.1 build and builds against it, wheel first.
  EXPECT_EQ(plan->fixes.front().summary.rfind("A prebuilt wheel instead of a build: bmtrain 0.2.3.post2", 0), 0u)
      << plan->fixes.front().summary;
  const std::vector<Fix> paths = build_paths(*plan);
  ASSERT_EQ(paths.size(), 3u);
  const std::string bin = "/root/anaconda3/envs/CPM-Bee/bin", py = bin + "/python";
  EXPECT_EQ(paths[0].commands,
            (std::vector<std::string>{py + " -m pip install torch==2.4.1", py + " -m pip install wheel==0.48.0 ninja==1.13.2 torch==2.4.1",
                                      "export TORCH_CUDA_ARCH_LIST=8.0", "export CUDA_HOME=/usr/local/cuda-12.1",
                                      "export PATH=" + bin + ":\"$PATH\"",
                                      py + " -m pip install --no-build-isolation --no-cache-dir bmtrain==0.2.2 torch==2.4.1",
                                      "export TORCH_USE_RTLD_GLOBAL=1"}));
  EXPECT_NE(paths[0].cost.find("replaces torch 2.0.1+cu118"), std::string::npos) << paths[0].cost;
  // bmtrain 0.2.2's nccl/_C links no libnccl, which torch >= 2.0 loads RTLD_LOCAL (BMTrain #102, on torch 2.0.1).
  EXPECT_NE(paths[0].cost.find("bmtrain imports only with TORCH_USE_RTLD_GLOBAL=1 set"), std::string::npos) << paths[0].cost;
  EXPECT_EQ(find(own, "install.import_needs_rtld_global").status, Status::kWarn);
  // torch 2.3.1 predates numpy 2.0.0: its plan pins numpy below 2.
  EXPECT_EQ(paths[1].commands.front(), py + " -m pip install torch==2.3.1 numpy==1.26.4");
  EXPECT_EQ(paths[1].commands.at(paths[1].commands.size() - 2), py + " -m pip install --no-build-isolation --no-cache-dir bmtrain==0.2.2 torch==2.3.1");
}

TEST(Seed, WithAnInstalled118ToolkitThePathPointsCudaHomeAtIt) {
  auto rep = seed_doctor("seed2_with_118_side_by_side", "bmtrain==0.2.2");
  const Finding& m = find(doctor_findings(rep), "cuda.nvcc_torch_major_mismatch");
  EXPECT_EQ(m.fixes[0].summary, "Build with the CUDA 11.8 toolkit at /usr/local/cuda-11.8");
  ASSERT_TRUE(install_plan(rep));
  EXPECT_EQ(rep.inventory.at("toolkits").size(), 2u);
  // Plan 1 keeps torch 2.0.1+cu118 and builds with the 11.8 toolkit installed beside 12.1.
  const std::string bin = "/root/anaconda3/envs/CPM-Bee/bin", py = bin + "/python";
  EXPECT_EQ(build_paths(*install_plan(rep))[0].commands,
            (std::vector<std::string>{py + " -m pip install torch==2.0.1 numpy==1.26.4",
                                      py + " -m pip install wheel==0.48.0 ninja==1.13.2 torch==2.0.1", "export TORCH_CUDA_ARCH_LIST=8.0",
                                      "export CUDA_HOME=/usr/local/cuda-11.8",
                                      "export PATH=" + bin + ":/usr/local/cuda-11.8/bin:\"$PATH\"",
                                      py + " -m pip install --no-build-isolation --no-cache-dir bmtrain==0.2.2 torch==2.0.1",
                                      "export TORCH_USE_RTLD_GLOBAL=1"}));
}

TEST(Seed, FirstAttemptWithoutTorchPredictsTheMetadataFailure) {
  auto rep = seed_doctor("seed1_no_torch", "bmtrain==0.2.2");
  ASSERT_TRUE(install_plan(rep));
  const std::vector<Finding> own = plan_findings(rep);
  const Finding& iso = find(own, "install.setup_imports_torch");
  EXPECT_EQ(iso.status, Status::kFail);
  EXPECT_EQ(evidence(iso, "torch"), "not installed");
  // Torch first (the build matching the 12.1 toolkit found here), wheel, then the build without isolation.
  const std::string bin = "/root/anaconda3/envs/CPM-Bee/bin", py = bin + "/python";
  EXPECT_EQ(build_paths(*install_plan(rep))[0].commands,
            (std::vector<std::string>{py + " -m pip install torch==2.4.1", py + " -m pip install wheel==0.48.0 ninja==1.13.2 torch==2.4.1",
                                      "export TORCH_CUDA_ARCH_LIST=8.0", "export CUDA_HOME=/usr/local/cuda-12.1",
                                      "export PATH=" + bin + ":\"$PATH\"",
                                      py + " -m pip install --no-build-isolation --no-cache-dir bmtrain==0.2.2 torch==2.4.1",
                                      "export TORCH_USE_RTLD_GLOBAL=1"}));
  EXPECT_EQ(model::exit_code(rep), 1);
}

TEST(Seed, TheFixedMachineIsClean) {
  auto rep = seed_doctor("seed_fixed_cuda_home_118", "bmtrain==0.2.2");
  EXPECT_TRUE(doctor_findings(rep).empty());
  EXPECT_EQ(model::exit_code(rep), 0);
  const auto paths = build_paths(*install_plan(rep));
  EXPECT_TRUE(paths.front().summary.rfind("keep torch 2.0.1", 0) == 0) << paths.front().summary;
  const auto& cmds = paths.front().commands;
  ASSERT_GE(cmds.size(), 2u);
  EXPECT_EQ(cmds.at(cmds.size() - 2),
            "/root/anaconda3/envs/CPM-Bee/bin/python -m pip install --no-build-isolation --no-cache-dir bmtrain==0.2.2 torch==2.0.1");
  // What the seed's user met next: the build installs, `import bmtrain` stops at ncclBroadcast (torch 2.0.1).
  EXPECT_EQ(cmds.back(), "export TORCH_USE_RTLD_GLOBAL=1");
  EXPECT_EQ(find(plan_findings(rep), "install.import_needs_rtld_global").status, Status::kWarn);
}

TEST(Seed, TextRenderingShowsEvidenceAndCommands) {
  auto rep = seed_doctor("seed2_torch_cu118_nvcc_121", "bmtrain==0.2.2");
  rep.details["inventory_source"] = "--from seed.json";
  std::ostringstream out;
  render::RenderOptions wide;
  wide.width = 200;  // whole lines to match; tests/cli checks the wrapping at 80 and 60 columns
  render::render_text(rep, out, wide);
  std::string text = out.str();
  EXPECT_NE(text.find("ERROR Extension builds would use nvcc 12.1 but torch 2.0.1+cu118 was built with CUDA 11.8"),
            std::string::npos)
      << text;
  // The best path first with its commands (the prebuilt wheel: nothing compiled), the build as an alternative.
  EXPECT_NE(text.find("$ /root/anaconda3/envs/CPM-Bee/bin/python -m pip install bmtrain==0.2.3.post2 torch==2.0.1"),
            std::string::npos) << text;
  EXPECT_NE(text.find("2. torch 2.4.1 (CUDA 12.1) instead of 2.0.1, bmtrain 0.2.2 instead of 0.2.3.post2"), std::string::npos)
      << text;
  // The mismatch matters only for the build the wheel avoids: the step is the path, not a second toolkit.
  EXPECT_NE(text.find("Next step: run the commands of install path 1 above (it avoids [cuda.nvcc_torch_major_mismatch])"),
            std::string::npos) << text;
  EXPECT_NE(text.find("2 error(s), 2 warning(s)"), std::string::npos) << text;
  EXPECT_EQ(text.find("\033["), std::string::npos);  // no colour when not asked
}
