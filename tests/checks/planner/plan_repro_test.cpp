// The planner's top plans followed literally in fresh venvs built from real PyPI packages (label `repro`:
// several GB of torch; ~/.cache/pip is reused). Each test reads the requirements as a user has them, asks the
// planner for this venv, runs plan 1's commands word for word in one shell, and imports what was asked.
// Skips when PyPI is unreachable. This machine has no GPU and no driver, and download.pytorch.org is not
// reachable: the plans that need either are checked against the knowledge base in resolver_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/venv.h"
#include "checks/planner/plan_commands.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "knowledge/pep440.h"
#include "planner_support.h"

using namespace gpucheck;
using namespace gpucheck::testing;
namespace fs = std::filesystem;

namespace {

bool offline(const std::string& log) {
  for (const char* s : {"Failed to establish a new connection", "Temporary failure in name resolution",
                        "Network is unreachable", "Read timed out"})
    if (log.find(s) != std::string::npos) return true;
  return false;
}

using gpucheck::testing::Venv;

std::string py(const Venv& v, const std::string& code) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(5);
  auto r = run_subprocess({v.python, "-c", code}, o);
  return r.ok() ? trim(r.out) : "ERROR: " + last_lines(r.out + r.err, 5);
}

/// The plan's commands, exactly as printed, in one POSIX shell that stops at the first failure.
SubprocessResult follow(const Venv& v, const planner::Plan& p) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(30);
  o.stdout_limit = 64u << 20;
  o.stderr_limit = 8u << 20;
  o.working_dir = v.dir.string();
  o.set_env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1";
  return run_subprocess({"/bin/sh", "-ec", join(p.commands, "\n")}, o);
}

/// This venv as the planner sees it: its interpreter, glibc, the toolkit at /usr/local/cuda, no GPU/driver.
planner::Machine venv_machine(const Venv& v) {
  planner::Machine m;
  m.python = v.python;
  m.python_version = py(v, "import platform; print(platform.python_version())");
  m.glibc = py(v, "import platform; print(platform.libc_ver()[1])");
  m.toolkit_known = true;
  return m;
}

}  // namespace

TEST(PlanRepro, SeedRequirementsTopPlanInstallsAndImports) {
  if (find_in_path("python3").empty()) GTEST_SKIP() << "python3 not on PATH";
  if (auto why = gpucheck::testing::room_for(std::filesystem::temp_directory_path(), gpucheck::testing::kTorchVenvRoom);
      !why.empty())
    GTEST_SKIP() << "a torch venv " << why;
  Venv v = gpucheck::testing::fresh_venv("plan_seed");
  std::ofstream(v.dir / "requirements.txt") << "torch<2.0.0,>=1.10\nbmtrain>=0.2.1\n";
  std::vector<std::string> notes;
  auto asks = planner::read_requirements_file((v.dir / "requirements.txt").string(), false, notes);
  planner::Machine m = venv_machine(v);
  auto r = planner::resolve(planner_kb(), m, asks);
  if (r.plans.empty()) GTEST_SKIP() << "no plan for Python " << m.python_version << ": " << join(r.conflicts[0].pins, "; ");
  const planner::Plan& top = r.plans.front();
  auto run = follow(v, top);
  std::string log = run.out + run.err;
  if (offline(log)) GTEST_SKIP() << "PyPI unreachable: " << last_lines(log, 3);
  ASSERT_TRUE(run.ok()) << join(top.commands, "\n") << "\n" << last_lines(log, 30);
  EXPECT_EQ(log.find("Building wheel for"), std::string::npos) << "plan 1 compiles nothing";
  // PyPI's torch 1.13.1 calls itself 1.13.1+cu117: the public version is the one the plan pinned.
  std::string torch = py(v, "import torch; print(torch.__version__)");
  auto tv = knowledge::pep440::Version::parse(torch);
  ASSERT_TRUE(tv) << torch;
  EXPECT_EQ(tv->public_str(), top.torch.version);
  EXPECT_TRUE(knowledge::pep440::SpecifierSet::parse("<2.0.0,>=1.10").contains(torch)) << torch;
  // bmtrain imports its CUDA kernels at import time: on this GPU-less machine importing the package is the
  // check that its extension modules load against this torch.
  std::string bmt = py(v, "import bmtrain, importlib.metadata as m; print(m.version('bmtrain'))");
  ASSERT_EQ(bmt, top.packages.at(0).version) << bmt;
  // The numpy pin of the plan: torch 1.13 cannot load numpy 2 ("Numpy is not available").
  EXPECT_EQ(py(v, "import torch, numpy; print(torch.from_numpy(numpy.zeros(2)).sum().item())"), "0.0");
  fs::remove_all(v.dir);
}

