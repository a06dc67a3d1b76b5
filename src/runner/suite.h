#pragma once
// Runs the selected probes one after another (GPU probes must not compete for the device) and always
// reports every probe.
#include <functional>
#include <vector>

#include "runner/probe_runner.h"

namespace gpucheck::runner {

struct SuiteObserver {
  std::function<void(std::size_t index, std::size_t total, const ProbeSpec&)> on_start;
  std::function<void(std::size_t index, std::size_t total, const ProbeSpec&, const Finding&)> on_finish;
};

std::vector<Finding> run_suite(const std::vector<ProbeSpec>& probes, const RunOptions& options,
                              const SuiteObserver& observer = {});

}  // namespace gpucheck::runner
