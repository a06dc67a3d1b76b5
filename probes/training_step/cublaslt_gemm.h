#pragma once
// The step's GEMMs on the GPU through cuBLASLt (kernels/gemm/cublaslt.h: dlopen, the "TN" fp32-accumulate
// product with a deterministic algorithm), one prepared product per shape.
#include <map>
#include <memory>
#include <tuple>

#include "cuda_step_kernels.h"
#include "gemm/cublaslt.h"

namespace gpucheck::training {

class CublasLtGemm : public GemmEngine {
 public:
  /// nullptr with `why` set when cuBLASLt cannot be loaded or a handle cannot be created.
  static std::unique_ptr<CublasLtGemm> create(std::string& why);
  std::string name() const override;
  std::vector<float> multiply(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k,
                              const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& bt) override;

 private:
  CublasLtGemm() = default;
  kernels::CublasLtApi api_;
  std::unique_ptr<kernels::LtHandle> handle_;
  std::map<std::tuple<int, std::size_t, std::size_t, std::size_t>, std::unique_ptr<kernels::LtMatmul>> plans_;
};

}  // namespace gpucheck::training
