#include "cublaslt_gemm.h"

#include "common/cuda_support.h"
#include "core/text.h"

namespace gpucheck::training {

std::unique_ptr<CublasLtGemm> CublasLtGemm::create(std::string& why) {
  std::unique_ptr<CublasLtGemm> g(new CublasLtGemm());
  if (!kernels::load_cublaslt(g->api_)) {
    why = "cuBLASLt could not be loaded: " + join(g->api_.tried, "; ");
    return nullptr;
  }
  try {
    g->handle_ = std::make_unique<kernels::LtHandle>(g->api_);
  } catch (const kernels::CublasLtError& e) {
    why = e.what();
    return nullptr;
  }
  return g;
}

std::string CublasLtGemm::name() const { return "on cuBLASLt (" + api_.path + ")"; }

std::vector<float> CublasLtGemm::multiply(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k,
                                          const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& bt) {
  const kernels::GemmType t = d == kernels::Dtype::kFp16 ? kernels::GemmType::kFp16 : kernels::GemmType::kBf16;
  auto& plan = plans_[{static_cast<int>(t), m, n, k}];
  if (!plan) {
    plan = std::make_unique<kernels::LtMatmul>(api_, handle_->get(), t, std::int64_t(m), std::int64_t(n), std::int64_t(k));
    if (!plan->supported()) throw kernels::CublasLtError("cuBLASLt has no algorithm for this GEMM: " + plan->unsupported_reason());
  }
  kernels::DeviceBuffer da(a.size() * 2), db(bt.size() * 2), dd(m * n * sizeof(float));
  da.upload(a.data(), a.size() * 2);
  db.upload(bt.data(), bt.size() * 2);
  plan->run(da.get(), db.get(), dd.as<float>(), nullptr);
  kernels::cuda_check(cudaDeviceSynchronize(), "cuBLASLt GEMM");
  std::vector<float> out(m * n);
  dd.download(out.data(), out.size() * sizeof(float));
  return out;
}

}  // namespace gpucheck::training
