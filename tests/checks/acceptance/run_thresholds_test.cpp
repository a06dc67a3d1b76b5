// The thresholds where a run's findings are gathered: `gpucheck run` with a stand-in cublas.gemm probe (a
// script that delivers a prepared result with per-GPU metrics, staged in a temp probe dir) on a node whose
// NVML (stand-in, two H100 SXM5) names the products. Proves the section, the exit code, --thresholds
// (and its one-line error) and --baseline end to end.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/finding.h"
#include "core/subprocess.h"
#include "inventory/test_support.h"

namespace gpucheck::acceptance {
namespace {

namespace fs = std::filesystem;
using inventory::testing::TempDir;

class RunThresholds : public ::testing::Test {
 protected:
  void SetUp() override {
    data_ = tmp_ / "data";
    probes_ = tmp_ / "libexec";
    fs::create_directories(fs::path(data_) / "probes");
    fs::create_directories(probes_);
    for (const auto& e : fs::directory_iterator(GPUCHECK_STAGE_DATA))
      if (e.path().filename() != "probes") fs::create_directory_symlink(e.path(), fs::path(data_) / e.path().filename());
    std::ofstream(fs::path(data_) / "probes" / "cublas.gemm.json")
        << R"({"id": "cublas.gemm", "title": "stand-in cuBLAS GEMM", "description": "test",
              "levels": ["quick", "standard", "long"], "timeout_s": 60, "tags": ["gpu"]})";
    std::string script = probes_ + "/cublas.gemm";
    std::ofstream(script) << "#!/bin/sh\ncat \"$(dirname \"$0\")/result.json\" >&3\n";
    chmod(script.c_str(), 0755);
    fs::create_symlink(std::string(GPUCHECK_STAGE_PROBES) + "/gpucheck-gpuinfo", fs::path(probes_) / "gpucheck-gpuinfo");
  }

  // The probe's result: GPU i reports tflops_fp16 values[i], identified by UUID as the stand-in NVML names them.
  void probe_result(const std::vector<double>& values) {
    Finding f;
    f.id = "cublas.gemm";
    f.title = "stand-in cuBLAS GEMM";
    f.status = Status::kPass;
    f.summary = "measured";
    const char* uuids[] = {"GPU-aaaaaaaa-0000-0000-0000-000000000000", "GPU-bbbbbbbb-0000-0000-0000-000000000001"};
    for (std::size_t i = 0; i < values.size(); ++i) {
      DeviceFinding d;
      d.device = std::to_string(i);
      d.status = Status::kPass;
      d.evidence["uuid"] = uuids[i];
      d.metrics.push_back({"tflops_fp16", values[i], "TFLOP/s", "higher"});
      f.devices.push_back(d);
    }
    nlohmann::json j;
    to_json(j, f);
    std::ofstream(probes_ + "/result.json") << j.dump();
  }

  SubprocessResult run(std::vector<std::string> extra) {
    SubprocessOptions o;
    o.timeout = std::chrono::seconds(180);  // generous under load
    o.set_env["GPUCHECK_DATA_DIR"] = data_;
    o.set_env["GPUCHECK_PROBE_DIR"] = probes_;
    o.set_env["LD_LIBRARY_PATH"] = std::string(GPUCHECK_FAKE_NVML_ROOT) + "/healthy";
    o.unset_env = {"CUDA_VISIBLE_DEVICES"};
    std::vector<std::string> argv = {std::string(GPUCHECK_STAGE_BIN) + "/gpucheck", "run", "--only", "cublas.gemm",
                                     "--no-inventory", "--json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_subprocess(argv, o);
  }

  static const nlohmann::json& thresholds(const nlohmann::json& report) {
    for (const auto& s : report["sections"])
      if (s["name"] == "thresholds") return s["findings"].at(0);
    throw std::runtime_error("no thresholds section in " + report.dump());
  }

  TempDir tmp_;
  std::string data_, probes_;
};

TEST_F(RunThresholds, ASlowGpuFailsTheRunWithTheRuleAndItsNumbers) {
  probe_result({801, 412});
  auto r = run({"--no-report"});
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto t = thresholds(nlohmann::json::parse(r.out));
  EXPECT_EQ(t["id"], "thresholds.cublas.gemm");
  EXPECT_EQ(t["status"], "fail");
  EXPECT_EQ(t["devices"][0]["status"], "pass");
  EXPECT_EQ(t["devices"][1]["summary"],
            "tflops_fp16 412 < 0.6 x datasheet tflops_fp16 989.4 TFLOP/s (dense) = 593.6 (NVIDIA H100 SXM5 80GB) "
            "[reference_share]");
}

TEST_F(RunThresholds, AConfigFileOverridesTheShareAndABadOneIsAOneLineError) {
  probe_result({801, 412});
  std::string cfg = tmp_ / "site.json";
  std::ofstream(cfg) << R"({"reference_share": {"tflops_fp16": 0.3}})";
  auto ok = run({"--no-report", "--thresholds", cfg});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(thresholds(nlohmann::json::parse(ok.out))["status"], "pass");

  std::ofstream(cfg) << R"({"reference_share": {"tflops_fp16": 3}})";
  auto bad = run({"--no-report", "--thresholds", cfg});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("reference_share.tflops_fp16 must be a number above 0 and at most 1"), std::string::npos) << bad.err;
}

TEST_F(RunThresholds, ABaselineReportHoldsEachGpuToItsOwnHistory) {
  probe_result({801, 790});
  std::string dir = tmp_ / "reports";
  auto first = run({"--report-dir", dir});
  EXPECT_EQ(first.exit_code, 0) << first.out << first.err;
  std::string baseline;
  for (const auto& e : fs::directory_iterator(dir)) baseline = e.path();
  ASSERT_FALSE(baseline.empty());
  probe_result({800, 650});  // GPU 1 lost 18%: still above the datasheet share (593.6)
  auto second = run({"--no-report", "--baseline", baseline});
  EXPECT_EQ(second.exit_code, 1) << second.out << second.err;
  auto t = thresholds(nlohmann::json::parse(second.out));
  std::string s = t["devices"][1]["summary"];
  EXPECT_NE(s.find("tflops_fp16 650 < 0.9 x its baseline 790 = 711"), std::string::npos) << s;
  EXPECT_NE(s.find("same UUID) [baseline]"), std::string::npos) << s;
  EXPECT_EQ(t["devices"][0]["status"], "pass");
}

}  // namespace
}  // namespace gpucheck::acceptance
