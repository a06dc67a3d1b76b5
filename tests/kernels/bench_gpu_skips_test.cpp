// bench_kernels_gpu never reports a number it did not measure: without a usable GPU, every benchmark (ours
// and torch's) is an error entry carrying the exact CUDA error (torch's also say why torch cannot run), and
// no entry has a ratio. With a GPU the benchmarks run for real, which is not a test's job: skip.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/cuda_support.h"
#include "core/subprocess.h"

using namespace gpucheck;

TEST(GpuBenchmarks, WithoutAGpuEveryBenchmarkSkipsWithTheExactReason) {
  const auto reason = kernels::cuda_unavailable_reason();
  if (!reason) GTEST_SKIP() << "a GPU is usable here: the GPU benchmarks would run for real (not timed in tests)";
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(2);
  auto r = run_subprocess({std::string(GPUCHECK_STAGE_BIN) + "/bench_kernels_gpu", "--benchmark_format=json"}, o);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& runs = j.at("benchmarks");
  // Adam: 3 dtypes x 3 shapes, ours and torch's; cross-entropy: 2 dtypes x 3 vocabularies, ours and torch's.
  ASSERT_EQ(runs.size(), 2u * 3 * 3 + 2u * 2 * 3) << j.dump(1);
  for (const auto& b : runs) {
    const std::string name = b.at("name");
    SCOPED_TRACE(name);
    ASSERT_TRUE(b.value("error_occurred", false));
    const std::string msg = b.at("error_message");
    EXPECT_FALSE(b.contains("ratio_to_copy"));
    EXPECT_FALSE(b.contains("ratio_to_torch"));
    if (name.rfind("BM_Torch", 0) == 0) {
      // "<why torch cannot run>; GPU: <the CUDA error>" (or just the CUDA error for a CUDA LibTorch).
      const bool torch_reason = msg.rfind("LibTorch was built without CUDA", 0) == 0 ||
                                msg.rfind("gpucheck was built without LibTorch", 0) == 0;
      EXPECT_TRUE(torch_reason ? msg.size() > reason->size() && msg.substr(msg.size() - reason->size() - 5) == "GPU: " + *reason
                               : msg == *reason)
          << msg;
    } else {
      EXPECT_EQ(msg, *reason);
    }
  }
}
