#include "hwstats/stress_rules.h"

#include <algorithm>

#include "hwstats/measure_stats.h"

namespace gpucheck::kernels {

bool throttle_persists(const std::vector<std::optional<unsigned long long>>& reasons, unsigned long long mask) {
  std::vector<unsigned long long> read;
  for (auto& r : reasons)
    if (r) read.push_back(*r);
  if (read.size() < 2) return false;
  std::size_t tail = std::max<std::size_t>(2, (read.size() + 3) / 4);
  tail = std::min(tail, read.size());
  for (std::size_t i = read.size() - tail; i < read.size(); ++i)
    if (!(read[i] & mask)) return false;
  return true;
}

std::vector<std::size_t> far_below_peers(const std::vector<double>& values, double share) {
  std::vector<std::size_t> out;
  if (values.size() < 2) return out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<double> others;
    for (std::size_t j = 0; j < values.size(); ++j)
      if (j != i) others.push_back(values[j]);
    if (values[i] < share * summarize(others).median) out.push_back(i);
  }
  return out;
}

}  // namespace gpucheck::kernels
