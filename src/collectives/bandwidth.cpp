#include "collectives/bandwidth.h"

#include <algorithm>

namespace gpucheck::collectives {

double bus_factor(CollOp op, int world) {
  double n = world;
  switch (op) {
    case CollOp::kAllReduce: return 2.0 * (n - 1) / n;
    case CollOp::kAllGather:
    case CollOp::kReduceScatter: return (n - 1) / n;
    case CollOp::kBroadcast: return 1.0;
  }
  return 1.0;
}

std::size_t algo_bytes(CollOp op, std::size_t count, DType t, int world) {
  std::size_t b = count * dtype_size(t);
  if (op == CollOp::kAllGather || op == CollOp::kReduceScatter) b *= static_cast<std::size_t>(world);
  return b;
}

double algbw_gbps(std::size_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0.0;
}

double busbw_gbps(CollOp op, std::size_t bytes, double seconds, int world) {
  return algbw_gbps(bytes, seconds) * bus_factor(op, world);
}

std::size_t plateau_points(std::size_t sizes) {
  std::size_t k = std::max<std::size_t>(3, (sizes + 3) / 4);
  return std::min(k, sizes);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::optional<double> plateau_busbw(std::vector<std::pair<std::size_t, double>> points) {
  if (points.empty()) return std::nullopt;
  std::sort(points.begin(), points.end(), [](auto& a, auto& b) { return a.first > b.first; });
  std::size_t k = plateau_points(points.size());
  std::vector<double> top;
  for (std::size_t i = 0; i < k; ++i) top.push_back(points[i].second);
  return median(top);
}

}  // namespace gpucheck::collectives
