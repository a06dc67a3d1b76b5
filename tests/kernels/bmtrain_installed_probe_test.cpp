// bmtrain.installed end to end, as the runner starts it, against stand-ins for bmtrain.C built by CMake
// (fake_bmtrain/): a package tree with dist-info in a temp site directory on PYTHONPATH of the real Python
// the stand-ins were built for. The real BMTrain 1.0.1 wheel is exercised by repro/bmtrain_peer_test.cpp.
#include <gtest/gtest.h>

#include "support/report_json.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

fs::path module_of(const std::string& variant) {
  for (const auto& e : fs::directory_iterator(fs::path(FAKE_BMTRAIN_DIR) / variant))
    if (e.path().filename().string().rfind("C.", 0) == 0 && e.path().extension() == ".so") return e.path();
  return {};
}

class FakeBmtrain : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/gpucheck-fakebmt-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }

  /// site/bmtrain/{__init__.py, C.<soabi>.so} + site/bmtrain-<version>.dist-info/METADATA
  void install(const std::string& variant, const std::string& version = "1.0.1", const std::string& init_py = "") {
    fs::path pkg = root_ / "site" / "bmtrain";
    fs::create_directories(pkg);
    std::ofstream(pkg / "__init__.py") << init_py;
    fs::path so = module_of(variant);
    ASSERT_FALSE(so.empty()) << "stand-in module " << variant << " not built";
    fs::copy_file(so, pkg / so.filename());
    fs::path dist = root_ / "site" / ("bmtrain-" + version + ".dist-info");
    fs::create_directories(dist);
    std::ofstream(dist / "METADATA") << "Metadata-Version: 2.1\nName: bmtrain\nVersion: " << version << "\n";
  }

  nlohmann::json run(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{std::string(GPUCHECK_STAGE_PROBES) + "/bmtrain.installed", "--result-fd", "3",
                                  "--level", "quick", "--python", GPUCHECK_TEST_PYTHON};
    argv.insert(argv.end(), extra.begin(), extra.end());
    SubprocessOptions o;
    o.result_fd = 3;
    o.timeout = std::chrono::minutes(3);
    o.set_env["PYTHONPATH"] = (root_ / "site").string();
    auto r = run_subprocess(argv, o);
    EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    return nlohmann::json::parse(r.result);
  }

  static std::string text(const nlohmann::json& j, const char* key) { return j.value(key, std::string()); }
  static std::string evidence(const nlohmann::json& j, const char* key) {
    return gpucheck::testing::evidence_of(j, key);
  }

  fs::path root_;
};

}  // namespace

TEST_F(FakeBmtrain, RightMathPassesThroughTheEmbeddedInterpreter) {
  install("right");
  auto j = run();
  EXPECT_EQ(j["status"], "pass") << j.dump(1);
  EXPECT_EQ(evidence(j, "bmtrain_version"), "1.0.1");
  EXPECT_EQ(evidence(j, "interpreter").rfind("embedded in this process (", 0), 0u) << evidence(j, "interpreter");
  EXPECT_NE(evidence(j, "interpreter").find("libpython"), std::string::npos);
  EXPECT_EQ(evidence(j, "linkage").rfind("complete: ", 0), 0u) << evidence(j, "linkage");
  EXPECT_EQ(evidence(j, "import_bmtrain"), "ok");
  // The stand-in runs our offload Adam, which rounds bf16 (BMTrain truncates): the probe tells them apart.
  EXPECT_EQ(evidence(j, "bf16_param_copy"), "rounded to nearest even");
  EXPECT_EQ(j["details"]["cases"].size(), 4u);  // fp16/bf16 x random/adversarial
  EXPECT_FALSE(evidence(j, "gpu_launchers").empty());
}

TEST_F(FakeBmtrain, ChildInterpreterReachesTheSameVerdict) {
  install("right");
  auto j = run({"--child-interpreter"});
  EXPECT_EQ(j["status"], "pass") << j.dump(1);
  EXPECT_EQ(evidence(j, "interpreter").rfind("child process", 0), 0u) << evidence(j, "interpreter");
  EXPECT_NE(evidence(j, "gpu_launchers").find("not run"), std::string::npos);
}

TEST_F(FakeBmtrain, WrongMathFailsWithTheWorstElement) {
  install("wrong_math");
  auto j = run();
  EXPECT_EQ(j["status"], "fail") << j.dump(1);
  EXPECT_NE(text(j, "summary").find("param"), std::string::npos) << text(j, "summary");
  EXPECT_NE(text(j, "summary").find("outside tolerance"), std::string::npos) << text(j, "summary");
}

TEST_F(FakeBmtrain, UnresolvedNcclSymbolFailsToLoadAndAbiNamesIt) {
  install("undefined_nccl");
  auto j = run();
  EXPECT_EQ(j["status"], "fail") << j.dump(1);
  EXPECT_NE(text(j, "summary").find("does not load"), std::string::npos) << text(j, "summary");
  EXPECT_NE(text(j, "summary").find("undefined symbol: ncclBroadcast"), std::string::npos) << text(j, "summary");
  EXPECT_NE(evidence(j, "linkage").find("ncclBroadcast"), std::string::npos) << evidence(j, "linkage");
  bool abi_hint = false;
  for (const auto& fix : j["fixes"]) abi_hint |= fix["summary"].get<std::string>().find("gpucheck abi ") != std::string::npos;
  EXPECT_TRUE(abi_hint) << j["fixes"].dump();
}

TEST_F(FakeBmtrain, PreOneZeroLaunchersAreNotCalled) {
  install("wrong_math", "0.2.3.post2");  // would fail if its launchers were called
  auto j = run();
  EXPECT_EQ(j["status"], "skip") << j.dump(1);
  EXPECT_NE(text(j, "summary").find("pre-1.0"), std::string::npos) << text(j, "summary");
}

// Issue 13: a bmtrain that does not import is unusable; its right kernels do not make it a pass or a skip.
TEST_F(FakeBmtrain, BrokenPackageImportFails) {
  install("right", "1.0.1", "raise ModuleNotFoundError(\"No module named 'torch'\")\n");
  auto j = run();
  EXPECT_EQ(j["status"], "fail") << j.dump(1);
  EXPECT_NE(text(j, "summary").find("`import bmtrain` fails: ModuleNotFoundError: No module named 'torch'"),
            std::string::npos)
      << text(j, "summary");
  EXPECT_EQ(j["details"]["cases"].size(), 4u);  // the launchers were still checked, and said so
}

TEST_F(FakeBmtrain, BrokenPackageImportFailsAlsoBeforeOneZero) {
  install("right", "0.2.2", "raise ImportError(\"undefined symbol: ncclRecv\")\n");
  auto j = run();
  EXPECT_EQ(j["status"], "fail") << j.dump(1);
  EXPECT_NE(text(j, "summary").find("`import bmtrain` fails: ImportError: undefined symbol: ncclRecv"),
            std::string::npos)
      << text(j, "summary");
}
