// Verdicts on real venvs from PyPI (issue 31), checked by executing: a healthy torch 2.1.2+cu121 venv on a
// machine whose nvcc is CUDA 13 exits 0 from `doctor` (the build risk is a warning), and errors only when the
// goal is a source build (`--for bmtrain==0.2.2`); numpy 2, a triton and a torchaudio pinned to another torch
// each exit 1 with the broken finding as the next step, and its fix 1 pasted as printed leaves a venv that
// imports and passes doctor; bmtrain installed without torch fails in doctor and in its probe.
// GPUCHECK_TEST_REPRO=1. The torch venv (about 2.5 GB) is kept in $GPUCHECK_TEST_VENV_DIR (default
// ~/.cache/gpucheck/test-venvs)/torch212-numpy126 and copied with hard links before anything is changed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "support/venv.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

bool repro_enabled() {
  const char* v = std::getenv("GPUCHECK_TEST_REPRO");
  return v && std::string(v) == "1";
}

SubprocessOptions clean_env(int minutes) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(minutes);
  o.working_dir = "/";
  o.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD", "TORCH_USE_RTLD_GLOBAL", "VIRTUAL_ENV", "CONDA_PREFIX",
                 "CUDA_HOME", "CUDA_PATH", "PIP_REQUIRE_VIRTUALENV"};
  o.set_env = {{"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"}, {"PIP_DISABLE_PIP_VERSION_CHECK", "1"}, {"COLUMNS", "250"}};
  return o;
}

const fs::path kTorchVenv = fs::path(gpucheck::testing::kept_venv_root()) / "torch212-numpy126";

std::string build_torch_venv() {
  const std::string py = (kTorchVenv / "bin/python").string();
  return gpucheck::testing::keep_venv(kTorchVenv, {{py, "-m", "pip", "install", "-q", "torch==2.1.2", "numpy==1.26.4"}},
                                      clean_env(45), "torch 2.1.2, numpy 1.26.4 (healthy)");
}

/// A hard-link copy of the kept venv (pip unlinks before writing: the original never changes).
struct Copy {
  fs::path base;
  std::string python;
  explicit Copy(const std::string& tag) {
    base = fs::temp_directory_path() / ("gpucheck_verdict_" + tag + "_" + std::to_string(::getpid()));
    fs::remove_all(base);
    fs::create_directories(base);
    auto r = run_subprocess({"cp", "-al", kTorchVenv.string(), (base / "venv").string()}, clean_env(5));
    if (!r.ok()) throw std::runtime_error("cp -al: " + r.err);
    python = (base / "venv/bin/python").string();
  }
  ~Copy() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
};

struct Doctor {
  int exit_code = -1;
  nlohmann::json doc;
  std::string text;
};

Doctor doctor(const std::string& python, std::vector<std::string> more = {}) {
  std::vector<std::string> args = {kBin, "doctor", "--python", python};
  args.insert(args.end(), more.begin(), more.end());
  Doctor d;
  auto t = run_subprocess(args, clean_env(5));
  EXPECT_TRUE(t.exited) << t.describe() << t.err;
  d.text = t.out;
  args.push_back("--json");
  auto j = run_subprocess(args, clean_env(5));
  d.exit_code = j.exit_code;
  EXPECT_EQ(t.exit_code, j.exit_code);
  d.doc = nlohmann::json::parse(j.out);
  return d;
}

const nlohmann::json* finding(const nlohmann::json& doc, const std::string& id) {
  for (const auto& s : doc.at("sections"))
    for (const auto& f : s.at("findings"))
      if (f.at("id") == id) return &f;
  return nullptr;
}

std::string next_step(const std::string& text) {
  for (const auto& line : split(text, '\n'))
    if (starts_with(line, "Next step:")) return line;
  return "";
}

SubprocessResult paste(const nlohmann::json& fix) {
  std::string text;
  for (const auto& c : fix.at("commands")) text += c.get<std::string>() + "\n";
  return run_subprocess({"/bin/sh", "-c", text}, clean_env(20));
}

SubprocessResult pip(const std::string& python, std::vector<std::string> args) {
  args.insert(args.begin(), {python, "-m", "pip", "install", "-q"});
  return run_subprocess(args, clean_env(20));
}

// The CUDA major of the nvcc an extension build would use here ("13"), from `nvcc --version`; "" if none.
std::string nvcc_major() {
  auto r = run_subprocess({"/usr/local/cuda/bin/nvcc", "--version"}, clean_env(1));
  auto p = r.ok() ? r.out.find("release ") : std::string::npos;
  return p == std::string::npos ? "" : r.out.substr(p + 8, r.out.find('.', p) - p - 8);
}

