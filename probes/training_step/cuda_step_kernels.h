#pragma once
// The step's per-rank computations on the project's CUDA kernels: cross-entropy forward and backward
// (ce_cuda.cu), the inf/NaN flag (inf_nan_cuda.cu) and fused Adam (adam_cuda.cu) on device buffers of the
// current device; the GEMM through a GemmEngine (cuBLASLt on a GPU) or, without one, the host GEMM (under
// tests/hostsim, which runs these same kernels on the CPU and has no cuBLASLt).
#include <memory>

#include "step_kernels.h"

namespace gpucheck::training {

/// C (m x n, row-major) = A B with fp32 accumulation: D = A'^T B' in cuBLASLt's "TN" shape (A' k x m and
/// B' k x n column-major, fp32 output); the caller rounds to the storage dtype.
class GemmEngine {
 public:
  virtual ~GemmEngine() = default;
  virtual std::string name() const = 0;
  /// a: m x k row-major 16-bit bits; bt: n x k row-major (B transposed); returns D column-major (m x n).
  virtual std::vector<float> multiply(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k,
                                      const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& bt) = 0;
};

class CudaStepKernels : public StepKernels {
 public:
  explicit CudaStepKernels(std::unique_ptr<GemmEngine> gemm = nullptr) : gemm_(std::move(gemm)) {}
  std::string name() const override;
  std::vector<float> gemm(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k, MatView a,
                          MatView b) override;
  void ce_forward(const kernels::CeCase& c, std::vector<float>& loss, kernels::HostTensor& softmax) override;
  void ce_backward(const kernels::CeCase& c, kernels::HostTensor& softmax_grad, float grad_output) override;
  bool has_inf_nan(const kernels::HostTensor& t) override;
  void adam(kernels::AdamState& s, const kernels::AdamHyper& h) override;

 private:
  std::unique_ptr<GemmEngine> gemm_;
};

}  // namespace gpucheck::training
