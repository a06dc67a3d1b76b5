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

PeerJudgement judge_peers(const std::vector<double>& values, const PeerRule& rule) {
  PeerJudgement j;
  if (values.size() < rule.min_peers || values.empty()) return j;
  j.judged = true;
  j.median = median_of(values);
  j.mad = mad_of(values, j.median);
  j.floor = (1 - rule.min_relative) * j.median;
  for (double v : values) {
    double z = j.mad > 0 ? 0.6745 * (j.median - v) / j.mad : 0;
    j.z.push_back(z);
    j.low.push_back(v < j.floor && (j.mad == 0 || z > rule.outlier_z));
  }
  return j;
}

}  // namespace gpucheck
