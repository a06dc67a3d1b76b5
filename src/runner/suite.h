#pragma once
// Runs the selected probes one after another (GPU probes must not compete for the device) and always
// reports every probe it started. Every process a probe left behind is ended before the next starts
// (runner/containment.h). When gpucheck is asked to stop (core/interrupt.h) the running probe is stopped
// and no further probe starts: the result then holds fewer findings than probes.
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
