#pragma once
// `gpucheck compare BASE NEW` (or NEW with --baseline-dir / --history): read the benchmark documents, pick
// the baseline(s) with NEW's key from a directory, then report::compare_report gates every benchmark.
#include <string>

#include "checks/regression/comparison.h"
#include "model/report.h"

namespace gpucheck::commands {

struct CompareRequest {
  std::string base;          // BASE document ("" with --baseline-dir or --history)
  std::string current;       // NEW document
  std::string baseline_dir;  // pick the newest document with NEW's key
  std::string history_dir;   // every document with NEW's key, oldest first: step-change detection
  regression::CompareOptions options;
};

/// InputError for unreadable documents, bad thresholds, or a --baseline-dir / --history that is not a
/// directory; documents of a directory that cannot be read are skipped with a note.
model::Report compare(const CompareRequest& req, model::Report base);

}  // namespace gpucheck::commands
