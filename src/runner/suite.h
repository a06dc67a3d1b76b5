#pragma once
// Runs the selected probes one after another (GPU probes must not compete for the device) and always
// reports every probe it started. Every process a probe left behind is ended before the next starts
// (runner/containment.h). When gpucheck is asked to stop (core/interrupt.h) the running probe is stopped
// and no further probe starts: the result then holds fewer findings than probes.
#include <functional>
#include <vector>

#include "checks/acceptance/kernel_log.h"
#include "runner/probe_runner.h"

namespace gpucheck::runner {

struct SuiteObserver {
  std::function<void(std::size_t index, std::size_t total, const ProbeSpec&)> on_start;
  std::function<void(std::size_t index, std::size_t total, const ProbeSpec&, const Finding&)> on_finish;
};

/// `windows`, when given, receives when each probe ran (its start and end in CLOCK_MONOTONIC and
/// CLOCK_REALTIME), one per Finding, for the kernel-log evidence (runner/kernel_log_source.h).
std::vector<Finding> run_suite(const std::vector<ProbeSpec>& probes, const RunOptions& options,
                              const SuiteObserver& observer = {},
                              std::vector<acceptance::ProbeWindow>* windows = nullptr);

}  // namespace gpucheck::runner
