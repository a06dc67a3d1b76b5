// training.step's step time with Google Benchmark's manual timing: the ZeRO-3 step the probe runs
// (probes/training_step), over MPI on host memory with the kernels' shared element code.
//
//   bench_training                     # one rank (MPI singleton)
//   mpirun -np 2 bench_training        # real ranks; rank 0 reports
//
// An iteration is one step, timed as the slowest rank's own work (collectives and math; the per-stage
// checks against double precision are not timed). Baseline in the same run: the step's GEMMs alone on
// the same host GEMM (step_vs_gemms = step time / GEMM time: what the collectives, cross-entropy, the
// overflow check and Adam add).
#include <benchmark/benchmark.h>

#include <chrono>

#include <mpi.h>

#include "../rank_benchmarks.h"
#include "mpi_transport.h"
#include "reference.h"
#include "step_kernels.h"
#include "zero_step.h"

namespace {

using namespace gpucheck::training;

double slowest_rank(double seconds) {
  double out = seconds;
  MPI_Allreduce(&seconds, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

// One step's GEMMs (forward, and the backward's two per layer) on the host GEMM, in seconds.
double gemm_seconds(const StepConfig& c) {
  const std::size_t T = c.tokens, d = c.hidden, V = c.vocab;
  std::vector<float> x(T * std::max(d, V), 0.5f), w(V * d, 0.25f);
  auto t0 = std::chrono::steady_clock::now();
  for (int l = 0; l < c.linears; ++l) {
    benchmark::DoNotOptimize(gemm_device_math(c.dtype, T, d, d, MatView{x.data(), d, 1}, MatView{w.data(), 1, d}));
    benchmark::DoNotOptimize(gemm_device_math(c.dtype, d, d, T, MatView{x.data(), 1, d}, MatView{x.data(), d, 1}));
    benchmark::DoNotOptimize(gemm_device_math(c.dtype, T, d, d, MatView{x.data(), d, 1}, MatView{w.data(), d, 1}));
  }
  benchmark::DoNotOptimize(gemm_device_math(c.dtype, T, V, d, MatView{x.data(), d, 1}, MatView{w.data(), 1, d}));
  benchmark::DoNotOptimize(gemm_device_math(c.dtype, V, d, T, MatView{x.data(), 1, V}, MatView{x.data(), d, 1}));
  benchmark::DoNotOptimize(gemm_device_math(c.dtype, T, d, V, MatView{x.data(), V, 1}, MatView{w.data(), d, 1}));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_ZeroStep(benchmark::State& st, const char* level, Dtype dtype) {
  gpucheck::collectives::MpiTransport t(MPI_COMM_WORLD);
  StepConfig c = config_for_level(level);
  c.dtype = dtype;
  c.steps = 1;
  c.overflow_step = 0;  // every timed step is a full step
  const ReferenceRun ref = run_reference(c, t.world());
  HostStepKernels k;
  double step_total = 0, gemm_total = 0;
  for (auto _ : st) {
    RankOutcome out = run_zero_steps(c, t, k, ref, 60);
    const double s = slowest_rank(out.step_seconds.front());
    if (out.first) {
      st.SkipWithError(("the step diverged: " + out.first->sentence()).c_str());
      break;
    }
    st.SetIterationTime(s);
    step_total += s;
    gemm_total += slowest_rank(gemm_seconds(c));
  }
  st.counters["ranks"] = t.world();
  if (gemm_total > 0) st.counters["step_vs_gemms"] = step_total / gemm_total;
}

}  // namespace

// Fixed iteration counts: every rank must run the same number of steps (they are collective).
BENCHMARK_CAPTURE(BM_ZeroStep, quick_fp16, "quick", Dtype::kFp16)->Iterations(20)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ZeroStep, quick_bf16, "quick", Dtype::kBf16)->Iterations(20)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ZeroStep, standard_fp16, "standard", Dtype::kFp16)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  benchmark::Initialize(&argc, argv);
  gpucheck::bench::run_benchmarks_reporting_on_rank0(rank);
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
