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

#include <unistd.h>

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
      o, "torch 2.1.2, numpy 2.1.3, torchvision 0.17.0 --no-deps, nccl cu11 over cu12", {}, {},
      gpucheck::testing::kTorchVenvRoom);
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
  if (!gpucheck::testing::repro_enabled())
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

// The case issue 13 found: torch 2.5.1 from PyPI ships cuDNN 9.1.0 (nvidia-cudnn-cu12 9.1.0.70, RUNPATH
// $ORIGIN); with the toolkit's directory first on LD_LIBRARY_PATH its libcudnn.so.9 opens the toolkit's
// libcudnn_graph.so.9 (another release) and torch.backends.cudnn.version() names that release. doctor must
// say so with both releases, read the venv file's own version (not the mixed process's, not from a cache
// filled by it), and its fix, run in a shell, must bring back the venv's own cuDNN.
TEST(DoctorEnvRepro, Torch25CudnnWithAnotherReleasesSubLibrariesFirstOnLdLibraryPath) {
  if (!gpucheck::testing::repro_enabled())
    GTEST_SKIP() << "set GPUCHECK_TEST_REPRO=1 (downloads about 2.8 GB from PyPI once)";
  const std::string toolkit_lib = "/usr/local/cuda/lib64";
  if (!fs::exists(toolkit_lib + "/libcudnn_graph.so.9"))
    GTEST_SKIP() << toolkit_lib << " has no cuDNN 9 (libcudnn_graph.so.9): nothing can shadow the venv's";
  fs::path dir;
  if (auto why = gpucheck::testing::keep_torch251_cu124_venv(dir); !why.empty())
    GTEST_SKIP() << "could not build the venv: " << why;
  const std::string py = (dir / "bin/python").string();

  // The version cache of these runs only (a real one may hold readings of other runs).
  const fs::path cache = fs::temp_directory_path() / ("gpucheck-cudnn-cache-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  fs::create_directories(cache);
  auto env_with = [&](const std::string& llp) {
    SubprocessOptions o;
    o.timeout = std::chrono::minutes(5);
    o.set_env = {{"PATH", dir.string() + "/bin:/usr/bin:/bin"}, {"XDG_CACHE_HOME", cache.string()}};
    if (llp.empty()) o.unset_env = {"LD_LIBRARY_PATH"};
    else o.set_env["LD_LIBRARY_PATH"] = llp;
    return o;
  };
  const std::string cudnn = "import torch; print(torch.backends.cudnn.version())";
  auto own = run_subprocess({py, "-c", cudnn}, env_with(""));
  auto mixed = run_subprocess({py, "-c", cudnn}, env_with(toolkit_lib));
  ASSERT_TRUE(own.ok() && mixed.ok()) << own.err << mixed.err;
  ASSERT_EQ(trim(own.out), "90100");
  ASSERT_NE(trim(mixed.out), trim(own.out)) << "the toolkit's cuDNN is this release too: no shadowing to find";
  const int mixed_code = std::stoi(trim(mixed.out));
  const std::string mixed_release = std::to_string(mixed_code / 10000) + "." + std::to_string(mixed_code % 10000 / 100);

  for (int pass = 0; pass < 2; ++pass) {  // the second from the version cache the first filled
    SCOPED_TRACE(pass ? "cached" : "cold cache");
    auto o = env_with(toolkit_lib);
    auto r = run_subprocess({kBin, "doctor", "--python", py, "--json"}, o);
    ASSERT_TRUE(r.exited) << r.describe() << r.err;
    auto doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(doc.is_object()) << r.describe() << "\nstderr: " << r.err.substr(0, 4000) << "\nstdout: " << r.out.substr(0, 2000);
    auto sub = findings_with(doc, "libs.shadowed_cudnn_sublibrary");
    ASSERT_EQ(sub.size(), 1u) << r.out.substr(0, 4000);
    EXPECT_EQ(sub[0]["status"], "fail");
    EXPECT_EQ(sub[0]["details"]["shipped"], "9.1.0.70");
    EXPECT_EQ(sub[0]["details"]["elsewhere_release"].get<std::string>().rfind(mixed_release + ".", 0), 0u)
        << sub[0].dump(1);  // the toolkit's release (dist-info or its libcudnn.so.9), not the SONAME's "9"
    EXPECT_NE(sub[0]["title"].get<std::string>().find("9.1.0.70 would load libcudnn_"), std::string::npos);
    EXPECT_TRUE(findings_with(doc, "libs.shadowed_cudnn").empty());  // libcudnn.so.9 itself is the venv's

    // The venv's file is 9.1.0 whatever the judged process mixed.
    bool seen = false;
    for (const auto& lib : doc["inventory"]["libraries"])
      if (lib["path"].get<std::string>().rfind(dir.string(), 0) == 0 && lib["name"] == "cudnn") {
        EXPECT_EQ(lib["version"], "9.1.0") << lib.dump();
        seen = true;
      }
    EXPECT_TRUE(seen);

    // Fix 1, pasted into a shell that has this LD_LIBRARY_PATH, then the same question to torch.
    const auto& fixes = sub[0]["fixes"];
    ASSERT_FALSE(fixes.empty());
    std::string script;
    for (const auto& c : fixes[0]["commands"]) script += c.get<std::string>() + "\n";
    script += "exec python -c '" + cudnn + "'\n";
    auto fixed = run_subprocess({"/bin/bash", "-c", script}, o);
    EXPECT_TRUE(fixed.ok()) << script << fixed.err;
    EXPECT_EQ(trim(fixed.out), "90100") << script;
  }

  auto clean = run_subprocess({kBin, "doctor", "--python", py, "--json"}, env_with(""));
  auto doc = nlohmann::json::parse(clean.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(doc.is_object()) << clean.describe() << "\nstderr: " << clean.err.substr(0, 4000);
  for (const auto& s : doc.at("sections"))
    for (const auto& f : s.at("findings"))
      EXPECT_NE(f.at("id").get<std::string>().rfind("libs.shadowed_", 0), 0u) << f.dump(1);
  fs::remove_all(cache);
}
