#include "core/peer_outlier.h"

#include <algorithm>
#include <cmath>

namespace gpucheck {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double mad_of(const std::vector<double>& v, double median) {
  std::vector<double> dev;
  for (double x : v) dev.push_back(std::fabs(x - median));
  return median_of(dev);
}

PeerJudgement judge_peers(const std::vector<double>& values, const PeerRule& rule, bool higher_is_better) {
  PeerJudgement j;
  if (values.size() < rule.min_peers || values.empty()) return j;
  j.judged = true;
  j.median = median_of(values);
  j.mad = mad_of(values, j.median);
  j.floor = (higher_is_better ? 1 - rule.min_relative : 1 + rule.min_relative) * j.median;
  for (double v : values) {
    double worse = higher_is_better ? j.median - v : v - j.median;  // > 0: on the bad side
    double z = j.mad > 0 ? 0.6745 * worse / j.mad : 0;
    double rel = j.median != 0 ? worse / std::fabs(j.median) : 0;
    j.z.push_back(z);
    j.worse_by.push_back(rel);
    j.low.push_back(worse > 0 && rel > rule.min_relative && (j.mad == 0 || z > rule.outlier_z));
  }
  return j;
}

}  // namespace gpucheck
