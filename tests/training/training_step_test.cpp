// training.step for real: `gpucheck run --only training.step` through the host path (mpirun -np 2 and
// -np 4 on host memory), each injected fault failing with the step, layer, rank and element named, and
// the skip when there is neither a GPU nor an MPI launcher.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "support/report_json.h"

namespace {

using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;

const std::string kProbe = std::string(GPUCHECK_STAGE_PROBES) + "/training.step";
const std::string kGpucheck = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

SubprocessOptions opts(int timeout_s = 170) {
  SubprocessOptions so;
  so.timeout = std::chrono::seconds(timeout_s);
  return so;
}

nlohmann::json json_of(const std::string& out) {
  auto pos = out.find('{');
  if (pos == std::string::npos) return nlohmann::json::object();
  return nlohmann::json::parse(out.substr(pos));
}

class TrainingStep : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpucheck::find_in_path("mpirun").empty()) GTEST_SKIP() << "mpirun not found on PATH (install openmpi-bin)";
  }
};

// The probe at --ranks 2 with one dtype and a fault; returns the first divergence of world 2.
nlohmann::json first_divergence(const std::string& inject, const std::string& dtype, nlohmann::json& result) {
  auto r = run_subprocess({kProbe, "--level", "quick", "--json", "--ranks", "2", "--dtypes", dtype, "--inject", inject}, opts());
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  result = json_of(r.out);
  EXPECT_EQ(result.value("status", ""), "fail") << result.dump(1).substr(0, 2000);
  return result["details"]["worlds"]["2"]["dtypes"][dtype].value("first_divergence", nlohmann::json::object());
}

}  // namespace

TEST_F(TrainingStep, GpucheckRunPassesAtTwoAndFourRanksWithinTwoMinutes) {
  auto r = run_subprocess({kGpucheck, "run", "--only", "training.step", "--level", "quick", "--no-report",
                           "--no-inventory", "--json"},
                          opts(170));
  ASSERT_TRUE(r.started) << r.describe();
  EXPECT_LT(r.elapsed_s, 120.0);
  auto report = json_of(r.out);
  nlohmann::json f;
  for (auto& s : report["sections"])
    for (auto& x : s["findings"])
      if (x["id"] == "training.step") f = x;
  ASSERT_FALSE(f.is_null()) << r.out.substr(0, 2000) << r.err;
  EXPECT_EQ(f["status"], "pass") << f["summary"];
  for (const char* w : {"2", "4"}) {
    const auto& world = f["details"]["worlds"][w];
    EXPECT_EQ(world["world"], std::stoi(w));
    for (const char* dt : {"fp16", "bf16"}) {
      const auto& d = world["dtypes"][dt];
      // The planted overflow (step 3) skipped, the scale halved, then doubled after 4 good steps.
      EXPECT_EQ(d["skipped"], nlohmann::json::array({3})) << w << " " << dt;
      EXPECT_EQ(d["reference_skipped"], nlohmann::json::array({3}));
      EXPECT_EQ(d["scale"], nlohmann::json::array({4096, 4096, 4096, 2048, 2048, 2048, 2048, 4096}));
      EXPECT_EQ(d["loss"].size(), static_cast<std::size_t>(std::stoi(w)));
      for (const char* kind : {"gemm", "reduce-scatter", "all-gather", "cross-entropy", "optimizer",
                               "loss vs reference", "weights vs reference"}) {
        EXPECT_GT(d["stats"][kind]["checked"].get<double>(), 0) << kind;
        EXPECT_LE(d["stats"][kind]["worst_ratio"].get<double>(), 1.0) << kind;
      }
      // The loss falls, on every rank, as the reference's does.
      for (auto& curve : d["loss"]) EXPECT_LT(curve.back().get<double>(), curve.front().get<double>() - 0.5);
    }
  }
  bool timed = false;
  for (auto& m : f["metrics"])
    if (m["name"] == "step_ms_fp16_np4") timed = m["value"].get<double>() > 0;
  EXPECT_TRUE(timed) << f["metrics"].dump();
}

