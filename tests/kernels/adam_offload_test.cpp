// CPU offload Adam: every ISA path this CPU supports and every thread count give bit-identical results
// (they evaluate the same FMA sequence), and those results are within policy of the double reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <fstream>
#include <sstream>

#include "adam/adam_offload.h"
#include "adam/adam_reference.h"

using namespace gpucheck::kernels;

namespace {
AdamState run(const AdamState& before, const AdamHyper& h, CpuIsa isa, unsigned threads) {
  return adam_offload_on_copy(before, h, isa, threads);
}
bool same_bits(const HostTensor& a, const HostTensor& b) {
  // An empty tensor has no buffer: memcmp's arguments must not be null even for 0 bytes.
  return a.bytes() == b.bytes() && (a.bytes() == 0 || std::memcmp(a.data(), b.data(), a.bytes()) == 0);
}
}  // namespace

TEST(AdamOffload, IsaDetectionAgreesWithProcCpuinfo) {
  std::ifstream in("/proc/cpuinfo");
  if (!in) GTEST_SKIP() << "no /proc/cpuinfo";
  std::string line, flags;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) {
      flags = " " + line.substr(line.find(':') + 1) + " ";
      break;
    }
  auto has = [&](const char* f) { return flags.find(std::string(" ") + f + " ") != std::string::npos; };
  CpuFeatures f = detect_cpu_features();
  EXPECT_EQ(f.avx2, has("avx2"));
  EXPECT_EQ(f.fma, has("fma"));
  EXPECT_EQ(f.f16c, has("f16c"));
  EXPECT_EQ(f.avx512f, has("avx512f"));  // the kernel hides flags the OS does not enable
  CpuIsa best = best_cpu_isa();
  if (has("avx512f")) {
    EXPECT_EQ(best, CpuIsa::kAvx512);
  } else if (has("avx2") && has("fma") && has("f16c")) {
    EXPECT_EQ(best, CpuIsa::kAvx2);
  }
  std::cout << "best ISA here: " << to_string(best) << "\n";
}

TEST(AdamOffload, AllPathsAndThreadCountsAgreeBitForBitAndWithTheReference) {
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 7);
  auto isas = supported_cpu_isas();
  for (AdamVariant v : {AdamVariant::kOffloadFp16, AdamVariant::kOffloadBf16}) {
    for (std::size_t n : {0u, 1u, 7u, 15u, 16u, 17u, 1000u, 65537u, (1u << 20) + 3u}) {
      AdamState before = make_adam_state(v, n, n * 31 + 1, h, true);
      AdamState base = run(before, h, CpuIsa::kScalar, 1);
      AdamState want = before;
      adam_reference_step(want, h);
      auto reports = check_adam_step(before, want, base, h);
      ASSERT_TRUE(all_ok(reports)) << to_string(v) << " n=" << n << ": " << summarize(reports);
      for (CpuIsa isa : isas)
        for (unsigned t : {1u, 2u, 3u, 4u, 7u, 16u}) {
          AdamState got = run(before, h, isa, t);
          ASSERT_TRUE(same_bits(got.param, base.param) && same_bits(got.param_h, base.param_h) &&
                      same_bits(got.m, base.m) && same_bits(got.v, base.v))
              << to_string(v) << " " << to_string(isa) << " threads " << t << " n=" << n
              << " differs from scalar/1 thread: " << summarize(check_adam_step(before, base, got, h));
        }
    }
  }
  std::cout << "paths compared:";
  for (CpuIsa isa : isas) std::cout << " " << to_string(isa);
  std::cout << "\n";
}

TEST(AdamOffload, MultiStepTrajectoryStaysWithinPolicy) {
  AdamHyper h0{1e-2f, 0.9f, 0.999f, 1e-8f, 0.01f, 4.0f};
  AdamState s = make_adam_state(AdamVariant::kOffloadFp16, 4099, 3, h0, false);
  for (int step = 1; step <= 10; ++step) {
    AdamHyper h = adam_with_step(h0, step);
    AdamState want = s;
    adam_reference_step(want, h);
    AdamState got = run(s, h, best_cpu_isa(), 4);
    ASSERT_TRUE(all_ok(check_adam_step(s, want, got, h))) << "step " << step;
    s = got;
  }
}

TEST(AdamOffload, RejectsUnsupportedIsaAndZeroThreads) {
  AdamState s = make_adam_state(AdamVariant::kOffloadFp16, 8, 1, AdamHyper{}, false);
  EXPECT_THROW(run(s, AdamHyper{}, CpuIsa::kScalar, 0), std::invalid_argument);
  if (!cpu_isa_supported(CpuIsa::kAvx512)) {
    EXPECT_THROW(run(s, AdamHyper{}, CpuIsa::kAvx512, 1), std::invalid_argument);
  }
}

// Repro of `kernels.adam_offload --level long` (n = 2^26+3, seed n·7, element 15896638): g opposes m, so
// m1 = 0.9·m + 0.1·g/S cancels (0.0170 - 0.0179 = -9.1e-4) and carries ~1e-6 relative rounding error into
// the update — more than 4 ulps of max(|p_old|, |update|, |p_new|), the old param bound. Both sides are
// right (scalar path = the FMA sequence, reference in double); check_adam_step must allow for the error
// of m1 propagated through lr/(bc1·denom).
TEST(AdamOffload, CancellingMomentErrorReachingTheParamIsWithinPolicy) {
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 3);
  for (AdamVariant v : {AdamVariant::kOffloadFp16, AdamVariant::kOffloadBf16}) {
    AdamState before = make_adam_state(v, 1, 1, h, false);
    before.param.set(0, -6.40332019e-06f);
    before.grad.set(0, -183.75);  // fp16-exact; bf16 rounds it to -184, still cancelling
    before.m.set(0, 0.0189278964f);
    before.v.set(0, 0.0218193848f);
    AdamState want = before;
    adam_reference_step(want, h);
    AdamState got = run(before, h, CpuIsa::kScalar, 1);
    double p0 = before.param.get(0), p1 = want.param.get(0);
    double mag = std::max({std::fabs(p0), std::fabs(p1), std::fabs(p0 - p1) + std::fabs(h.lr * h.weight_decay * p0)});
    double err = std::fabs(got.param.get(0) - p1);
    std::cout << to_string(v) << ": param error " << err << " = " << err / ulp_fp32(mag) << " ulp32 of " << mag << "\n";
    if (v == AdamVariant::kOffloadFp16) {
      EXPECT_GT(err, 4 * ulp_fp32(mag)) << "no longer reproduces the cancellation";
    }
    auto reports = check_adam_step(before, want, got, h);
    EXPECT_TRUE(all_ok(reports)) << to_string(v) << ": " << summarize(reports);
  }
}
