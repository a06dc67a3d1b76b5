#include "hwstats/measure_stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpucheck::kernels {

RunStats summarize(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("summarize: no runs");
  RunStats s;
  s.n = v.size();
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  if (v.size() > 1) {
    double sq = 0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(v.size() - 1));
    s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
  }
  return s;
}

double gigabytes_per_s(double bytes, double seconds) {
  if (!(seconds > 0)) throw std::invalid_argument("gigabytes_per_s: seconds must be > 0");
  return bytes / seconds / 1e9;
}

}  // namespace gpucheck::kernels
