#include "step_config.h"

#include <cmath>
#include <random>

#include "core/errors.h"

namespace gpucheck::training {

Injection parse_injection(const std::string& s) {
  if (s == "none") return Injection::kNone;
  if (s == "grad-ulp") return Injection::kGradUlp;
  if (s == "chunk-misorder") return Injection::kChunkMisorder;
  if (s == "skip-disabled") return Injection::kSkipDisabled;
  throw InputError("--inject " + s + ": expected none, grad-ulp, chunk-misorder or skip-disabled");
}

const char* to_string(Injection i) {
  switch (i) {
    case Injection::kGradUlp: return "grad-ulp";
    case Injection::kChunkMisorder: return "chunk-misorder";
    case Injection::kSkipDisabled: return "skip-disabled";
    default: return "none";
  }
}

StepConfig config_for_level(const std::string& level) {
  StepConfig c;
  if (level == "quick") return c;
  if (level == "standard") {
    c.vocab = 256, c.hidden = 64, c.linears = 3, c.tokens = 32, c.steps = 12;
    return c;
  }
  if (level == "long") {
    c.vocab = 1024, c.hidden = 128, c.linears = 4, c.tokens = 64, c.steps = 24;
    return c;
  }
  throw InputError("--level " + level + ": expected quick, standard or long");
}

std::string layer_name(const StepConfig& c, int layer) {
  if (layer == 0) return "embedding";
  if (layer == c.layers() - 1) return "head";
  return "linear" + std::to_string(layer);
}

std::size_t layer_rows(const StepConfig& c, int layer) {
  return layer == 0 || layer == c.layers() - 1 ? static_cast<std::size_t>(c.vocab) : static_cast<std::size_t>(c.hidden);
}

std::size_t layer_numel(const StepConfig& c, int layer) { return layer_rows(c, layer) * c.hidden; }

std::vector<std::vector<float>> initial_weights(const StepConfig& c) {
  std::mt19937_64 rng(c.seed);
  std::vector<std::vector<float>> w(c.layers());
  for (int l = 0; l < c.layers(); ++l) {
    // Embedding rows O(1); linear and head weights keep the activations' variance (uniform, 3/fan_in).
    double bound = l == 0 ? 1.0 : std::sqrt(3.0 / c.hidden);
    std::uniform_real_distribution<double> u(-bound, bound);
    w[l].resize(layer_numel(c, l));
    for (float& x : w[l]) x = static_cast<float>(u(rng));
  }
  return w;
}

Batch make_batch(const StepConfig& c, int step, int rank) {
  std::mt19937_64 rng(c.seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(step * 1024 + rank + 1)));
  std::uniform_int_distribution<int> tok(0, c.vocab - 1);
  Batch b;
  for (int t = 0; t < c.tokens; ++t) {
    int x = tok(rng);
    b.tokens.push_back(x);
    b.targets.push_back((7 * x + 3) % c.vocab);
  }
  return b;
}

}  // namespace gpucheck::training
