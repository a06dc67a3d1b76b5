#pragma once
// A benchmark over several runs (oldest first, the last one the run being judged): where its time stepped.
// One noisy run among many moves the pooled samples little; a step that persists shows as the split of
// the sequence into "before" and "after" with the smallest p-value.
#include <string>
#include <vector>

#include "checks/regression/gate.h"

namespace gpucheck::regression {

struct StepChange {
  std::size_t split = 0;        // runs[split] is the first run after the step (1..runs.size()-1)
  SampleComparison comparison;  // pooled runs[0, split) vs pooled runs[split, end)
};

/// Tries every split; the step is the one with the smallest p among those whose change exceeds the
/// threshold (the latest such split on equal p), else the split before the last run. Needs at least two
/// runs, each with a sample; throws std::invalid_argument otherwise.
StepChange find_step(const std::vector<std::vector<double>>& runs, const GateOptions& options);

}  // namespace gpucheck::regression
