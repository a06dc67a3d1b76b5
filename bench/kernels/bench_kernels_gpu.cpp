// GPU kernels vs (a) a device-to-device copy of the same bytes (the bandwidth ceiling) and (b) torch's own
// CUDA ops on the same shapes (when LibTorch has CUDA), all measured in the same run. Targets (issue 7):
// Adam >= 0.9 of the copy, cross-entropy fwd+bwd >= 0.8, both faster than torch.
//
// Counters: bytes = the traffic the operation cannot avoid (per call); ratio_to_copy = copy time / our
// time for those bytes; ratio_to_torch = torch time / our time (> 1: ours is faster). Ratios use the best
// of 3 batches of calls, each batch bracketed by device synchronisations, the same for all three; the
// per-iteration manual time is ours, from CUDA events. Without a usable GPU every benchmark reports
// SkipWithError with the exact CUDA error; torch benchmarks also say why torch cannot run (e.g. "LibTorch
// was built without CUDA"). No number is ever reported without the work having run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "adam/adam_cuda.h"
#include "adam/adam_reference.h"
#include "common/cuda_support.h"
#include "cross_entropy/ce_cuda.h"
#include "cross_entropy/ce_reference.h"
#include "adam_bench_data.h"
#ifdef GPUCHECK_BENCH_TORCH
#include "torch_gpu_ops.h"
#endif

using namespace gpucheck::kernels;

