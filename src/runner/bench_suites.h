#pragma once
// Runs the Google Benchmark suites (data/bench/suites.json names them; the executables sit next to
// gpucheck, or in $GPUCHECK_BENCH_DIR) as isolated children with argument vectors, and merges their JSON
// output into one Google Benchmark document.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"

namespace gpucheck::runner {

struct BenchSuite {
  std::string name;        // "kernels_cpu"
  std::string executable;  // absolute path
  std::string subject;
  bool gpu = false;
  double timeout_s = 1800;
};

/// Where the benchmark executables are: $GPUCHECK_BENCH_DIR, else the directory of the running gpucheck.
std::string bench_dir();

/// Reads the suite list; throws InputError naming the file when it is malformed.
std::vector<BenchSuite> load_bench_suites(const std::string& manifest, const std::string& dir);

struct BenchOptions {
  int repetitions = 9;
  std::string filter;            // --benchmark_filter (a regex over benchmark names); "" = all
  double min_time_s = 0;         // --benchmark_min_time; 0 = each benchmark's own
  std::vector<std::string> only; // suite names; empty = all
  double timeout_s = 0;          // overrides each suite's; 0 = keep
  /// Test-only: the `regression` suite does this many times the work per iteration (a run made slower on
  /// purpose, to prove the gate fails it). 1 = normal. Passed as GPUCHECK_BENCH_TEST_SLOWDOWN.
  double test_slowdown = 1;
};

struct SuiteRun {
  BenchSuite suite;
  enum class Outcome { kRan, kNotBuilt, kNoMatch, kFailed } outcome = Outcome::kFailed;
  std::string reason;              // why it did not run, or how it failed (exit status, stderr tail)
  nlohmann::json document;         // the suite's own JSON output (kRan)
  double seconds = 0;
};

/// The argument vector for one suite.
std::vector<std::string> suite_argv(const BenchSuite& s, const BenchOptions& o);

/// Runs each selected suite in turn. An unknown name in `only` is an InputError.
std::vector<SuiteRun> run_bench_suites(const std::vector<BenchSuite>& suites, const BenchOptions& o);

/// One Google Benchmark document from the suites that ran: the first one's context (date, host, CPUs,
/// caches, load) plus "gpucheck" = `gpucheck_context` and "suites" = {name: executable}, and every
/// suite's benchmark rows, each tagged with "suite".
nlohmann::json merge_suite_documents(const std::vector<SuiteRun>& runs, const nlohmann::json& gpucheck_context);

}  // namespace gpucheck::runner
