#pragma once
// training.step's result: one world's outcome (every rank, every dtype) as a Finding, and the Findings of
// several worlds (np=2, np=4 on the host path) as one.
#include <string>
#include <vector>

#include "core/finding.h"
#include "reference.h"
#include "step_config.h"
#include "zero_step.h"

namespace gpucheck::training {

struct DtypeOutcome {
  StepConfig config;
  ReferenceRun reference;
  std::vector<RankOutcome> ranks;  // in rank order
};

/// Fills r (status, summary, metrics, devices, details) from one world's outcomes; `transport` names the
/// path ("mpi" on host memory).
void fill_world_result(const std::vector<DtypeOutcome>& outcomes, int world, const std::string& transport, Finding& r);

/// One Finding from the results of several worlds, each already a complete Finding.
void merge_worlds(const std::vector<std::pair<int, Finding>>& worlds, Finding& r);

}  // namespace gpucheck::training
