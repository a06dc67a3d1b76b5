#pragma once
// `gpucheck compare`'s report, built from documents already read (commands::compare reads them): check
// their contexts, gate every benchmark, and put the verdicts into a Report.
#include <string>
#include <vector>

#include "checks/regression/comparison.h"
#include "model/report.h"

namespace gpucheck::report {

struct CompareInput {
  regression::BenchmarkDocument current;
  std::string current_path;  // NEW as the user named it
  std::string mode;          // "pair", "baseline-dir" or "history"
  std::string dir;           // the --baseline-dir or --history directory ("" for a pair)
  /// pair: BASE; baseline-dir: the documents with NEW's key, oldest first (the newest is the baseline);
  /// history: every document with NEW's key, oldest first. Empty: no baseline with this key yet.
  std::vector<regression::BenchmarkDocument> bases;
  std::string base_path;     // pair: BASE as the user named it
  regression::CompareOptions options;
};

/// The key `gpucheck bench` writes into a document's context ("" when it has none).
std::string compare_key(const regression::BenchmarkDocument& d);

/// Fills `rep`: section "benchmarks" (the context finding, if any, then one Finding per benchmark, see
/// regression::compare_documents), notes on benchmarks present in one run only, details {mode, base,
/// new, key, threshold, alpha, counts}. No baseline with NEW's key: one skip Finding `compare.no_baseline`
/// (exit 0, the first run of a new configuration).
model::Report compare_report(const CompareInput& in, model::Report rep);

}  // namespace gpucheck::report
