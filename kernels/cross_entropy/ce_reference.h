#pragma once
// Cross-entropy cases, the double-precision reference (BMTrain's semantics: -1e6 max clamp, +1e-10 after
// the sum, loss 0 for ignore_index, softmax rounded to the logits dtype) and the tolerance checks.
#include <cstdint>
#include <vector>

#include "common/host_tensor.h"
#include "common/tolerance.h"

namespace gpucheck::kernels {

struct CeCase {
  std::size_t rows = 0, vocab = 0;
  HostTensor logits;              // rows x vocab, row-major
  std::vector<std::int32_t> target;
  std::int32_t ignore_index = -100;
};

struct CeCaseOptions {
  double ignore_fraction = 0.1;   // rows whose target is ignore_index
  bool adversarial = false;       // add the edge-case rows listed at make_ce_case
  double logit_stddev = 3.0;
};

/// Random logits N(0, stddev). With `adversarial` (needs rows >= 6): row 0 target = ignore_index, row 1
/// huge logits (±6e4 for fp16, ±1e30 otherwise), row 2 a NaN logit, row 3 all -inf, row 4 one +inf logit,
/// row 5 the target is the last class.
CeCase make_ce_case(Dtype dtype, std::size_t rows, std::size_t vocab, std::uint64_t seed, const CeCaseOptions& o);

struct CeForward {
  std::vector<float> loss;        // per row, fp32
  HostTensor softmax;             // logits dtype
  std::vector<double> row_max;    // clamped max (for the tolerance bounds)
  std::vector<double> row_log_sum;
};

CeForward ce_forward_reference(const CeCase& c);
/// The GPU algorithm (ce_cuda.cu) run on the host in float through the kernels' own per-thread code
/// (ce_chunk.h: chunks on the row's 16-byte grid of a 16-byte aligned allocation, 16 values per thread,
/// the warp-shuffle tree, the one-thread merge, the reciprocal). Shows the tolerance policy admits the
/// kernel's float arithmetic, on a machine without a GPU.
CeForward ce_forward_host_float(const CeCase& c);

/// (softmax - onehot(target)) * grad_output[row], rounded to the softmax dtype.
HostTensor ce_backward_reference(const CeCase& c, const HostTensor& softmax, const std::vector<float>& grad_output);

std::vector<CheckReport> check_ce_forward(const CeCase& c, const CeForward& want, const std::vector<float>& loss,
                                          const HostTensor& softmax);
CheckReport check_ce_backward(const HostTensor& want, const HostTensor& got);

}  // namespace gpucheck::kernels
