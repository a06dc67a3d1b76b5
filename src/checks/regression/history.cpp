#include "checks/regression/history.h"

#include <cmath>
#include <stdexcept>

namespace gpucheck::regression {

namespace {
std::vector<double> pooled(const std::vector<std::vector<double>>& runs, std::size_t from, std::size_t to) {
  std::vector<double> out;
  for (std::size_t i = from; i < to; ++i) out.insert(out.end(), runs[i].begin(), runs[i].end());
  return out;
}
}  // namespace

StepChange find_step(const std::vector<std::vector<double>>& runs, const GateOptions& o) {
  if (runs.size() < 2) throw std::invalid_argument("find_step: fewer than two runs");
  for (const auto& r : runs)
    if (r.empty()) throw std::invalid_argument("find_step: a run without samples");
  StepChange best;
  best.split = runs.size() - 1;
  best.comparison = compare_samples(pooled(runs, 0, best.split), runs.back(), o);
  bool found = false;
  for (std::size_t s = 1; s < runs.size(); ++s) {
    SampleComparison c = compare_samples(pooled(runs, 0, s), pooled(runs, s, runs.size()), o);
    if (std::abs(c.change) <= o.threshold) continue;
    if (!found || c.test.p <= best.comparison.test.p) {
      best = {s, c};
      found = true;
    }
  }
  return best;
}

}  // namespace gpucheck::regression
