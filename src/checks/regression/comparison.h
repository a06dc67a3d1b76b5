#pragma once
// `gpucheck compare` as pure functions: two benchmark documents (or a history of them and a new one) in,
// Findings out. One Finding per benchmark present in both; the context check decides first whether the
// numbers may be compared at all.
#include <optional>
#include <string>
#include <vector>

#include "checks/regression/bench_context.h"
#include "checks/regression/benchmark_document.h"
#include "checks/regression/gate.h"
#include "core/finding.h"

namespace gpucheck::regression {

struct CompareOptions {
  GateOptions gate;
  bool allow_mismatch = false;  // compare across different hardware+software combinations anyway
};

struct ContextCheck {
  BenchContext base, current;
  bool base_found = false, current_found = false;  // written by `gpucheck bench`
  std::vector<ContextDifference> differences;
  bool refused = false;  // the contexts differ in a key field (or one is missing) and mismatches are not allowed
  /// The finding about it: `compare.context_mismatch` (error when refused, warn when allowed),
  /// `compare.context_unknown` for a document without gpucheck's context, nullopt when the keys match.
  std::optional<Finding> finding;
};

ContextCheck check_contexts(const BenchmarkDocument& base, const BenchmarkDocument& current, bool allow_mismatch);

struct Comparison {
  ContextCheck context;
  std::vector<Finding> benchmarks;   // empty when refused
  std::vector<std::string> only_base, only_current;  // benchmarks present in one document
};

/// BASE against NEW. Each benchmark's Finding: id `bench.regression` (fail), `bench.improvement` (info),
/// `bench.unchanged` (pass), `bench.undecidable` (skip: too few repetitions) or `bench.skipped` (skip:
/// the benchmark reported an error in either run); title = the benchmark's name; metrics base_ns, new_ns,
/// change_pct, p_value; details {name, verdict, change, base {median_ns, times_ns}, new {...}, u, p,
/// exact, ties, threshold, alpha, counters {base, new}: the user counters of each run's first repetition}.
Comparison compare_documents(const BenchmarkDocument& base, const BenchmarkDocument& current, const CompareOptions& o);

/// `compare.nothing_measured` (error: no verdict, exit 3) when the comparison was not refused and not one
/// benchmark was measured in both runs: NEW has no benchmark of BASE, or only ones that errored or skipped.
/// A regression gate must not pass a bench run whose suites crashed or skipped everything.
std::optional<Finding> nothing_measured(const Comparison& c, const std::string& current_name);

/// details.counters as compare_documents writes it; its one reader is model::benchmark_new_counter (the HTML
/// report's kernel-share chart reads NEW's ratio_to_copy so).
nlohmann::json counters_details(const std::map<std::string, double>& base, const std::map<std::string, double>& current);

/// NEW against a history (oldest first; documents with NEW's key, picked by the caller): per benchmark,
/// the step change over history + NEW (history.h). The Finding is as above, judged on the step, with
/// details.step {at: the first run after it (a document name), runs_before, runs_after}.
Comparison compare_history(const std::vector<BenchmarkDocument>& history, const BenchmarkDocument& current,
                           const CompareOptions& o);

}  // namespace gpucheck::regression
