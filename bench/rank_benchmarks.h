#pragma once
// Benchmarks of collective work under mpirun: every rank runs the same benchmarks (each iteration is a
// collective, so all must take part), and only rank 0 reports them.
#include <benchmark/benchmark.h>

#include <vector>

namespace gpucheck::bench {

/// Runs every registered benchmark on this rank; rank 0 reports them, the others stay silent.
inline void run_benchmarks_reporting_on_rank0(int rank) {
  class SilentReporter : public benchmark::BenchmarkReporter {
   public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
  };
  if (rank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
}

}  // namespace gpucheck::bench
