// The seed's first failure, reproduced for real: in a fresh venv without torch, `pip install bmtrain==0.2.2`
// stops while pip prepares metadata, because bmtrain 0.2.2's setup.py starts with `import torch`. Then the
// doctor, given that same environment, predicts it. Needs PyPI; skips when the registry is unreachable.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>

#include "support/doctor_run.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

const std::string kFixture = std::string(GPUCHECK_TEST_DATA) + "/logs/bmtrain-0.2.2-no-torch.log";

bool offline(const std::string& log) {
  for (const char* s : {"Failed to establish a new connection", "Temporary failure in name resolution",
                        "Network is unreachable", "No matching distribution found for bmtrain", "Connection refused",
                        "Read timed out"})
    if (log.find(s) != std::string::npos) return true;
  return false;
}

/// The lines that make this failure this failure, in the order pip prints them.
void expect_seed_failure(const std::string& log) {
  EXPECT_NE(log.find("Collecting bmtrain==0.2.2"), std::string::npos);
  EXPECT_NE(log.find("bmtrain-0.2.2.tar.gz"), std::string::npos);
  // Metadata generation: "Getting requirements to build wheel" (PEP 517, pip >= 23.1 without setuptools in
  // the venv) or "Preparing metadata (setup.py)" / "egg_info" (the seed's older pip).
  bool metadata = log.find("Getting requirements to build wheel") != std::string::npos ||
                  log.find("Preparing metadata") != std::string::npos || log.find("egg_info") != std::string::npos;
  EXPECT_TRUE(metadata) << log;
  EXPECT_NE(log.find("ModuleNotFoundError: No module named 'torch'"), std::string::npos);
  EXPECT_NE(log.find("error: subprocess-exited-with-error"), std::string::npos);
}

}  // namespace

TEST(BmtrainRepro, FixtureIsTheRecordedSeedFailure) { expect_seed_failure(read_file(kFixture)); }

TEST(BmtrainRepro, PipInstallInAFreshVenvFailsAtMetadataWithNoTorch) {
  std::string python = find_in_path("python3");
  if (python.empty()) GTEST_SKIP() << "python3 not on PATH";
  fs::path dir = fs::temp_directory_path() / ("gpucheck_bmtrain_repro_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(180);
  auto venv = run_subprocess({python, "-m", "venv", (dir / "venv").string()}, o);
  ASSERT_TRUE(venv.ok()) << "python3 -m venv: " << venv.describe() << venv.err;
  std::string vpy = (dir / "venv/bin/python").string();

  o.set_env = {{"PIP_DISABLE_PIP_VERSION_CHECK", "1"}, {"PIP_NO_INPUT", "1"}};
  auto has_torch = run_subprocess({vpy, "-c", "import torch"}, o);
  ASSERT_FALSE(has_torch.ok()) << "the fresh venv must not see a torch";

  auto pip = run_subprocess({vpy, "-m", "pip", "install", "--no-cache-dir", "--timeout", "30", "bmtrain==0.2.2"}, o);
  std::string log = pip.out + pip.err;
  write_file_atomic((dir / "pip.log").string(), log);
  if (offline(log)) GTEST_SKIP() << "PyPI unreachable: " << last_lines(log, 3);
  ASSERT_TRUE(pip.exited) << pip.describe();
  EXPECT_NE(pip.exit_code, 0) << log;
  expect_seed_failure(log);

  // The doctor, given this very environment (Python without torch), predicts the failure before pip runs.
  auto version = run_subprocess({vpy, "-c", "import platform; print(platform.python_version())"}, o);
  ASSERT_TRUE(version.ok());
  inventory::Inventory inv;
  inventory::PythonEnv env;
  env.interpreter = vpy;
  env.version = trim(version.out);
  env.prefix = (dir / "venv").string();
  inv.pythons.push_back(env);
  auto kb = knowledge::KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  auto rep = gpucheck::testing::run_doctor(inv, kb, std::string("bmtrain==0.2.2"));
  ASSERT_TRUE(gpucheck::testing::install_plan(rep));
  const auto own = gpucheck::testing::plan_findings(rep);
  // (plan.conflict comes first here: this inventory has no toolkit, so no plan can build 0.2.2.)
  auto iso = std::find_if(own.begin(), own.end(), [](const Finding& f) { return f.id == "install.setup_imports_torch"; });
  ASSERT_NE(iso, own.end());
  EXPECT_EQ(iso->status, Status::kFail);
  fs::remove_all(dir);
}
