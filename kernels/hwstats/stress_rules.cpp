#include "hwstats/stress_rules.h"

#include <algorithm>

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

}  // namespace gpucheck::kernels
