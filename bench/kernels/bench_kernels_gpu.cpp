// GPU kernels vs a device-to-device copy of the same bytes in the same run (the bandwidth ceiling), timed
// with CUDA events. Targets (issue 7): Adam >= 0.9 of the copy, cross-entropy fwd+bwd >= 0.8. Without a
// usable GPU every benchmark reports SkipWithError with the exact CUDA error.
#include <benchmark/benchmark.h>

#include <string>

#include "adam/adam_cuda.h"
#include "adam/adam_reference.h"
#include "common/cuda_support.h"
#include "cross_entropy/ce_cuda.h"
#include "cross_entropy/ce_reference.h"

using namespace gpucheck::kernels;

namespace {

bool gpu_or_skip(benchmark::State& state) {
  if (auto why = cuda_unavailable_reason()) {
    state.SkipWithError(why->c_str());
    return false;
  }
  return true;
}

// Milliseconds of one device copy of `bytes` (best of 5): the ceiling both kernels are compared with.
float copy_ms(std::size_t bytes) {
  DeviceBuffer a(bytes / 2 + 1), b(bytes / 2 + 1);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0), cudaEventCreate(&e1);
  float best = 1e30f;
  for (int i = 0; i < 5; ++i) {
    cudaEventRecord(e0);
    cudaMemcpyAsync(b.get(), a.get(), bytes / 2, cudaMemcpyDeviceToDevice);  // reads + writes = bytes
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    best = std::min(best, ms);
  }
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  return best;
}

template <typename Launch>
void time_kernel(benchmark::State& state, std::size_t bytes, Launch launch) {
  float ceiling = copy_ms(bytes);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0), cudaEventCreate(&e1);
  double total_ms = 0;
  for (auto _ : state) {
    cudaEventRecord(e0);
    cuda_check(launch(), "launch");
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    total_ms += ms;
    state.SetIterationTime(ms / 1e3);
  }
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  double mean = total_ms / static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes * state.iterations()));
  state.counters["ratio_to_copy"] = ceiling / mean;
}

void BM_AdamFp16(benchmark::State& state) {
  if (!gpu_or_skip(state)) return;
  std::size_t n = static_cast<std::size_t>(state.range(0));
  AdamHyper h = adam_with_step(AdamHyper{}, 3);
  DeviceBuffer p(n * 4), ph(n * 2), g(n * 2), m(n * 2), v(n * 4);
  cudaMemset(p.get(), 0, n * 4), cudaMemset(g.get(), 0, n * 2), cudaMemset(m.get(), 0, n * 2), cudaMemset(v.get(), 0, n * 4);
  // param rw 8, param_h w 2, grad r 2, m rw 4, v rw 8
  time_kernel(state, n * 24, [&] {
    return launch_adam_fp16(n, p.as<float>(), ph.as<std::uint16_t>(), g.as<std::uint16_t>(), m.as<std::uint16_t>(),
                            v.as<float>(), h, nullptr);
  });
}

void BM_CrossEntropyFwdBwd(benchmark::State& state) {
  if (!gpu_or_skip(state)) return;
  std::size_t rows = static_cast<std::size_t>(state.range(0)), vocab = static_cast<std::size_t>(state.range(1));
  CeCase c = make_ce_case(Dtype::kFp16, rows, vocab, 1, CeCaseOptions{});
  DeviceBuffer x = to_device(c.logits), sm(c.logits.bytes()), t(rows * 4), loss(rows * 4), go(rows * 4);
  DeviceBuffer ws(ce_forward_workspace_bytes(rows, vocab));
  t.upload(c.target.data(), rows * 4);
  cudaMemset(go.get(), 0, rows * 4);
  // forward reads x twice from DRAM (stats, softmax) and writes softmax; backward reads and writes it.
  time_kernel(state, c.logits.bytes() * 5, [&] {
    cudaError_t e = launch_ce_forward(Dtype::kFp16, rows, vocab, x.get(), sm.get(), t.as<std::int32_t>(), -100,
                                      loss.as<float>(), ws.get(), nullptr);
    if (e != cudaSuccess) return e;
    return launch_ce_backward_inplace(Dtype::kFp16, rows, vocab, sm.get(), t.as<std::int32_t>(), go.as<float>(), nullptr);
  });
}

}  // namespace

BENCHMARK(BM_AdamFp16)->Arg(1 << 24)->Arg(1 << 28)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CrossEntropyFwdBwd)->Args({4096, 86583})->Args({64, 256000})->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
