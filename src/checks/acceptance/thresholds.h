#pragma once
// The threshold rules that catch slow-but-passing GPUs (docs/acceptance.md): each `higher` metric of the
// contract (device_catalog.h) fails when it is
//   1. below `reference_share` of its product's reference figure (rule "reference_share"),
//   2. a low outlier among the GPUs of this node with the same product (rule "peer_outlier", THE peer rule
//      of core/peer_outlier.h): robust z 0.6745 (median - value) / MAD above `outlier_z` AND value below
//      (1 - min_relative) x median (with MAD 0 only the second), with at least `min_peers` GPUs,
//   3. below `baseline_share` of the same GPU's value in an earlier report (rule "baseline"),
// and each count metric (bad_addresses, mismatches) fails above 0 (rule "nonzero"). Pure functions.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks/acceptance/device_catalog.h"
#include "core/finding.h"
#include "core/peer_outlier.h"

namespace gpucheck::acceptance {

struct ThresholdConfig {
  // By metric name, "default" for the rest. Sustained GEMM is held to less of the datasheet than a burst:
  // a healthy H200 ran stress.gemm (bf16 8192^3 with its bit-for-bit compare, 20 s) at 588 TFLOP/s = 0.59x
  // its 989.5 where cublas.gemm's bf16 burst reached 771 = 0.78x (gpu-check, 2026-12-04).
  std::map<std::string, double> reference_share{{"default", 0.6}, {"tflops_sustained", 0.5}};
  PeerRule peer;  // the config file's "outlier" {z, min_relative, min_peers}
  double baseline_share = 0.9;
  std::string origin = "built-in defaults";

  double share_for(const std::string& metric) const;
  nlohmann::json to_json() const;
};

/// The config file's JSON (shape in docs/acceptance.md); throws InputError naming `origin` and the field
/// for anything else (unknown keys included, so a typo is not silently ignored).
ThresholdConfig parse_threshold_config(const nlohmann::json& j, const std::string& origin);
/// Reads and parses a config file; throws InputError.
ThresholdConfig load_threshold_config(const std::string& path);

/// One GPU as NVML lists it (CUDA ordinal, identity, product).
struct GpuIdentity {
  std::string index, uuid, pci_bus_id, name;
  unsigned pci_device_id = 0;  // 0: unknown
};

struct ThresholdInput {
  std::vector<Finding> findings;        // this run's probe findings
  std::vector<GpuIdentity> gpus;        // this node's GPUs
  DeviceCatalog catalog;
  ThresholdConfig config;
  std::vector<Finding> baseline;        // an earlier run's probe findings (empty: no baseline rule)
  std::vector<GpuIdentity> baseline_gpus;
  std::string baseline_origin;          // the report file, for the verdict's words
};

/// One Finding `thresholds.<probe id>` per probe that reported contract metrics, with one device entry
/// per GPU (status: fail when a rule fired, pass when at least one rule could be applied and none fired,
/// info when no rule could be applied) and details.verdicts[] for every rule evaluated.
std::vector<Finding> judge_thresholds(const ThresholdInput& in);

// The reader of details.verdicts[] (the reference each GPU was held against) is model::threshold_reference.

}  // namespace gpucheck::acceptance
