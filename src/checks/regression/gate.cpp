#include "checks/regression/gate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gpucheck::regression {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kRegression: return "regression";
    case Verdict::kImprovement: return "improvement";
    case Verdict::kUnchanged: return "unchanged";
    case Verdict::kUndecidable: return "undecidable";
  }
  return "unchanged";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

namespace {
std::string format(const char* fmt, double a, double b = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}
}  // namespace

SampleComparison compare_samples(const std::vector<double>& base, const std::vector<double>& current,
                                 const GateOptions& o) {
  if (base.empty() || current.empty()) throw std::invalid_argument("compare_samples: an empty sample");
  SampleComparison c;
  c.base_median = median(base);
  c.new_median = median(current);
  if (!(c.base_median > 0)) throw std::invalid_argument("compare_samples: the base median is not positive");
  c.change = c.new_median / c.base_median - 1.0;
  c.test = mann_whitney_u(base, current);
  const double floor = smallest_p(base.size(), current.size());
  const bool significant = c.test.p < o.alpha;
  if (floor >= o.alpha) {
    c.verdict = Verdict::kUndecidable;
    c.reason = std::to_string(base.size()) + " vs " + std::to_string(current.size()) +
               " repetitions cannot be significant" + format(" at alpha %.3g (smallest possible p %.3g)", o.alpha, floor);
  } else if (c.change > o.threshold && significant) {
    c.verdict = Verdict::kRegression;
    c.reason = format("median %+.1f%% (threshold %.1f%%)", 100 * c.change, 100 * o.threshold) +
               format(", p = %.2g < alpha %.3g", c.test.p, o.alpha);
  } else if (c.change < -o.threshold && significant) {
    c.verdict = Verdict::kImprovement;
    c.reason = format("median %+.1f%%, p = %.2g", 100 * c.change, c.test.p);
  } else {
    c.verdict = Verdict::kUnchanged;
    c.reason = std::abs(c.change) <= o.threshold
                   ? format("median %+.1f%% is within the threshold %.1f%%", 100 * c.change, 100 * o.threshold)
                   : format("median %+.1f%% is not significant (p = %.2g", 100 * c.change, c.test.p) +
                         format(" >= alpha %.3g)", o.alpha);
  }
  return c;
}

}  // namespace gpucheck::regression
