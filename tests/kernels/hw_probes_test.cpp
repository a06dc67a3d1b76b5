// The hardware probes end to end as the runner starts them: without a GPU each says `skip` with the exact
// CUDA error (or, in a build without nvcc, that it was built without CUDA), never pass and never error;
// a bad argument is an `error` naming it, not a crash. cuBLASLt loads from the real toolkit here.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "support/probe_run.h"

#if GPUCHECK_TEST_HAVE_CUDA
#include "gemm/cublaslt.h"
#endif

using namespace gpucheck;

namespace {
using gpucheck::testing::run_probe;

bool machine_has_nvidia_driver() { return access("/dev/nvidiactl", F_OK) == 0; }

const std::vector<std::pair<std::string, std::vector<std::string>>> kProbes = {
    {"device.memory", {"--level", "quick"}},
    {"device.copy", {"--level", "quick"}},
    {"cublas.gemm", {"--level", "quick"}},
    {"stress.gemm", {"--level", "long", "--duration", "2"}},
};
}  // namespace

TEST(HwProbes, WithoutAGpuEachSkipsWithTheExactReason) {
  for (auto& [id, args] : kProbes) {
    auto j = run_probe(id, args);
    std::string status = j["status"], summary = j["summary"];
    EXPECT_EQ(j["id"], id);
    if (machine_has_nvidia_driver()) {  // a GPU machine: a verdict, never an error
      EXPECT_NE(status, "error") << id << ": " << summary;
      continue;
    }
    ASSERT_EQ(status, "skip") << id << ": " << summary;
    bool cuda_error = summary.rfind("no usable GPU: cudaGetDeviceCount failed: cudaError", 0) == 0;
    bool no_nvcc = summary.find("built without a CUDA compiler") != std::string::npos;
    EXPECT_TRUE(cuda_error || no_nvcc) << id << ": " << summary;
    EXPECT_TRUE(j["metrics"].empty()) << id << ": a number without a GPU";
    EXPECT_TRUE(j["devices"].empty()) << id;
    if (cuda_error) {
      bool has = false;
      for (auto& e : j["evidence"]) has = has || (e["what"] == "cudaGetDeviceCount" && e["value"] == summary.substr(15));
      EXPECT_TRUE(has) << id << ": the evidence does not carry the CUDA error: " << j.dump();
    }
  }
}

TEST(HwProbes, BadArgumentIsAnErrorNamingIt) {
  for (auto& [id, arg] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"device.memory", {"--share", "7"}}, {"device.copy", {"--runs", "0"}},
           {"cublas.gemm", {"--max-size", "3"}}, {"stress.gemm", {"--duration", "-1"}}}) {
    auto j = run_probe(id, arg);
    std::string summary = j["summary"];
    if (summary.find("built without a CUDA compiler") != std::string::npos) continue;
    EXPECT_EQ(j["status"], "error") << id << ": " << summary;
    EXPECT_NE(summary.find(arg[0]), std::string::npos) << id << ": " << summary;
  }
}

#if GPUCHECK_TEST_HAVE_CUDA
TEST(HwProbes, CublasLtLoadsFromTheToolkitAndSaysWhatItTried) {
  setenv("GPUCHECK_CUBLASLT", "/nonexistent/libcublasLt.so.13", 1);
  kernels::CublasLtApi api;
  bool ok = kernels::load_cublaslt(api);
  unsetenv("GPUCHECK_CUBLASLT");
  ASSERT_FALSE(api.tried.empty());
  EXPECT_EQ(api.tried.front().rfind("/nonexistent/libcublasLt.so.13: ", 0), 0u) << api.tried.front();
  if (access("/usr/local/cuda/lib64/" "libcublasLt.so.13", F_OK) != 0) GTEST_SKIP() << "no toolkit cuBLASLt here";
  ASSERT_TRUE(ok) << api.tried.back();
  EXPECT_EQ(api.version / 10000, 13u);
  EXPECT_NE(api.path.find("libcublasLt.so"), std::string::npos) << api.path;
  EXPECT_NE(api.describe(CUBLAS_STATUS_NOT_SUPPORTED).find("CUBLAS_STATUS_NOT_SUPPORTED (15)"), std::string::npos)
      << api.describe(CUBLAS_STATUS_NOT_SUPPORTED);
}
#endif
