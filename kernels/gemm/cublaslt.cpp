#include "gemm/cublaslt.h"

#include <dlfcn.h>

#include <cstdlib>

#include "core/dynamic_library.h"

namespace gpucheck::kernels {

namespace {
std::vector<std::string> candidates() {
  std::vector<std::string> c;
  if (const char* p = std::getenv("GPUCHECK_CUBLASLT"); p && *p) c.push_back(p);
  c.push_back(cublaslt_soname());
  std::vector<std::string> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  for (auto& r : roots)
    for (const char* sub : {"/lib64/", "/lib/", "/targets/x86_64-linux/lib/"}) c.push_back(r + sub + cublaslt_soname());
  return c;
}

void check(const CublasLtApi& api, cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw CublasLtError(std::string(what) + ": " + api.describe(s));
}
}  // namespace

std::string cublaslt_soname() { return "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR); }

std::string CublasLtApi::describe(cublasStatus_t s) const {
  std::string name = status_name ? status_name(s) : "cublasStatus";
  std::string text = status_string ? status_string(s) : "";
  return name + " (" + std::to_string(static_cast<int>(s)) + ")" + (text.empty() ? "" : ": " + text);
}

bool load_cublaslt(CublasLtApi& api) {
  for (auto& candidate : candidates()) {
    std::string error;
    void* h = open_library(candidate, error);
    if (!h) {
      api.tried.push_back(candidate + ": " + error);
      continue;
    }
    bool ok = bind_symbol(h, "cublasLtCreate", api.create) && bind_symbol(h, "cublasLtDestroy", api.destroy) &&
              bind_symbol(h, "cublasLtGetVersion", api.get_version) &&
              bind_symbol(h, "cublasLtGetStatusName", api.status_name) &&
              bind_symbol(h, "cublasLtGetStatusString", api.status_string) &&
              bind_symbol(h, "cublasLtMatmulDescCreate", api.desc_create) &&
              bind_symbol(h, "cublasLtMatmulDescSetAttribute", api.desc_set) &&
              bind_symbol(h, "cublasLtMatmulDescDestroy", api.desc_destroy) &&
              bind_symbol(h, "cublasLtMatrixLayoutCreate", api.layout_create) &&
              bind_symbol(h, "cublasLtMatrixLayoutDestroy", api.layout_destroy) &&
              bind_symbol(h, "cublasLtMatmulPreferenceCreate", api.pref_create) &&
              bind_symbol(h, "cublasLtMatmulPreferenceSetAttribute", api.pref_set) &&
              bind_symbol(h, "cublasLtMatmulPreferenceDestroy", api.pref_destroy) &&
              bind_symbol(h, "cublasLtMatmulAlgoGetHeuristic", api.heuristic) && bind_symbol(h, "cublasLtMatmul", api.matmul);
    if (!ok) {
      api.tried.push_back(candidate + ": missing cuBLASLt symbols");
      dlclose(h);
      continue;
    }
    std::size_t v = api.get_version();
    if (v / 10000 != CUBLAS_VER_MAJOR) {  // another major: the enums and struct sizes may differ
      api.tried.push_back(candidate + ": cuBLASLt " + std::to_string(v) + ", this build needs major " +
                          std::to_string(CUBLAS_VER_MAJOR));
      dlclose(h);
      continue;
    }
    api.version = v;
    api.handle = h;
    api.path = loaded_path(h, candidate);
    return true;
  }
  return false;
}

LtHandle::LtHandle(const CublasLtApi& api) : api_(api) {
  cublasStatus_t s = api.create(&h_);
  if (s != CUBLAS_STATUS_SUCCESS) throw CublasLtError("cublasLtCreate: " + api.describe(s));
}

LtMatmul::LtMatmul(const CublasLtApi& api, cublasLtHandle_t h, GemmType t, std::int64_t m, std::int64_t n,
                   std::int64_t k)
    : api_(api), h_(h) {
  cudaDataType_t in = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  switch (t) {
    case GemmType::kFp32: break;
    case GemmType::kTf32: compute = CUBLAS_COMPUTE_32F_FAST_TF32; break;
    case GemmType::kFp16: in = CUDA_R_16F; break;
    case GemmType::kBf16: in = CUDA_R_16BF; break;
    case GemmType::kFp8: in = CUDA_R_8F_E4M3; break;  // FP8 needs the TN layout used here for every type
  }
  check(api_, api_.desc_create(&desc_, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
  cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  check(api_, api_.desc_set(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "set TRANSA");
  check(api_, api_.desc_set(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "set TRANSB");
  check(api_, api_.layout_create(&la_, in, static_cast<std::uint64_t>(k), static_cast<std::uint64_t>(m), k), "layout A");
  check(api_, api_.layout_create(&lb_, in, static_cast<std::uint64_t>(k), static_cast<std::uint64_t>(n), k), "layout B");
  check(api_, api_.layout_create(&lc_, CUDA_R_32F, static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(n), m),
        "layout C/D");
  if (cudaMalloc(&workspace_, workspace_bytes_) != cudaSuccess) {
    cudaGetLastError();
    workspace_ = nullptr;
    workspace_bytes_ = 0;
  }
  cublasLtMatmulPreference_t pref = nullptr;
  check(api_, api_.pref_create(&pref), "cublasLtMatmulPreferenceCreate");
  std::uint32_t reduction = CUBLASLT_REDUCTION_SCHEME_NONE;
  cublasStatus_t s = api_.pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes_, sizeof workspace_bytes_);
  if (s == CUBLAS_STATUS_SUCCESS)
    s = api_.pref_set(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &reduction, sizeof reduction);
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  if (s == CUBLAS_STATUS_SUCCESS) s = api_.heuristic(h_, desc_, la_, lb_, lc_, lc_, pref, 1, &result, &found);
  api_.pref_destroy(pref);
  if (s == CUBLAS_STATUS_NOT_SUPPORTED || (s == CUBLAS_STATUS_SUCCESS && found == 0)) {
    why_ = std::string("cuBLASLt has no algorithm for ") + to_string(t) + " " + std::to_string(m) + "x" +
           std::to_string(n) + "x" + std::to_string(k) + " on this GPU (cublasLtMatmulAlgoGetHeuristic: " +
           api_.describe(s) + ", " + std::to_string(found) + " found)";
    return;
  }
  check(api_, s, "cublasLtMatmulAlgoGetHeuristic");
  algo_ = result.algo;
  supported_ = true;
}

LtMatmul::~LtMatmul() {
  if (workspace_) cudaFree(workspace_);
  if (lc_) api_.layout_destroy(lc_);
  if (lb_) api_.layout_destroy(lb_);
  if (la_) api_.layout_destroy(la_);
  if (desc_) api_.desc_destroy(desc_);
}

void LtMatmul::run(const void* a, const void* b, float* d, cudaStream_t s) const {
  if (!supported_) throw CublasLtError(why_);
  const float alpha = 1.0f, beta = 0.0f;
  check(api_, api_.matmul(h_, desc_, &alpha, a, la_, b, lb_, &beta, d, lc_, d, lc_, &algo_, workspace_,
                          workspace_bytes_, s),
        "cublasLtMatmul");
}

}  // namespace gpucheck::kernels