namespace {

// ---- availability ---------------------------------------------------------------------------------------

bool gpu_or_skip(benchmark::State& state) {
  if (auto why = cuda_unavailable_reason()) {
    state.SkipWithError(why->c_str());
    return false;
  }
  return true;
}

/// Why torch's CUDA ops cannot be measured here, or nullopt.
std::optional<std::string> torch_unusable_reason() {
#ifdef GPUCHECK_BENCH_TORCH
  std::optional<std::string> why = torchops::torch_cuda_unusable_reason();
#else
  std::optional<std::string> why = std::string("gpucheck was built without LibTorch (not found at configure time)");
#endif
  if (auto gpu = cuda_unavailable_reason()) return why ? *why + "; GPU: " + *gpu : *gpu;
  return why;
}

// ---- timing ----------------------------------------------------------------------------------------------

using Enqueue = std::function<void()>;

void device_sync() { cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

/// Milliseconds per call: best of 3 batches of `reps` calls, each batch between two device syncs.
double best_ms(const Enqueue& enqueue, const Enqueue& sync, int reps = 10) {
  enqueue();  // warm-up (first-touch, lazy module loading)
  sync();
  double best = 1e300;
  for (int batch = 0; batch < 3; ++batch) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) enqueue();
    sync();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  return best;
}

/// A device copy of `bytes` (bytes/2 read + bytes/2 written), timed like everything else.
double copy_ms(std::size_t bytes) {
  const std::size_t half = bytes / 2;
  DeviceBuffer a(half), b(half);
  cuda_check(cudaMemset(a.get(), 1, half), "cudaMemset");
  return best_ms([&] { cuda_check(cudaMemcpyAsync(b.get(), a.get(), half, cudaMemcpyDeviceToDevice, nullptr), "copy"); },
                 device_sync);
}

class EventPair {
 public:
  EventPair() { cuda_check(cudaEventCreate(&e0_), "cudaEventCreate"), cuda_check(cudaEventCreate(&e1_), "cudaEventCreate"); }
  ~EventPair() { cudaEventDestroy(e0_), cudaEventDestroy(e1_); }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  float time_ms(const Enqueue& enqueue) {
    cuda_check(cudaEventRecord(e0_, nullptr), "cudaEventRecord");
    enqueue();
    cuda_check(cudaEventRecord(e1_, nullptr), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(e1_), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, e0_, e1_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t e0_{}, e1_{};
};

/// A torch baseline for the same shape: its time, or why there is none.
struct TorchBaseline {
  std::optional<double> ms;
  std::string why_not;
};

#ifdef GPUCHECK_BENCH_TORCH
TorchBaseline measure_torch(const std::function<torchops::TorchGpuOp()>& make) {
  if (auto why = torch_unusable_reason()) return {std::nullopt, *why};
  try {
    torchops::TorchGpuOp op = make();
    return {best_ms(op.run, op.sync), ""};
  } catch (const std::exception& e) {
    return {std::nullopt, e.what()};
  }
}
#endif

/// Our kernel in the timed loop (manual time from CUDA events), then the counters against the baselines.
void run_ours(benchmark::State& state, std::size_t bytes, const Enqueue& ours, const TorchBaseline& torch) {
  const double ceiling = copy_ms(bytes);
  const double mine = best_ms(ours, device_sync);
  EventPair ev;
  for (auto _ : state) state.SetIterationTime(ev.time_ms(ours) / 1e3);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["ratio_to_copy"] = ceiling / mine;
  if (torch.ms) state.counters["ratio_to_torch"] = *torch.ms / mine;
  else state.SetLabel("no torch baseline: " + torch.why_not);
}

/// torch's op in the timed loop, with its own ratio to the copy of the same essential bytes.
void run_torch(benchmark::State& state, std::size_t bytes, const Enqueue& run, const Enqueue& sync, const std::string& what) {
  const double ceiling = copy_ms(bytes);
  const double ms = best_ms(run, sync);
  EventPair ev;
  for (auto _ : state) {
    sync();
    state.SetIterationTime(ev.time_ms(run) / 1e3);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["ratio_to_copy"] = ceiling / ms;
  state.SetLabel(what);
}

// ---- Adam -------------------------------------------------------------------------------------------------

// Bytes each variant must move per element: param rw 8, v rw 8, m rw (fp16: 4, else 8), grad r (2 or 4),
// param_h w 2 (fp16/bf16).
std::size_t adam_bytes_per_element(Dtype half) {
  switch (half) {
    case Dtype::kFp16: return 8 + 8 + 4 + 2 + 2;
    case Dtype::kBf16: return 8 + 8 + 8 + 2 + 2;
    case Dtype::kFp32: return 8 + 8 + 8 + 4;
  }
  return 0;
}

/// Device buffers of one Adam launch, each `offset` elements into its allocation (BMTrain's views).
struct AdamDeviceState {
  DeviceBuffer param, param_h, grad, m, v;
  std::size_t offset;
  AdamDeviceState(Dtype half, std::size_t n, std::size_t offset, const AdamHyper& h)
      : param((n + offset) * 4), param_h((n + offset) * 2), grad((n + offset) * (half == Dtype::kFp32 ? 4 : 2)),
        m((n + offset) * (half == Dtype::kFp16 ? 2 : 4)), v((n + offset) * 4), offset(offset) {
    cuda_check(cudaMemset(param_h.get(), 0, param_h.bytes()), "cudaMemset");
    // Random non-zero inputs (zeros would time the cheapest conversion path).
    const AdamVariant var = half == Dtype::kFp16   ? AdamVariant::kFp16
                            : half == Dtype::kBf16 ? AdamVariant::kBf16
                                                   : AdamVariant::kFp32;
    auto at = [&](DeviceBuffer& b, std::size_t es) { return static_cast<char*>(b.get()) + offset * es; };
    fill_adam_inputs(var, n, h, at(param, 4), at(grad, half == Dtype::kFp32 ? 4 : 2),
                     at(m, half == Dtype::kFp16 ? 2 : 4), at(v, 4));
  }
  template <typename T>
  T* at(const DeviceBuffer& b) const { return b.as<T>() + offset; }
};

void BM_Adam(benchmark::State& state, Dtype half) {
  if (!gpu_or_skip(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0)), offset = static_cast<std::size_t>(state.range(1));
  try {
    const AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f, 1024.0f}, 3);
    AdamDeviceState d(half, n, offset, h);
    Enqueue ours = [&] {
      cudaError_t e = cudaSuccess;
      switch (half) {
        case Dtype::kFp16:
          e = launch_adam_fp16(n, d.at<float>(d.param), d.at<std::uint16_t>(d.param_h), d.at<std::uint16_t>(d.grad),
                               d.at<std::uint16_t>(d.m), d.at<float>(d.v), h, nullptr);
          break;
        case Dtype::kBf16:
          e = launch_adam_bf16(n, d.at<float>(d.param), d.at<std::uint16_t>(d.param_h), d.at<std::uint16_t>(d.grad),
                               d.at<float>(d.m), d.at<float>(d.v), h, nullptr);
          break;
        case Dtype::kFp32:
          e = launch_adam_fp32(n, d.at<float>(d.param), d.at<float>(d.grad), d.at<float>(d.m), d.at<float>(d.v), h, nullptr);
          break;
      }
      cuda_check(e, "launch_adam");
    };
#ifdef GPUCHECK_BENCH_TORCH
    TorchBaseline torch = measure_torch([&] { return torchops::make_torch_adam(half, n); });
#else
    TorchBaseline torch{std::nullopt, *torch_unusable_reason()};
#endif
    run_ours(state, n * adam_bytes_per_element(half), ours, torch);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void BM_TorchAdam(benchmark::State& state, Dtype half) {
  (void)half;
  if (auto why = torch_unusable_reason()) {
    state.SkipWithError(why->c_str());
    return;
  }
#ifdef GPUCHECK_BENCH_TORCH
  const auto n = static_cast<std::size_t>(state.range(0));
  try {
    torchops::TorchGpuOp op = torchops::make_torch_adam(half, n);
    run_torch(state, n * adam_bytes_per_element(half), op.run, op.sync, op.what);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
#endif
}

// ---- cross-entropy ----------------------------------------------------------------------------------------

// Forward reads the logits and writes the softmax; backward reads it and writes the gradient in place: 4
// passes over rows x vocab elements any implementation must make (targets, losses: negligible). Our forward
// reads the logits twice (chunk statistics, then softmax), 5 passes, so it can reach at most 0.8 of the copy.
std::size_t ce_bytes(Dtype dtype, std::size_t rows, std::size_t vocab) { return 4 * rows * vocab * element_size(dtype); }

void BM_CrossEntropyFwdBwd(benchmark::State& state, Dtype dtype) {
  if (!gpu_or_skip(state)) return;
  const auto rows = static_cast<std::size_t>(state.range(0)), vocab = static_cast<std::size_t>(state.range(1));
  try {
    // One random row (N(0, 3) logits), replicated on the device: realistic values without generating
    // rows x vocab on the host.
    CeCase one = make_ce_case(dtype, 1, vocab, vocab, CeCaseOptions{0.0, false, 3.0});
    const std::size_t row_bytes = one.logits.bytes();
    DeviceBuffer x(rows * row_bytes), sm(rows * row_bytes), t(rows * 4), loss(rows * 4), go(rows * 4);
    DeviceBuffer ws(ce_forward_workspace_bytes(rows, vocab));
    x.upload(one.logits.data(), row_bytes);
    for (std::size_t r = 1; r < rows; ++r)
      cuda_check(cudaMemcpy(x.as<char>() + r * row_bytes, x.get(), row_bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy D2D");
    std::vector<std::int32_t> target(rows);
    std::mt19937 rng(7);
    for (auto& v : target) v = static_cast<std::int32_t>(rng() % vocab);
    t.upload(target.data(), rows * 4);
    std::vector<float> ones(rows, 1.0f);
    go.upload(ones.data(), rows * 4);
    Enqueue ours = [&] {
      cuda_check(launch_ce_forward(dtype, rows, vocab, x.get(), sm.get(), t.as<std::int32_t>(), -100, loss.as<float>(),
                                   ws.get(), nullptr),
                 "launch_ce_forward");
      cuda_check(launch_ce_backward_inplace(dtype, rows, vocab, sm.get(), t.as<std::int32_t>(), go.as<float>(), nullptr),
                 "launch_ce_backward_inplace");
    };
#ifdef GPUCHECK_BENCH_TORCH
    TorchBaseline torch = measure_torch([&] { return torchops::make_torch_cross_entropy(dtype, rows, vocab); });
#else
    TorchBaseline torch{std::nullopt, *torch_unusable_reason()};
#endif
    run_ours(state, ce_bytes(dtype, rows, vocab), ours, torch);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void BM_TorchCrossEntropyFwdBwd(benchmark::State& state, Dtype dtype) {
  (void)dtype;
  if (auto why = torch_unusable_reason()) {
    state.SkipWithError(why->c_str());
    return;
  }
#ifdef GPUCHECK_BENCH_TORCH
  const auto rows = static_cast<std::size_t>(state.range(0)), vocab = static_cast<std::size_t>(state.range(1));
  try {
    torchops::TorchGpuOp op = torchops::make_torch_cross_entropy(dtype, rows, vocab);
    run_torch(state, ce_bytes(dtype, rows, vocab), op.run, op.sync, op.what);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
#endif
}

// Shapes. Adam: 16M and 256M parameters at offset 0, and 256M + 3 at a 3-element offset into every
// buffer (BMTrain's views: scalar head, vector body, scalar tail). Cross-entropy: 4096 rows of the
// CPM-Bee (86583), Llama-3 (128256) and Gemma (256000) vocabularies.
void adam_shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "offset"})->Args({1 << 24, 0})->Args({1 << 28, 0})->Args({(1 << 28) + 3, 3});
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
void ce_shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "vocab"})->Args({4096, 86583})->Args({4096, 128256})->Args({4096, 256000});
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Adam, fp16, Dtype::kFp16)->Apply(adam_shapes);
BENCHMARK_CAPTURE(BM_Adam, bf16, Dtype::kBf16)->Apply(adam_shapes);
BENCHMARK_CAPTURE(BM_Adam, fp32, Dtype::kFp32)->Apply(adam_shapes);
BENCHMARK_CAPTURE(BM_TorchAdam, fp16, Dtype::kFp16)->Apply(adam_shapes);
BENCHMARK_CAPTURE(BM_TorchAdam, bf16, Dtype::kBf16)->Apply(adam_shapes);
BENCHMARK_CAPTURE(BM_TorchAdam, fp32, Dtype::kFp32)->Apply(adam_shapes);
BENCHMARK_CAPTURE(BM_CrossEntropyFwdBwd, fp16, Dtype::kFp16)->Apply(ce_shapes);
BENCHMARK_CAPTURE(BM_CrossEntropyFwdBwd, bf16, Dtype::kBf16)->Apply(ce_shapes);
BENCHMARK_CAPTURE(BM_TorchCrossEntropyFwdBwd, fp16, Dtype::kFp16)->Apply(ce_shapes);
BENCHMARK_CAPTURE(BM_TorchCrossEntropyFwdBwd, bf16, Dtype::kBf16)->Apply(ce_shapes);
BENCHMARK_MAIN();
