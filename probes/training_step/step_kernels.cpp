#include "step_kernels.h"

#include "common/half_bits.h"
#include "cross_entropy/ce_math.h"

namespace gpucheck::training {

void HostStepKernels::ce_forward(const kernels::CeCase& c, std::vector<float>& loss, kernels::HostTensor& softmax) {
  kernels::CeForward f = kernels::ce_forward_host_float(c);
  loss = std::move(f.loss);
  softmax = std::move(f.softmax);
}

void HostStepKernels::ce_backward(const kernels::CeCase& c, kernels::HostTensor& x, float grad_output) {
  for (std::size_t r = 0; r < c.rows; ++r)
    for (std::size_t v = 0; v < c.vocab; ++v) {
      std::size_t i = r * c.vocab + v;
      x.set(i, kernels::ce_grad<float>(static_cast<float>(x.get(i)), int(v) == c.target[r], grad_output));
    }
}

bool HostStepKernels::has_inf_nan(const kernels::HostTensor& t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::uint16_t b = t.u16()[i];
    if (t.dtype() == kernels::Dtype::kFp16 ? kernels::fp16_is_inf_or_nan(b) : kernels::bf16_is_inf_or_nan(b))
      return true;
  }
  return false;
}

}  // namespace gpucheck::training
