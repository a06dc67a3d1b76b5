// doctor on a venv built from real PyPI packages (about 2.5 GB: torch 2.1.2+cu121 and its nvidia wheels),
// broken the ways issue 13 found: numpy 2 under torch 2.1, torchvision 0.17.0 (requires torch==2.2.0)
// installed --no-deps, nvidia-nccl-cu11 over nvidia-nccl-cu12's libnccl.so.2, accelerate without its
// dependencies. Asserts doctor's exact findings and that its Requires-Dist verdicts are `pip check`'s.
// Runs only with GPUCHECK_TEST_REPRO=1. The venv is kept in $GPUCHECK_TEST_VENV_DIR (default
// ~/.cache/gpucheck/test-venvs) once complete, so a second run does not download again.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "core/text.h"
#include "support/venv.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

// Builds the venv once; "" on success, else why not (the test then skips: registry unreachable).
std::string build_venv(const fs::path& dir) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(30);
  const std::string py = (dir / "bin/python").string();
  return gpucheck::testing::keep_venv(
      dir,
      {{py, "-m", "pip", "install", "-q", "torch==2.1.2", "numpy==2.1.3"},
       {py, "-m", "pip", "install", "-q", "--no-deps", "torchvision==0.17.0", "nvidia-nccl-cu11==2.14.3",
        "accelerate==1.0.0"}},
      o, "torch 2.1.2, numpy 2.1.3, torchvision 0.17.0 --no-deps, nccl cu11 over cu12");
}

std::vector<nlohmann::json> findings_with(const nlohmann::json& doc, const std::string& id) {
  std::vector<nlohmann::json> out;
  for (const auto& s : doc.at("sections"))
    for (const auto& f : s.at("findings"))
      if (f.at("id") == id) out.push_back(f);
  return out;
}

nlohmann::json doctor(const std::string& python, const std::string& ld_library_path) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(5);
  o.set_env = {{"PATH", fs::path(python).parent_path().string() + ":/usr/bin:/bin"}};
  if (ld_library_path.empty()) o.unset_env = {"LD_LIBRARY_PATH"};
  else o.set_env["LD_LIBRARY_PATH"] = ld_library_path;
  auto r = run_subprocess({kBin, "doctor", "--python", python, "--json"}, o);
  EXPECT_TRUE(r.exited) << r.describe() << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;  // error findings
  return nlohmann::json::parse(r.out);
}

// PEP 503, for pip's printed names.
std::string norm(const std::string& name) {
  std::string out;
  for (char c : name) out += (c == '_' || c == '.') ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

TEST(DoctorEnvRepro, Torch21VenvWithNumpy2TwoNcclWheelsAndUnmetRequirements) {
  if (std::string(std::getenv("GPUCHECK_TEST_REPRO") ? std::getenv("GPUCHECK_TEST_REPRO") : "") != "1")
    GTEST_SKIP() << "set GPUCHECK_TEST_REPRO=1 (downloads about 2.5 GB from PyPI once)";
  const fs::path dir = fs::path(gpucheck::testing::kept_venv_root()) / "torch212-numpy2-nccl-cu11-over-cu12";
  if (auto why = build_venv(dir); !why.empty()) GTEST_SKIP() << "could not build the venv: " << why;
  const std::string py = (dir / "bin/python").string();

  for (const std::string llp : {"", "/usr/local/cuda/lib64"}) {
    SCOPED_TRACE("LD_LIBRARY_PATH=" + llp);
    auto doc = doctor(py, llp);
    const auto& judged = doc["details"]["python"];
    EXPECT_EQ(judged["interpreter"], py);
    EXPECT_EQ(judged["chosen_by"], "--python");
    EXPECT_EQ(judged["torch"], "2.1.2+cu121");

    auto numpy = findings_with(doc, "python.numpy_abi");
    ASSERT_EQ(numpy.size(), 1u);
    EXPECT_EQ(numpy[0]["title"], "torch 2.1.2+cu121 cannot use numpy 2.1.3: RuntimeError: Numpy is not available");

    auto conflict = findings_with(doc, "python.requirement_conflict");
    ASSERT_EQ(conflict.size(), 1u);
    EXPECT_EQ(conflict[0]["title"], "torchvision 0.17.0 has requirement torch==2.2.0, but you have torch 2.1.2");

    auto nccl = findings_with(doc, "python.file_overwritten");
    ASSERT_EQ(nccl.size(), 1u);
    EXPECT_EQ(nccl[0]["title"], "libnccl.so.2 of nvidia-nccl-cu12 was overwritten by nvidia-nccl-cu11");

    auto imp = findings_with(doc, "python.import_failed");
    ASSERT_EQ(imp.size(), 1u);
    EXPECT_EQ(imp[0]["title"], "import torchvision fails in " + py);

    // torch 2.1 needs libcudnn.so.8 and libcublas.so.12; the system's .so.9 / .so.13 are other libraries.
    EXPECT_TRUE(findings_with(doc, "libs.shadowed_cudnn").empty());
    EXPECT_TRUE(findings_with(doc, "libs.shadowed_cublas").empty());
    EXPECT_TRUE(findings_with(doc, "libs.shadowed_cudart").empty());
    EXPECT_TRUE(findings_with(doc, "libs.shadowed_cudnn_sublibrary").empty());

    // The Requires-Dist verdicts are exactly pip check's lines.
    SubprocessOptions o;
    o.timeout = std::chrono::minutes(2);
    auto pc = run_subprocess({py, "-m", "pip", "check"}, o);
    std::set<std::string> pip_says, doctor_says;
    for (const auto& line : split(pc.out, '\n')) {
      auto t = trim(line);
      if (t.empty()) continue;
      auto requires_pos = t.find(" requires "), has_pos = t.find(" has requirement ");
      std::string dist = norm(t.substr(0, t.find(' ')));
      if (requires_pos != std::string::npos) {
        pip_says.insert(dist + " missing " + norm(t.substr(requires_pos + 10, t.find(',', requires_pos) - requires_pos - 10)));
      } else if (has_pos != std::string::npos) {
        std::string spec = t.substr(has_pos + 17, t.find(',', has_pos) - has_pos - 17);
        pip_says.insert(dist + " conflict " + norm(spec.substr(0, spec.find_first_of("<>=!~ "))));
      }
    }
    for (const auto& f : findings_with(doc, "python.requirement_missing"))
      for (const auto& name : f["details"]["missing"])
        doctor_says.insert(f["details"]["distribution"].get<std::string>() + " missing " + name.get<std::string>());
    for (const auto& f : conflict)
      doctor_says.insert(f["details"]["distribution"].get<std::string>() + " conflict " +
                         f["details"]["requires"].get<std::string>());
    EXPECT_FALSE(pip_says.empty()) << pc.out;
    EXPECT_EQ(doctor_says, pip_says) << pc.out;

    // No fix sets LD_LIBRARY_PATH to the value already set.
    for (const auto& s : doc.at("sections"))
      for (const auto& f : s.at("findings"))
        for (const auto& fx : f.value("fixes", nlohmann::json::array()))
          for (const auto& c : fx.value("commands", nlohmann::json::array()))
            if (!llp.empty()) EXPECT_NE(c.get<std::string>(), "export LD_LIBRARY_PATH=" + llp);
  }
}
