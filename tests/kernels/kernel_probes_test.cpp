// The kernel probes end to end, as the runner starts them (--result-fd): CPU probes must pass here; GPU
// probes either pass or skip naming the exact CUDA error; none may error.
#include <gtest/gtest.h>

#include "support/report_json.h"

#include <cctype>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "support/probe_run.h"

using namespace gpucheck;

namespace {
// Every kernel probe at its quick level.
nlohmann::json run_probe(const std::string& id, std::vector<std::string> extra = {}) {
  extra.insert(extra.begin(), {"--level", "quick"});
  return gpucheck::testing::run_probe(id, extra);
}
}  // namespace

TEST(KernelProbes, OffloadAdamPassesOnThisCpu) {
  auto j = run_probe("kernels.adam_offload");
  EXPECT_EQ(j["status"], "pass") << j.dump(1);
  EXPECT_FALSE(gpucheck::testing::evidence_of(j, "isa_paths").empty());
  // 2 variants x 5 sizes x 2 input kinds, each: 1 reference check + 3 thread counts per ISA path.
  EXPECT_GE(j["details"]["cases"].size(), 2u * 5 * 2 * (1 + 3));
}

TEST(KernelProbes, GpuProbesPassOrSkipWithTheCudaError) {
  for (const char* id : {"kernels.adam", "kernels.cross_entropy", "kernels.inf_nan"}) {
    auto j = run_probe(id);
    std::string status = j["status"], summary = j["summary"];
    if (status == "skip") {
      std::string lower = summary;
      for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      // "cudaGetDeviceCount failed: cudaErrorInsufficientDriver (35)..." or "built without a CUDA compiler"
      EXPECT_NE(lower.find("cuda"), std::string::npos) << id << ": " << summary;
      // The driver is the reason: the probe names the driver its CUDA runtime needs (data/compat/driver.json).
      if (summary.find("cudaErrorInsufficientDriver") != std::string::npos)
        EXPECT_NE(summary.find(" needs NVIDIA driver >= "), std::string::npos) << id << ": " << summary;
    } else {
      EXPECT_EQ(status, "pass") << id << ": " << summary;
    }
  }
}

TEST(KernelProbes, BmtrainProbeSkipsWhenPythonHasNoBmtrain) {
  auto j = run_probe("bmtrain.installed", {"--python", "/nonexistent/python3"});
  EXPECT_EQ(j["status"], "skip");
  EXPECT_NE(j["summary"].get<std::string>().find("could not be run"), std::string::npos) << j["summary"];
}
