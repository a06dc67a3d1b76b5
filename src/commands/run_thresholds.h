#pragma once
// `gpucheck run`'s threshold verdicts (checks/acceptance/thresholds.h) on the probes' metrics: where the
// run's findings are gathered, after the probes and before the report is written. The inputs that can be
// wrong (a config file, a baseline report) are read before any probe starts, so a bad file stops the run
// at once with a one-line error (exit 2) instead of after minutes of probes.
#include <string>
#include <vector>

#include "checks/acceptance/thresholds.h"
#include "core/finding.h"

namespace gpucheck::commands {

struct RunThresholds {
  acceptance::ThresholdConfig config;
  std::vector<Finding> baseline;  // the baseline report's probe findings
  std::vector<acceptance::GpuIdentity> baseline_gpus;
  std::string baseline_origin;
};

/// `config_path` / `baseline_path` may be empty (defaults, no baseline rule). Throws InputError.
RunThresholds prepare_run_thresholds(const std::string& config_path, const std::string& baseline_path);

/// The `thresholds` section's findings for these probe findings; empty when none carries a contract
/// metric. Reads the product data from data_path("devices") and this node's GPUs from NVML (through the
/// inventory's gpucheck-gpuinfo child) only then.
std::vector<Finding> judge_run_thresholds(const std::vector<Finding>& probe_findings, const RunThresholds& prepared);

/// GPU identities from an inventory's JSON `gpus` array (a report's embedded inventory).
std::vector<acceptance::GpuIdentity> gpu_identities_from_inventory(const nlohmann::json& inventory);

}  // namespace gpucheck::commands
