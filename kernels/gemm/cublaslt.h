#pragma once
// cuBLASLt loaded with dlopen at run time: the probes link no cuBLAS, so on a node whose cuBLAS is missing
// or of another major version they still start and say `skip` with what was tried. The entry points are
// typed from cublasLt.h itself (decltype), so a signature cannot drift from the header. One call shape,
// the "TN" product cublas.gemm and stress.gemm time: D (m x n, fp32, column-major) = A^T B with A stored
// k x m and B k x n, alpha 1, beta 0, compute in fp32 (TF32 tensor cores for tf32).
#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gemm/gemm_types.h"

namespace gpucheck::kernels {

struct CublasLtApi {
  void* handle = nullptr;
  std::string path;                  // the file that was loaded
  std::vector<std::string> tried;    // each candidate with dlerror()'s text
  std::size_t version = 0;           // cublasLtGetVersion(): 130100
  decltype(&cublasLtCreate) create = nullptr;
  decltype(&cublasLtDestroy) destroy = nullptr;
  decltype(&cublasLtGetVersion) get_version = nullptr;
  decltype(&cublasLtGetStatusName) status_name = nullptr;
  decltype(&cublasLtGetStatusString) status_string = nullptr;
  decltype(&cublasLtMatmulDescCreate) desc_create = nullptr;
  decltype(&cublasLtMatmulDescSetAttribute) desc_set = nullptr;
  decltype(&cublasLtMatmulDescDestroy) desc_destroy = nullptr;
  decltype(&cublasLtMatrixLayoutCreate) layout_create = nullptr;
  decltype(&cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
  decltype(&cublasLtMatmulPreferenceCreate) pref_create = nullptr;
  decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set = nullptr;
  decltype(&cublasLtMatmulPreferenceDestroy) pref_destroy = nullptr;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&cublasLtMatmul) matmul = nullptr;

  /// "CUBLAS_STATUS_NOT_SUPPORTED (15): the requested functionality is not supported"
  std::string describe(cublasStatus_t s) const;
};

/// The soname this build's headers belong to ("libcublasLt.so.13").
std::string cublaslt_soname();

/// Tries $GPUCHECK_CUBLASLT, the loader's soname, then $CUDA_HOME/$CUDA_PATH and /usr/local/cuda lib dirs.
/// False with `tried` filled when none loads, a symbol is missing, or the major version differs from the
/// headers'. The library stays loaded for the life of the process.
bool load_cublaslt(CublasLtApi& api);

struct CublasLtError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One cuBLASLt handle for the current device, destroyed with this object; throws CublasLtError when
/// cublasLtCreate fails.
class LtHandle {
 public:
  explicit LtHandle(const CublasLtApi& api);
  ~LtHandle() { api_.destroy(h_); }
  LtHandle(const LtHandle&) = delete;
  LtHandle& operator=(const LtHandle&) = delete;
  cublasLtHandle_t get() const { return h_; }

 private:
  const CublasLtApi& api_;
  cublasLtHandle_t h_ = nullptr;
};

/// One prepared product on the current device: descriptors, the heuristic's first algorithm restricted to
/// deterministic reductions (no split-K atomics, so a repeated product is bit-identical), a workspace.
class LtMatmul {
 public:
  /// Throws CublasLtError naming the failing call and status; NOT_SUPPORTED (no algorithm for this type on
  /// this GPU) is reported through supported() instead.
  LtMatmul(const CublasLtApi& api, cublasLtHandle_t h, GemmType t, std::int64_t m, std::int64_t n, std::int64_t k);
  ~LtMatmul();
  LtMatmul(const LtMatmul&) = delete;
  LtMatmul& operator=(const LtMatmul&) = delete;
  bool supported() const { return supported_; }
  const std::string& unsupported_reason() const { return why_; }
  /// d = a^T b; throws CublasLtError on failure.
  void run(const void* a, const void* b, float* d, cudaStream_t s) const;

 private:
  const CublasLtApi& api_;
  cublasLtHandle_t h_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  void* workspace_ = nullptr;
  std::size_t workspace_bytes_ = 32u << 20;
  bool supported_ = false;
  std::string why_;
};

}  // namespace gpucheck::kernels
