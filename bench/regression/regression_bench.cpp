// What `gpucheck compare` costs: the exact Mann-Whitney distribution and the U test on benchmark-sized
// samples. Manual time = this thread's CPU time, so load from other processes does not show as a change.
// GPUCHECK_BENCH_TEST_SLOWDOWN=F (test-only) repeats each iteration's work F times: a genuinely slower run.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "checks/regression/mann_whitney.h"

namespace {

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Work repetitions per iteration: 1, or the test-only slowdown factor (rounded, at least 1).
int work_factor() {
  const char* v = std::getenv("GPUCHECK_BENCH_TEST_SLOWDOWN");
  double f = v && *v ? std::atof(v) : 1.0;
  return f >= 1 ? static_cast<int>(std::lround(f)) : 1;
}

void BM_ExactDistribution(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const int factor = work_factor();
  for (auto _ : state) {
    double t0 = cpu_now();
    for (int k = 0; k < factor; ++k) benchmark::DoNotOptimize(gpucheck::regression::u_counts(n, n));
    state.SetIterationTime(cpu_now() - t0);
  }
  state.counters["work_factor"] = factor;
}

void BM_UTest(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(42);
  std::vector<double> a(n), b(n);
  for (auto& x : a) x = 1.0 + static_cast<double>(rng() % 1000) / 1e4;
  for (auto& x : b) x = 1.0 + static_cast<double>(rng() % 1000) / 1e4;
  const int factor = work_factor();
  for (auto _ : state) {
    double t0 = cpu_now();
    for (int k = 0; k < factor; ++k) benchmark::DoNotOptimize(gpucheck::regression::mann_whitney_u(a, b));
    state.SetIterationTime(cpu_now() - t0);
  }
  state.counters["work_factor"] = factor;
}

}  // namespace

BENCHMARK(BM_ExactDistribution)->Arg(9)->Arg(30)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UTest)->Arg(9)->Arg(50)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
