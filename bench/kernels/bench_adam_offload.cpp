// CPU offload Adam vs a STREAM-like triad moving the same bytes with the same threads, same run.
// Figure of merit: ratio = triad time / Adam time (1.0 = Adam runs at the memory-bandwidth ceiling).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <thread>
#include <vector>

#include "adam/adam_offload.h"
#include "adam/adam_reference.h"
#include "bmtrain_installed/bmtrain_peer.h"

using namespace gpucheck::kernels;

namespace {

constexpr double kAdamBytesPerElement = 28;  // param, m, v read+write (24) + grad read (2) + param_h write (2)

void triad_range(float* __restrict a, const float* __restrict b, const float* __restrict c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + 3.0f * c[i];
}

// a[i] = b[i] + s*c[i] over `threads` contiguous ranges: 12 bytes per element (STREAM's accounting).
double triad_seconds(std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c, unsigned threads) {
  auto t0 = std::chrono::steady_clock::now();
  std::size_t n = a.size(), chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t * chunk < n; ++t)
    pool.emplace_back(triad_range, a.data() + t * chunk, b.data() + t * chunk, c.data() + t * chunk,
                      std::min(chunk, n - t * chunk));
  triad_range(a.data(), b.data(), c.data(), std::min(chunk, n));
  for (auto& th : pool) th.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_OffloadAdam(benchmark::State& state) {
  auto isa = static_cast<CpuIsa>(state.range(0));
  auto threads = static_cast<unsigned>(state.range(1));
  std::size_t n = static_cast<std::size_t>(state.range(2));
  if (!cpu_isa_supported(isa)) {
    state.SkipWithError((std::string(to_string(isa)) + " not supported on this CPU").c_str());
    return;
  }
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 3);
  AdamState s = make_adam_state(AdamVariant::kOffloadFp16, n, 1, h, false);
  OffloadAdamBuffers b{n, s.param.f32(), s.param_h.u16(), s.grad.u16(), s.m.f32(), s.v.f32(), false};
  std::size_t tn = static_cast<std::size_t>(n * kAdamBytesPerElement / 12);
  std::vector<float> ta(tn, 1.0f), tb(tn, 2.0f), tc(tn, 0.5f);
  double adam_total = 0, triad_total = 0;
  for (auto _ : state) {
    // Interleaved so both see the same machine state (other tenants, frequency, caches).
    triad_total += triad_seconds(ta, tb, tc, threads);
    auto t0 = std::chrono::steady_clock::now();
    adam_offload_step(b, h, isa, threads);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    adam_total += secs;
    state.SetIterationTime(secs);
  }
  benchmark::DoNotOptimize(ta.data());
  double iters = static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(iters * n * kAdamBytesPerElement));
  state.counters["adam_GBps"] = iters * n * kAdamBytesPerElement / adam_total / 1e9;
  state.counters["triad_GBps"] = iters * tn * 12.0 / triad_total / 1e9;
  state.counters["ratio_to_triad"] = triad_total / adam_total;
  state.SetLabel(std::string(to_string(isa)) + " x" + std::to_string(threads));
}

void args(benchmark::internal::Benchmark* b) {
  unsigned hw = std::max(1u, offload_default_threads());
  for (int isa : {0, 1, 2})
    for (unsigned t : {1u, hw})
      for (std::int64_t n : {std::int64_t{1} << 20, std::int64_t{1} << 24}) b->Args({isa, t, n});
}

// Ours (best ISA, all CPUs) vs the installed BMTrain's adam_cpu_fp16_launcher on the same inputs and
// thread count (its own default: the process's CPU affinity), its launcher called in this process through
// the embedded interpreter (a child interpreter where it cannot be embedded), timed around the call. The Python is $GPUCHECK_PYTHON or python3; without bmtrain there: SkipWithError.
void BM_OffloadAdamVsBmtrain(benchmark::State& state) {
  const char* env = std::getenv("GPUCHECK_PYTHON");
  std::string python = env && *env ? env : "python3";
  bmtrain::Install in = bmtrain::locate(python);
  if (!in.found || in.native_modules.empty()) {
    state.SkipWithError(("bmtrain with its native module is not installed in " + python +
                         " (set GPUCHECK_PYTHON to a Python that has it)").c_str());
    return;
  }
  std::size_t n = static_cast<std::size_t>(state.range(0));
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 3);
  AdamState s = make_adam_state(AdamVariant::kOffloadFp16, n, 1, h, false);
  std::string embed_error, load_error;
  auto native = bmtrain::NativeModule::load(in, in.native_modules.front(), embed_error, load_error);
  if (!load_error.empty()) {
    state.SkipWithError(("bmtrain's native module does not load: " + load_error).c_str());
    return;
  }
  bmtrain::PeerRun peer = native ? bmtrain::run_cpu_adam(*native, s, h, 5)
                                 : bmtrain::run_cpu_adam_in_child(in.python, in.native_modules.front(), s, h, 5);
  if (!peer.ran || peer.seconds <= 0) {
    state.SkipWithError(("bmtrain's adam_cpu launcher failed: " + peer.error).c_str());
    return;
  }
  OffloadAdamBuffers b{n, s.param.f32(), s.param_h.u16(), s.grad.u16(), s.m.f32(), s.v.f32(), false};
  double best = 1e30;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    adam_offload_step(b, h, best_cpu_isa(), offload_default_threads());
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, secs);
    state.SetIterationTime(secs);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * kAdamBytesPerElement));
  state.counters["bmtrain_ms"] = peer.seconds * 1e3;
  state.counters["speedup_vs_bmtrain"] = peer.seconds / best;  // best call each side
  state.SetLabel("bmtrain " + in.version + " vs ours " + to_string(best_cpu_isa()));
}

}  // namespace

BENCHMARK(BM_OffloadAdamVsBmtrain)->Arg(1 << 20)->Arg(1 << 24)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OffloadAdam)->Apply(args)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
