// Our GPU kernels vs the installed BMTrain's on the same device buffers, same run, CUDA events on the
// legacy default stream (BMTrain's launchers are called with stream 0 through the embedded interpreter;
// both runtimes share the device's primary context, so one stream orders both), queued behind a gate
// kernel so the Python call is not timed (launch_gate.h). Inputs are non-zero (random). Counters:
// ours_ms, bmtrain_ms, speedup_vs_bmtrain (= bmtrain_ms / ours_ms, best of the iterations each).
// bmtrain comes from $GPUCHECK_PYTHON (else python3); without it, or without a GPU: SkipWithError.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "adam/adam_cuda.h"
#include "bmtrain_installed/bmtrain_peer.h"
#include "common/cuda_support.h"
#include "cross_entropy/ce_cuda.h"
#include "cross_entropy/ce_reference.h"
#include "adam_bench_data.h"
#include "launch_gate.h"

using namespace gpucheck::kernels;

namespace {

// The module, loaded once per process; nullptr and `why` when it cannot be used.
bmtrain::NativeModule* bmtrain_module(std::string& why) {
  static std::optional<bmtrain::NativeModule> module;
  static std::string error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const char* env = std::getenv("GPUCHECK_PYTHON");
    std::string python = env && *env ? env : "python3";
    bmtrain::Install in = bmtrain::locate(python);
    if (!in.found || in.native_modules.empty()) {
      error = "bmtrain with its native module is not installed in " + python + " (set GPUCHECK_PYTHON)";
    } else {
      std::string embed_error, load_error;
      module = bmtrain::NativeModule::load(in, in.native_modules.front(), embed_error, load_error);
      if (!module) error = "bmtrain's module cannot be used in process: " + embed_error + load_error;
    }
  }
  why = error;
  return module ? &*module : nullptr;
}

bool ready(benchmark::State& state, bmtrain::NativeModule*& module) {
  if (auto why = cuda_unavailable_reason()) {
    state.SkipWithError(why->c_str());
    return false;
  }
  std::string why;
  module = bmtrain_module(why);
  if (!module) state.SkipWithError(why.c_str());
  return module != nullptr;
}

// Best milliseconds per call over 5 gated batches of 10 calls (launch_gate.h): the start event, the calls
// and the stop event are queued behind a gate kernel, so the time is GPU time only, never the embedded
// Python call around BMTrain's launchers (nor our C call, timed the same way).
float best_ms(const std::function<std::string()>& launch, std::string& error) {
  static LaunchGate gate;
  float best = 1e30f;
  for (int i = 0; i < 5 && error.empty(); ++i) {
    float ms = gate.gated_ms(launch, 10, error);
    if (error.empty()) best = std::min(best, ms);
  }
  return best;
}

void compare(benchmark::State& state, const std::function<std::string()>& ours,
             const std::function<std::string()>& theirs, std::size_t bytes) {
  std::string error;
  float theirs_ms = best_ms(theirs, error);
  // A launcher that raised, or whose own CUDA runtime failed: no time exists for it.
  if (!error.empty()) return state.SkipWithError(("bmtrain did not run: " + error).c_str());
  if (auto e = cudaGetLastError(); e != cudaSuccess)
    return state.SkipWithError(("bmtrain did not run: " + cuda_error_text(e)).c_str());
  float ours_best = 1e30f;
  for (auto _ : state) {
    float ms = best_ms(ours, error);
    if (!error.empty()) return state.SkipWithError(error.c_str());
    ours_best = std::min(ours_best, ms);
    state.SetIterationTime(ms / 1e3);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes * state.iterations()));
  state.counters["ours_ms"] = ours_best;
  state.counters["bmtrain_ms"] = theirs_ms;
  state.counters["speedup_vs_bmtrain"] = theirs_ms / ours_best;
}

std::string cuda_result(cudaError_t e) { return e == cudaSuccess ? "" : cuda_error_text(e); }

void BM_AdamFp16VsBmtrain(benchmark::State& state) {
  bmtrain::NativeModule* module = nullptr;
  if (!ready(state, module)) return;
  std::size_t n = static_cast<std::size_t>(state.range(0));
  AdamHyper h = adam_with_step(AdamHyper{}, 3);
  DeviceBuffer p(n * 4), ph(n * 2), g(n * 2), m(n * 2), v(n * 4);
  fill_adam_inputs(AdamVariant::kFp16, n, h, p.get(), g.get(), m.get(), v.get());  // non-zero: the real path
  auto a = [](const DeviceBuffer& b) { return bmtrain::address(b.get()); };
  compare(
      state,
      [&] { return cuda_result(launch_adam_fp16(n, p.as<float>(), ph.as<std::uint16_t>(), g.as<std::uint16_t>(),
                                                m.as<std::uint16_t>(), v.as<float>(), h, nullptr)); },
      [&] {
        return module->call("adam_fp16_launcher",
                            {static_cast<std::int64_t>(n), a(p), a(ph), a(g), a(m), a(v), double(h.beta1),
                             double(h.beta2), double(h.eps), double(h.lr), double(h.scale), double(h.weight_decay),
                             double(h.bias_correction1), double(h.bias_correction2), std::uint64_t{0}});
      },
      n * 24);  // param rw 8, param_h w 2, grad r 2, m rw 4, v rw 8
}

void BM_CrossEntropyFp16VsBmtrain(benchmark::State& state) {
  bmtrain::NativeModule* module = nullptr;
  if (!ready(state, module)) return;
  std::size_t rows = static_cast<std::size_t>(state.range(0)), vocab = static_cast<std::size_t>(state.range(1));
  CeCase c = make_ce_case(Dtype::kFp16, rows, vocab, 1, CeCaseOptions{});
  DeviceBuffer x = to_device(c.logits), sm(c.logits.bytes()), t(rows * 4), loss(rows * 4), go(rows * 4);
  DeviceBuffer ws(ce_forward_workspace_bytes(rows, vocab));
  t.upload(c.target.data(), rows * 4);
  std::vector<float> grad_out(rows, 1.0f / static_cast<float>(rows));  // non-zero: the backward does its work
  go.upload(grad_out.data(), rows * 4);
  auto a = [](const DeviceBuffer& b) { return bmtrain::address(b.get()); };
  const auto m = static_cast<std::int64_t>(rows), n = static_cast<std::int64_t>(vocab);
  compare(
      state,
      [&] {
        cudaError_t e = launch_ce_forward(Dtype::kFp16, rows, vocab, x.get(), sm.get(), t.as<std::int32_t>(), -100,
                                          loss.as<float>(), ws.get(), nullptr);
        if (e == cudaSuccess)
          e = launch_ce_backward_inplace(Dtype::kFp16, rows, vocab, sm.get(), t.as<std::int32_t>(), go.as<float>(), nullptr);
        return cuda_result(e);
      },
      [&] {
        std::string e = module->call("cross_entropy_forward_fp16_launcher",
                                     {m, n, a(x), a(t), a(sm), a(loss), std::int64_t{-100}, std::uint64_t{0}});
        if (e.empty())
          e = module->call("cross_entropy_backward_inplace_fp16_launcher",
                           {m, n, a(go), a(t), a(sm), std::int64_t{-100}, std::uint64_t{0}});
        return e;
      },
      c.logits.bytes() * 5);  // forward reads x twice and writes softmax; backward reads and writes it
}

}  // namespace

BENCHMARK(BM_AdamFp16VsBmtrain)->Arg(1 << 24)->Arg(1 << 28)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CrossEntropyFp16VsBmtrain)->Args({4096, 86583})->Args({64, 256000})->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
