#pragma once
// `gpucheck bench`'s report, from what commands::bench did: one Finding per suite that ran, the run's stop
// if it was interrupted, and where the document went.
#include <string>
#include <vector>

#include "checks/regression/bench_context.h"
#include "model/report.h"
#include "runner/bench_suites.h"

namespace gpucheck::report {

struct BenchOutcome {
  std::vector<runner::BenchSuite> suites;  // every suite known (for what an interrupted run did not reach)
  std::vector<std::string> only;           // --suite: the suites asked for ("" = all)
  std::vector<runner::SuiteRun> runs;      // the suites that ran, in order
  int interrupted_by = 0;                  // the signal that stopped the run; 0 when it finished
  std::string document;                    // where the benchmark document was written
  regression::BenchContext context;        // this machine's hardware+software, and its key
};

/// Fills `rep`: section "suites", one Finding per suite (id bench.suite.<name>: pass when it ran, with
/// its benchmarks' skip reasons as evidence; skip when not built, no benchmark matched, or every
/// benchmark skipped; error when it crashed, timed out or wrote no JSON), bench.incomplete (error) when
/// interrupted, details {document, key, context, benchmarks, skipped}.
model::Report bench_report(const BenchOutcome& o, model::Report rep);

/// The tool's build as the context names it: "cuda 12.4 archs 80;90 nccl torch" or "no cuda".
std::string tool_build_description();

}  // namespace gpucheck::report
