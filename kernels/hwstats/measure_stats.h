#pragma once
// Statistics the bandwidth and stress probes report: median of N runs, coefficient of variation, GB/s in
// 1e9 bytes (as nvbandwidth and nccl-tests count). The PCIe link's theoretical rate is core/pcie_rates.h.
#include <cstddef>
#include <vector>

namespace gpucheck::kernels {

struct RunStats {
  std::size_t n = 0;
  double median = 0, mean = 0, stddev = 0, min = 0, max = 0;
  double cv = 0;  // sample standard deviation / mean; 0 for fewer than 2 runs
};

/// Throws std::invalid_argument on an empty sample.
RunStats summarize(std::vector<double> values);

/// bytes / seconds / 1e9; throws std::invalid_argument unless seconds > 0.
double gigabytes_per_s(double bytes, double seconds);

}  // namespace gpucheck::kernels