TEST(PlanRepro, TransformersWithATooOldTorchKeepsItAndImports) {
  if (find_in_path("python3").empty()) GTEST_SKIP() << "python3 not on PATH";
  if (auto why = gpucheck::testing::room_for(std::filesystem::temp_directory_path(), gpucheck::testing::kTorchVenvRoom);
      !why.empty())
    GTEST_SKIP() << "a torch venv " << why;
  Venv v = gpucheck::testing::fresh_venv("plan_transformers");
  // The too-old torch, as the user has it: PyPI's torch 2.1.2 (CUDA 12.1).
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(30);
  o.set_env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1";
  auto t = run_subprocess({v.python, "-m", "pip", "install", "torch==2.1.2", "numpy<2"}, o);
  if (offline(t.out + t.err)) GTEST_SKIP() << "PyPI unreachable";
  ASSERT_TRUE(t.ok()) << last_lines(t.out + t.err, 20);
  planner::Machine m = venv_machine(v);
  m.installed_torch = py(v, "import torch; print(torch.__version__)");
  m.installed_torch_cuda = py(v, "import torch; print(torch.version.cuda or '')");
  ASSERT_EQ(m.installed_torch, "2.1.2+cu121");  // PyPI's 2.1.2 names its CUDA build in __version__
  auto r = planner::resolve(planner_kb(), m, asks({"transformers"}));
  ASSERT_FALSE(r.plans.empty());
  const planner::Plan& top = r.plans.front();
  ASSERT_TRUE(top.torch.installed) << top.summary;
  auto run = follow(v, top);
  ASSERT_TRUE(run.ok()) << join(top.commands, "\n") << "\n" << last_lines(run.out + run.err, 30);
  EXPECT_EQ(py(v, "import torch; print(torch.__version__)"), "2.1.2+cu121") << "the plan must not move torch";
  EXPECT_EQ(py(v, "import transformers; print(transformers.__version__)"), top.packages.at(0).version);
  // transformers' torch side loads against this torch (the models import torch.nn and friends).
  EXPECT_EQ(py(v, "from transformers import BertConfig, BertModel; BertModel(BertConfig(num_hidden_layers=1, "
                  "hidden_size=32, num_attention_heads=2, intermediate_size=64)); print('ok')"),
            "ok");

  // --no-build-isolation in this venv (no `wheel`: torch 2.x does not pull it in) fails before compiling,
  // as the planner predicts: every plan with such a build installs wheel first.
  ASSERT_EQ(py(v, "import importlib.util; print(importlib.util.find_spec('wheel') is None)"), "True");
  SubprocessOptions b = o;
  b.timeout = std::chrono::minutes(10);
  // --no-cache-dir as the plans: pip's wheel cache may hold a 0.2.2 wheel built earlier against another torch.
  auto nbi = run_subprocess({v.python, "-m", "pip", "install", "--no-build-isolation", "--no-cache-dir", "bmtrain==0.2.2"}, b);
  EXPECT_FALSE(nbi.ok());
  EXPECT_NE((nbi.out + nbi.err).find("invalid command 'bdist_wheel'"), std::string::npos)
      << last_lines(nbi.out + nbi.err, 20);
  planner::Machine here = venv_machine(v);
  here.nvcc = "13.0";
  auto plan = planner::resolve(planner_kb(), here, asks({"bmtrain==0.2.2"}));
  ASSERT_FALSE(plan.plans.empty());
  EXPECT_FALSE(plan.plans[0].wheel_version.empty()) << plan.plans[0].summary;
  fs::remove_all(v.dir);
}
