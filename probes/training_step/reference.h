#pragma once
// The single-process double-precision reference of the same N steps: every rank's micro-batch on one
// model, exact gradients (no loss scale, no 16-bit rounding), the same overflow skip and loss-scale
// schedule as BMTrain's OptimManager, Adam in double on the whole model.
#include <vector>

#include "step_config.h"

namespace gpucheck::training {

struct ReferenceRun {
  std::vector<std::vector<double>> loss;                  // [step - 1][rank]: mean cross-entropy
  std::vector<std::vector<std::vector<double>>> weights;  // [step - 1][layer]: after the step
  std::vector<double> scale;                              // [step - 1]: loss scale the step ran with
  std::vector<bool> skipped;                              // [step - 1]: overflow, no update
};

/// Loss scale bookkeeping of OptimManager (spec: divide by 2 on overflow down to 1, double after
/// scale_window good steps), shared by the distributed step and the reference.
struct LossScaler {
  double scale = 1;
  int good = 0;
  /// After a step: returns the factor the state must be rescaled by (1 when unchanged).
  double after_step(bool overflow, int window);
};

ReferenceRun run_reference(const StepConfig& c, int world);

}  // namespace gpucheck::training
