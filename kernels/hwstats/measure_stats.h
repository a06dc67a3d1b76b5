#pragma once
// Statistics the bandwidth and stress probes report: median of N runs, coefficient of variation, GB/s in
// 1e9 bytes (as nvbandwidth and nccl-tests count), and the PCIe link's theoretical rate from
// data/links/pcie.json (generation x width).
#include <cstddef>
#include <optional>
#include <string>
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

/// Per-lane GB/s by generation, loaded from pcie.json.
struct PcieRates {
  std::vector<double> lane_GBps;  // index = generation (0 unused)
  std::string source;
  /// lane rate x width; nullopt for an unknown generation or a zero width.
  std::optional<double> link_GBps(unsigned gen, unsigned width) const;
};

/// Reads the table (throws std::runtime_error naming the file on a missing or malformed one; each
/// generation's lane_GBps must equal gigatransfers_per_s x efficiency / 8).
PcieRates load_pcie_rates(const std::string& path);

}  // namespace gpucheck::kernels
