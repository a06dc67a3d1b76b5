#pragma once
// The per-rank computations of the step, behind one interface so the same step and the same checks run
// on each backend:
//   HostStepKernels: on the CPU through the kernels' shared code: the GEMM with the GPU's precision
//     contract, cross-entropy through ce_forward_host_float (the kernel's own per-thread chunks), the
//     backward and the inf/NaN test through ce_math.h / half_bits.h, Adam through adam_host_float_step
//     (the kernel's element function in float, the same storage roundings);
//   CudaStepKernels (cuda_step_kernels.h): the project's CUDA kernels on device buffers (on a GPU, or on
//     the CPU under tests/hostsim), the GEMM on cuBLASLt where there is one.
// Inputs and outputs are host buffers: each call uploads and downloads, which the step time includes.
#include <cstdint>
#include <string>
#include <vector>

#include "adam/adam_reference.h"
#include "cross_entropy/ce_reference.h"
#include "host_math.h"

namespace gpucheck::training {

class StepKernels {
 public:
  virtual ~StepKernels() = default;
  virtual std::string name() const = 0;
  /// C (m x n, row-major) = A B, fp32 accumulation, rounded to d.
  virtual std::vector<float> gemm(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k, MatView a,
                                  MatView b) = 0;
  /// Per-row loss and the softmax (logits dtype).
  virtual void ce_forward(const kernels::CeCase& c, std::vector<float>& loss, kernels::HostTensor& softmax) = 0;
  /// In place over the softmax: (softmax - onehot) * grad_output, rounded to its dtype.
  virtual void ce_backward(const kernels::CeCase& c, kernels::HostTensor& softmax_grad, float grad_output) = 0;
  /// True when any element of the 16-bit buffer is inf or NaN.
  virtual bool has_inf_nan(const kernels::HostTensor& t) = 0;
  /// One fused Adam step of the partition (param, param_h, m, v updated; grad read).
  virtual void adam(kernels::AdamState& s, const kernels::AdamHyper& h) = 0;
};

class HostStepKernels : public StepKernels {
 public:
  std::string name() const override { return "host (the kernels' shared element code)"; }
  std::vector<float> gemm(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k, MatView a,
                          MatView b) override {
    return gemm_device_math(d, m, n, k, a, b);
  }
  void ce_forward(const kernels::CeCase& c, std::vector<float>& loss, kernels::HostTensor& softmax) override;
  void ce_backward(const kernels::CeCase& c, kernels::HostTensor& softmax_grad, float grad_output) override;
  bool has_inf_nan(const kernels::HostTensor& t) override;
  void adam(kernels::AdamState& s, const kernels::AdamHyper& h) override { kernels::adam_host_float_step(s, h); }
};

}  // namespace gpucheck::training