TEST_F(TrainingStep, OneUlpOnOneRanksGradientIsNamed) {
  for (const char* dt : {"fp16", "bf16"}) {
    nlohmann::json result;
    auto d = first_divergence("grad-ulp", dt, result);
    EXPECT_EQ(d["step"], 2) << d.dump();
    EXPECT_EQ(d["layer"], "linear1");
    EXPECT_EQ(d["rank"], 0);
    EXPECT_EQ(d["what"], "local weight gradient");
    EXPECT_EQ(d["index"], "[10,21]");  // element 32*32/3 = 341, row-major 32 columns
    // One ulp: within two of the allowed error, not a gross error.
    double err = std::fabs(d["got"].get<double>() - d["want"].get<double>());
    EXPECT_GT(err, d["allowed"].get<double>());
    EXPECT_LT(err, 3 * d["allowed"].get<double>());
    EXPECT_NE(result["summary"].get<std::string>().find("step 2, linear1, rank 0: local weight gradient [10,21]"),
              std::string::npos) << result["summary"];
  }
}

TEST_F(TrainingStep, MisorderedReduceScatterChunkIsNamed) {
  nlohmann::json result;
  auto d = first_divergence("chunk-misorder", "fp16", result);
  EXPECT_EQ(d["step"], 2) << d.dump();
  EXPECT_EQ(d["layer"], "head");
  EXPECT_EQ(d["what"], "reduce-scattered gradient");
  EXPECT_EQ(d["rank"], 0);  // the swapped chunks land on ranks 0 and 1; rank 0 is named first
  EXPECT_NE(result["summary"].get<std::string>().find("step 2, head, rank 0: reduce-scattered gradient [0]"),
            std::string::npos) << result["summary"];
}

TEST_F(TrainingStep, DisabledOverflowSkipIsNamed) {
  nlohmann::json result;
  auto d = first_divergence("skip-disabled", "fp16", result);
  EXPECT_EQ(d["step"], 3) << d.dump();  // the planted overflow step
  EXPECT_NE(d["what"].get<std::string>().find("the step overflowed: must be unchanged"), std::string::npos);
  EXPECT_NE(d["got"], d["want"]);
}

TEST(TrainingStepSkip, NoGpuAndNoMpiLauncherSkipsWithTheReason) {
  SubprocessOptions so = opts(60);
  so.set_env = {{"PATH", "/nonexistent"}};
  auto r = run_subprocess({kProbe, "--level", "quick", "--json"}, so);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  auto j = json_of(r.out);
  EXPECT_EQ(j["status"], "skip");
  const std::string s = j["summary"];
  EXPECT_EQ(s.rfind("no GPU (", 0), 0u) << s;
  EXPECT_NE(s.find(") and no MPI launcher: the host path runs the ranks under mpirun, which is not on PATH "
                   "(install Open MPI: openmpi-bin)"), std::string::npos) << s;
}

TEST(TrainingStepOptions, BadOptionIsOneLineAndExitTwo) {
  for (auto args : std::vector<std::vector<std::string>>{{"--steps", "0"}, {"--inject", "x"}, {"--ranks", "2,a"}, {"--bogus", "1"}}) {
    std::vector<std::string> argv{kProbe};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_subprocess(argv, opts(30));
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST_F(TrainingStep, GpuPathUnderMpirunSkipsWithTheCudaErrorHere) {
  // The ranks of the GPU path (NCCL, cuBLASLt, the CUDA kernels) on this GPU-less machine.
  std::vector<std::string> argv{gpucheck::find_in_path("mpirun"), "--allow-run-as-root", "--oversubscribe", "-np", "2",
                                "--mca", "btl", "self,vader", "--mca", "btl_vader_single_copy_mechanism", "none",
                                kProbe, "--transport", "nccl", "--level", "quick", "--json"};
  auto r = run_subprocess(argv, opts(120));
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  auto j = json_of(r.out);
  EXPECT_EQ(j["status"], "skip");
  EXPECT_EQ(j["summary"].get<std::string>().rfind("--transport nccl: no GPU (cudaGetDeviceCount failed: ", 0), 0u)
      << j["summary"];
}
