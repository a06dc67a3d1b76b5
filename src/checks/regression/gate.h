#pragma once
// The regression gate for one benchmark: the relative change of the median time and a two-sided
// Mann-Whitney U test on the repetitions. A regression is a change worse than the threshold AND
// significant at alpha; an improvement never fails. Pure and deterministic: the same samples always give
// the same verdict.
#include <string>
#include <vector>

#include "checks/regression/mann_whitney.h"

namespace gpucheck::regression {

struct GateOptions {
  double threshold = 0.05;  // relative change of the median that counts (0.05 = 5% slower)
  double alpha = 0.01;      // significance level of the U test
};

enum class Verdict {
  kRegression,   // slower by more than the threshold, significant
  kImprovement,  // faster by more than the threshold, significant
  kUnchanged,    // within the threshold, or not significant
  kUndecidable,  // too few repetitions: no arrangement of them could be significant at alpha
};

const char* to_string(Verdict v);

struct SampleComparison {
  Verdict verdict = Verdict::kUnchanged;
  double base_median = 0, new_median = 0;  // same unit as the samples
  double change = 0;                       // new_median / base_median - 1 (> 0: slower)
  UTest test;
  std::string reason;                      // one sentence: why this verdict
};

/// Median of `v` (mean of the two middle values for an even count); 0 for an empty vector.
double median(std::vector<double> v);

/// Compares times (lower is better) of one benchmark. Throws std::invalid_argument for an empty sample or
/// a non-positive base median.
SampleComparison compare_samples(const std::vector<double>& base, const std::vector<double>& current,
                                 const GateOptions& options);

}  // namespace gpucheck::regression
