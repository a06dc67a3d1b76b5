#pragma once
// One rank of BMTrain's ZeRO-3 step over a collectives::Transport (MPI on host memory here; the same
// calls NCCL makes on GPUs): all-gather a layer's 16-bit weights before its forward and again before its
// backward, forward and backward with the GPU's precision contract, cross-entropy through the kernels'
// own float code, the loss scale, reduce-scatter of each layer's gradient as soon as it is ready, the
// inf/NaN flag (all-reduce max), the overflow skip and scale schedule, and fused Adam on this rank's
// partition. Every stage is compared, from the very inputs it was given, with double precision (so a
// difference is localised to the stage that made it), and the loss and weights after every step with
// the free-running double reference.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/transport.h"
#include "divergence.h"
#include "reference.h"
#include "step_config.h"
#include "step_kernels.h"

namespace gpucheck::training {

struct RankOutcome {
  int rank = 0;
  std::optional<Divergence> first;
  std::map<std::string, ErrorStats> stats;
  std::vector<double> loss;          // per step, this rank's micro-batch
  std::vector<double> scale;         // loss scale each step ran with
  std::vector<int> skipped;          // steps skipped for overflow (1-based)
  std::vector<double> step_seconds;  // the step's own work (collectives and math, not the checks)
};
void to_json(nlohmann::json& j, const RankOutcome& o);
void from_json(const nlohmann::json& j, RankOutcome& o);

/// Free-running tolerances (after `adam_steps` updates, against the double reference): docs/kernels.md.
double loss_tolerance(Dtype d, int adam_steps);
double weight_tolerance(Dtype d, int adam_steps, float lr);

/// Runs c.steps steps as this process's rank of `t` (one local rank) with kernels `k`, and checks each
/// against `ref`.
RankOutcome run_zero_steps(const StepConfig& c, collectives::Transport& t, StepKernels& k, const ReferenceRun& ref,
                           double timeout_s);

}  // namespace gpucheck::training
