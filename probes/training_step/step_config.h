#pragma once
// training.step's model and run: sizes per level, the deterministic initial parameters and batches, and
// the injected faults its tests use. The model is BMTrain-shaped and small: an embedding (vocab x hidden),
// `linears` square linear layers without bias, and a head (vocab x hidden) feeding the cross-entropy.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/host_tensor.h"

namespace gpucheck::training {

using kernels::Dtype;

/// A fault planted in the distributed step (tests only): each must make the probe fail, naming where.
enum class Injection {
  kNone,
  kGradUlp,          // one rank's local weight gradient, one element, moved by one ulp of its dtype
  kChunkMisorder,    // one rank sends two reduce-scatter chunks swapped
  kSkipDisabled,     // the optimizer ignores the overflow flag (no skip, no scale change)
};
Injection parse_injection(const std::string& s);  // none | grad-ulp | chunk-misorder | skip-disabled
const char* to_string(Injection i);

struct StepConfig {
  Dtype dtype = Dtype::kFp16;
  int vocab = 64, hidden = 32, linears = 2, tokens = 16;  // tokens per rank and step
  int steps = 8;
  std::uint64_t seed = 20261205;
  float lr = 1e-2f, beta1 = 0.9f, beta2 = 0.95f, eps = 1e-8f, weight_decay = 0.01f;
  double initial_scale = 4096;  // BMTrain's OptimManager(loss_scale=...); halved on overflow
  int scale_window = 4;         // loss_scale_steps: good steps before the scale doubles
  int overflow_step = 3;        // 1-based step at which the last rank's gradient overflows (0: none)
  Injection inject = Injection::kNone;
  int inject_step = 2, inject_rank = 0;  // where the fault goes (kGradUlp / kChunkMisorder)

  int layers() const { return linears + 2; }  // embedding, linears, head
};

/// Sizes per level (quick / standard / long); throws InputError for another level.
StepConfig config_for_level(const std::string& level);

/// "embedding", "linear1".., "head".
std::string layer_name(const StepConfig& c, int layer);
/// Rows and columns of a layer's weight (row-major): embedding/head vocab x hidden, linears hidden x hidden.
std::size_t layer_rows(const StepConfig& c, int layer);
std::size_t layer_numel(const StepConfig& c, int layer);

/// Initial fp32 master weights of every layer (uniform, variance-preserving), from the seed.
std::vector<std::vector<float>> initial_weights(const StepConfig& c);

/// One rank's micro-batch of step `step` (1-based): token ids and their targets (a fixed permutation of
/// the vocabulary, so the loss can fall).
struct Batch {
  std::vector<int> tokens, targets;
};
Batch make_batch(const StepConfig& c, int step, int rank);

}  // namespace gpucheck::training