// Breaks a copy with `install`, then: exit 1, the next step is [id], fix 1 of [id] pasted, exit 0 and `check` runs.
void broken_then_fixed(const std::string& tag, const std::vector<std::string>& install, const std::string& id,
                       const std::string& check) {
  if (!repro_enabled()) GTEST_SKIP() << "set GPUCHECK_TEST_REPRO=1 (downloads about 2.5 GB from PyPI once)";
  if (auto why = build_torch_venv(); !why.empty()) GTEST_SKIP() << "could not build the venv: " << why;
  Copy v(tag);
  auto broke = pip(v.python, install);
  ASSERT_TRUE(broke.ok()) << broke.err;
  Doctor before = doctor(v.python);
  EXPECT_EQ(before.exit_code, 1) << before.text;
  EXPECT_NE(next_step(before.text).find("[" + id + "]"), std::string::npos) << before.text;
  const nlohmann::json* f = finding(before.doc, id);
  ASSERT_NE(f, nullptr) << before.text;
  EXPECT_EQ((*f)["concern"], "broken_now");
  ASSERT_FALSE((*f)["fixes"].empty()) << f->dump(1);
  const auto& fix = (*f)["fixes"][0];
  for (const auto& c : fix["commands"]) EXPECT_EQ(c.get<std::string>().find("--dry-run"), std::string::npos) << c;
  auto ran = paste(fix);
  ASSERT_TRUE(ran.ok()) << fix.dump(1) << ran.out << ran.err;
  Doctor after = doctor(v.python);
  EXPECT_EQ(after.exit_code, 0) << after.text;
  EXPECT_EQ(finding(after.doc, id), nullptr) << after.text;
  auto works = run_subprocess({v.python, "-c", check}, clean_env(5));
  EXPECT_TRUE(works.ok()) << works.out << works.err;
}

}  // namespace

TEST(VerdictRepro, HealthyCuda12TorchUnderNvcc13ExitsZeroAndErrorsOnlyForASourceBuild) {
  if (!repro_enabled()) GTEST_SKIP() << "set GPUCHECK_TEST_REPRO=1 (downloads about 2.5 GB from PyPI once)";
  if (nvcc_major().empty() || nvcc_major() == "12") GTEST_SKIP() << "needs a system nvcc whose CUDA major is not 12";
  if (auto why = build_torch_venv(); !why.empty()) GTEST_SKIP() << "could not build the venv: " << why;
  const std::string py = (kTorchVenv / "bin/python").string();
  Doctor d = doctor(py);
  EXPECT_EQ(d.exit_code, 0) << d.text;
  const nlohmann::json* m = finding(d.doc, "cuda.nvcc_torch_major_mismatch");
  ASSERT_NE(m, nullptr) << d.text;
  EXPECT_EQ((*m)["status"], "warn");
  EXPECT_EQ((*m)["concern"], "at_risk");
  EXPECT_NE((*m)["summary"].get<std::string>().find("Matters only when an extension is compiled"), std::string::npos);
  EXPECT_EQ(d.doc["summary"]["verdict"], "PASS");
  // The goal is a build against this torch (bmtrain 0.2.2 compiles): now it stops that goal.
  Doctor build = doctor(py, {"--for", "bmtrain==0.2.2"});
  EXPECT_EQ(build.exit_code, 1) << build.text;
  const nlohmann::json* b = finding(build.doc, "cuda.nvcc_torch_major_mismatch");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ((*b)["status"], "fail");
}

TEST(VerdictRepro, Numpy2UnderANumpy1TorchIsTheNextStepAndItsFixWorks) {
  broken_then_fixed("numpy2", {"numpy==2.1.3"}, "python.numpy_abi",
                    "import torch, numpy; assert torch.from_numpy(numpy.ones(3)).sum().item() == 3");
}

TEST(VerdictRepro, TritonOtherThanTorchsPinGetsThePinnedTritonNotADryRun) {
  // torch 2.1.2 pins triton==2.1.0.
  broken_then_fixed("triton", {"--no-deps", "triton==2.2.0"}, "python.requirement_conflict",
                    "import importlib.metadata as m; assert m.version('triton') == '2.1.0'");
}

TEST(VerdictRepro, TorchaudioForAnotherTorchGetsTheOneMadeForThisTorch) {
  // torchaudio 2.2.0 requires torch==2.2.0; the one for torch 2.1.2 is 2.1.2.
  broken_then_fixed("torchaudio", {"--no-deps", "torchaudio==2.2.0"}, "python.requirement_conflict",
                    "import torch, torchaudio; assert torchaudio.__version__.startswith('2.1.2')");
}

TEST(VerdictRepro, InstalledWithoutTorchFailsInDoctorAndTheProbeAlike) {
  if (!repro_enabled()) GTEST_SKIP() << "set GPUCHECK_TEST_REPRO=1";
  auto v = gpucheck::testing::fresh_venv("verdict_bmtrain");
  auto r = pip(v.python, {"--no-deps", "bmtrain==0.2.3.post2"});  // a prebuilt wheel, a few MB
  if (!r.ok()) GTEST_SKIP() << "PyPI unreachable: " << r.err;
  Doctor d = doctor(v.python);
  EXPECT_EQ(d.exit_code, 1) << d.text;
  const nlohmann::json* f = finding(d.doc, "python.import_failed");
  ASSERT_NE(f, nullptr) << d.text;
  EXPECT_NE((*f)["title"].get<std::string>().find("import bmtrain"), std::string::npos);
  EXPECT_NE(next_step(d.text).find("[python.import_failed]"), std::string::npos) << d.text;
  // Not yet: `abi --python-package bmtrain` imports nothing, and bmtrain 0.2.3.post2 neither declares torch nor
  // links libc10 (its Python code imports torch), so abi still passes it (issue 31, item 4, open).
  // The probe (built with target probe_bmtrain_installed, CUDA kernels: not a dependency of this test).
  bool probe_built = false;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(GPUCHECK_STAGE_PROBES, ec))
    probe_built |= starts_with(e.path().filename().string(), "bmtrain");
  if (probe_built) {
    auto probe = run_subprocess({kBin, "run", "--only", "bmtrain.installed", "--python", v.python}, clean_env(5));
    EXPECT_EQ(probe.exit_code, 1) << probe.out << probe.err;
  } else {
    std::cout << "bmtrain.installed not built here (cmake --build build --target probe_bmtrain_installed): not run\n";
  }
  fs::remove_all(v.dir);
}
