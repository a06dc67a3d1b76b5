// The install paths doctor recommends for bmtrain, tried for real on this GPU-less machine (label `repro`:
// torch from PyPI is several GB). Skips when PyPI is unreachable.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "support/venv.h"
#include "support/doctor_run.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

bool offline(const std::string& log) {
  for (const char* s : {"Failed to establish a new connection", "Temporary failure in name resolution",
                        "Network is unreachable", "No matching distribution found", "Read timed out"})
    if (log.find(s) != std::string::npos) return true;
  return false;
}

using gpucheck::testing::Venv;

using gpucheck::testing::fresh_venv;

SubprocessResult pip(const Venv& v, std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  args.insert(args.begin(), {v.python, "-m", "pip"});
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(15);
  o.stdout_limit = 64u << 20;
  o.stderr_limit = 4u << 20;
  o.set_env = env;
  o.set_env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1";
  return run_subprocess(args, o);
}

std::string py(const Venv& v, const std::string& code) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(5);  // importing a CUDA torch on a loaded machine takes minutes
  auto r = run_subprocess({v.python, "-c", code}, o);
  return r.ok() ? trim(r.out) : "";
}

}  // namespace

TEST(BmtrainInstallPaths, WheelPathInstallsWithNothingCompiledAndNoTorch) {
  if (find_in_path("python3").empty()) GTEST_SKIP() << "python3 not on PATH";
  Venv v = fresh_venv("bmtrain_wheel");
  auto r = pip(v, {"install", "bmtrain==0.2.3.post2"});
  std::string log = r.out + r.err;
  if (offline(log)) GTEST_SKIP() << "PyPI unreachable: " << last_lines(log, 3);
  std::string tag = py(v, "import sys; print(f'cp{sys.version_info[0]}{sys.version_info[1]}')");
  if (tag != "cp38" && tag != "cp39" && tag != "cp310" && tag != "cp311")
    GTEST_SKIP() << "no bmtrain 0.2.3.post2 wheel for " << tag << " (doctor recommends another Python there)";
  ASSERT_TRUE(r.ok()) << log;
  EXPECT_NE(log.find("bmtrain-0.2.3.post2-" + tag + "-" + tag + "-manylinux2014_x86_64.whl"), std::string::npos) << log;
  EXPECT_EQ(log.find("Building wheel for bmtrain"), std::string::npos) << "the wheel path must compile nothing";
  EXPECT_EQ(py(v, "import importlib.util; print(importlib.util.find_spec('torch') is None)"), "True");
  EXPECT_NE(py(v, "import glob, sysconfig; print(glob.glob(sysconfig.get_paths()['purelib'] + '/bmtrain/C.*.so'))"),
            "[]");
  fs::remove_all(v.dir);
}

TEST(BmtrainInstallPaths, NoBuildIsolationAfterTorchHitsExactlyWhatDoctorPredicts) {
  const std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (find_in_path("python3").empty() || !fs::exists(nvcc)) GTEST_SKIP() << "needs python3 and " << nvcc;
  auto nv = run_subprocess({nvcc, "--version"});
  std::smatch m;
  ASSERT_TRUE(std::regex_search(nv.out, m, std::regex("release [0-9.]+, V([0-9.]+)"))) << nv.out;
  const std::string nvcc_version = m[1];

  // The seed's order, `pip install torch` first, with a pinned torch whose CUDA major (12) differs from this
  // toolkit's (13) as the seed's 11.8 did from its 12.1: a copy of the kept torch 2.5.1 venv. An unpinned torch
  // downloaded afresh each run was 6 GB (CI's shared disk filled during it) and changed under the test.
  fs::path kept;
  if (auto why = gpucheck::testing::keep_torch251_cu124_venv(kept); !why.empty())
    GTEST_SKIP() << "could not build the torch venv: " << why;
  gpucheck::testing::ScratchVenv scratch;
  if (auto why = scratch.copy_of(kept, "bmtrain_nbi"); !why.empty()) FAIL() << why;
  const Venv v{scratch.dir.parent_path(), scratch.python};
  // A --no-build-isolation build prepares its metadata with this venv's own setuptools (65, Python 3.11's
  // venv), which needs the wheel package for bdist_wheel: doctor's plans install it first where it is missing.
  auto w = pip(v, {"install", "-q", "wheel==0.48.0"});
  if (offline(w.out + w.err)) GTEST_SKIP() << "PyPI unreachable";
  ASSERT_TRUE(w.ok()) << last_lines(w.out + w.err, 20);
  std::string torch_version = py(v, "import torch; print(torch.__version__)");
  std::string torch_cuda = py(v, "import torch; print(torch.version.cuda or '')");
  ASSERT_FALSE(torch_version.empty());

  // The inventory of this venv and toolkit, as `gpucheck env` would describe it.
  inventory::Inventory inv;
  inventory::Toolkit tk;
  tk.root = fs::canonical("/usr/local/cuda").string();
  tk.version = nvcc_version;
  tk.nvcc = tk.root + "/bin/nvcc";
  tk.is_usr_local_cuda = true;
  inv.toolkits.push_back(tk);
  inv.system.environment["CUDA_HOME"] = "/usr/local/cuda";
  inventory::PythonEnv env;
  env.interpreter = v.python;
  env.version = py(v, "import platform; print(platform.python_version())");
  env.torch_installed = true;
  env.torch_version = torch_version;
  env.torch_cuda = torch_cuda;
  inv.pythons.push_back(env);
  auto kb = knowledge::KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  auto rep = gpucheck::testing::run_doctor(inv, kb, std::string("bmtrain==0.2.2"));
  ASSERT_TRUE(gpucheck::testing::install_plan(rep));
  const auto own = gpucheck::testing::plan_findings(rep);
  bool predicted_arch_failure = false;
  for (const auto& f : own) predicted_arch_failure |= f.id == "install.arch_unbuildable";
  bool predicted_major_mismatch = false;
  for (const auto& f : own) predicted_major_mismatch |= f.id == "install.nvcc_torch_major_mismatch";

  // --no-cache-dir as doctor's plans: a 0.2.2 wheel built earlier on this machine against another torch sits
  // in pip's wheel cache (it did here, and pip installed it in place of this build).
  auto b = pip(v, {"install", "-v", "--no-build-isolation", "--no-cache-dir", "--no-deps", "bmtrain==0.2.2"},
               {{"CUDA_HOME", "/usr/local/cuda"}, {"MAX_JOBS", "2"}});
  std::string log = b.out + b.err;
  write_file_atomic((v.dir / "bmtrain-0.2.2-build.log").string(), log);
  EXPECT_EQ(log.find("No module named 'torch'"), std::string::npos) << "--no-build-isolation must let setup.py see torch";
  if (predicted_major_mismatch) {
    EXPECT_FALSE(b.ok());
    EXPECT_NE(log.find("mismatches the version that was used to compile"), std::string::npos) << last_lines(log, 30);
  } else if (predicted_arch_failure) {
    EXPECT_FALSE(b.ok());
    EXPECT_NE(log.find("nvcc fatal   : Unsupported gpu architecture 'compute_60'"), std::string::npos)
        << last_lines(log, 30);
  } else {
    EXPECT_TRUE(b.ok()) << last_lines(log, 30);
  }
}
