#pragma once
// THE PCIe link-rate table (data/links/pcie.json, sourced): per-lane GB/s (1e9 bytes) per direction by
// generation, after line encoding. device.copy divides its measured GB/s by it for the link ratio, and the
// thresholds hold pinned host<->device copies against it (checks/acceptance/device_catalog.h).
#include <optional>
#include <string>
#include <vector>

namespace gpucheck {

struct PcieRates {
  std::vector<double> lane_GBps;  // index = generation (0 unused)
  std::string source;
  /// lane rate x width; nullopt for an unknown generation or a zero width.
  std::optional<double> link_GBps(unsigned gen, unsigned width) const;
};

/// Reads the table; throws InputError naming the file on a missing or malformed one, one without a
/// source, or a generation whose lane_GBps is not gigatransfers_per_s x efficiency / 8.
PcieRates load_pcie_rates(const std::string& path);

}  // namespace gpucheck
