#pragma once
// `gpucheck compare` as one call: read BASE and NEW (or pick BASE from --baseline-dir, or a history from
// --history), check their contexts, gate every benchmark, and put the verdicts into a Report.
#include <string>

#include "checks/regression/comparison.h"
#include "model/report.h"

namespace gpucheck::report {

struct CompareRequest {
  std::string base;          // BASE document ("" with --baseline-dir or --history)
  std::string current;       // NEW document
  std::string baseline_dir;  // pick the newest document with NEW's key
  std::string history_dir;   // every document with NEW's key, oldest first: step-change detection
  regression::CompareOptions options;
};

/// Fills `rep`: section "benchmarks" (the context finding, if any, then one Finding per benchmark, see
/// regression::compare_documents), notes on benchmarks present in one run only, details {mode, base,
/// new, key, threshold, alpha, counts}. InputError for unreadable documents, bad thresholds, or a
/// --baseline-dir / --history that is not a directory. No baseline with NEW's key: one skip Finding
/// `compare.no_baseline` (exit 0, the first run of a new configuration).
Report compare_report(const CompareRequest& req, Report rep);

}  // namespace gpucheck::report
