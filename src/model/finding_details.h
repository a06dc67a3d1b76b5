#pragma once
// Values read back from a Finding's details, next to the rule of the writer that wrote them, so a reader
// (the HTML charts) needs the model only, not the check that judged.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.h"

namespace gpucheck::model {

/// NEW's counter `name` of a compare benchmark Finding, from details.counters as
/// regression::compare_documents writes it (counters_details); nullopt when absent.
std::optional<double> benchmark_new_counter(const Finding& benchmark, const std::string& name);

/// The reference figure rule 1 (reference_share) held `metric` of GPU `device` against, read from a
/// `thresholds.<probe id>` Finding's details.verdicts[] as acceptance::judge_thresholds writes it;
/// nullopt when that rule did not apply.
std::optional<double> threshold_reference(const Finding& thresholds, const std::string& device, const std::string& metric);

/// One benchmark of `compare` (a "bench." Finding of section "benchmarks"), as
/// regression::compare_documents writes its details.
struct BenchmarkComparison {
  std::string name;      // the benchmark; the Finding's title when not told
  std::string verdict;   // regression, improvement, unchanged, undecidable, skipped
  bool measured = false;  // both sides have times and a test: the numbers below are set
  double base_median_ns = 0, new_median_ns = 0;
  double change = NAN;   // new/base - 1; NaN when not compared
  double p = 1;          // the U test's p-value
};
/// nullopt when `f` carries no comparison details.
std::optional<BenchmarkComparison> benchmark_comparison(const Finding& f);

/// One point of a collectives sweep (a `collectives.*` Finding's details.rows): message size against the
/// bus bandwidth when the run had more than one rank (else the algorithm bandwidth).
struct SweepPoint {
  std::string key;  // "sweep.all_reduce.sum.fp16.1048576.out"
  double bytes = 0, gbps = 0;
};
struct Sweep {
  bool bus_bandwidth = false;      // more than one rank: the points are bus bandwidth
  std::vector<SweepPoint> points;  // the exercised rows with a finite size and bandwidth, in order
};
/// The sweep of `f`; no points when `f` has no rows.
Sweep sweep_of(const Finding& f);

/// A plain-text table a probe attached to its Finding (details.table), shown verbatim; nullopt when none.
std::optional<std::string> plain_table(const Finding& f);

}  // namespace gpucheck::model
