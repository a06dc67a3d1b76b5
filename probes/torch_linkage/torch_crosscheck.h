#pragma once
// LibTorch cross-checks of our references and CPU kernels. This header has no torch types, so only
// torch_crosscheck.cpp pays LibTorch's compile time (one TU shared by the torch.linkage probe and tests).
#include <string>
#include <utility>
#include <vector>

#include "common/host_tensor.h"
#include "common/tolerance.h"

namespace gpucheck::kernels::torchcheck {

struct TorchInfo {
  std::string version;                  // TORCH_VERSION of the headers we compiled against
  std::vector<std::string> loaded;      // libtorch*/libc10* objects mapped into this process (dl_iterate_phdr)
  bool cuda_available = false;          // torch::cuda::is_available()
  int cuda_devices = 0;
};
TorchInfo torch_info();

using NamedChecks = std::pair<std::string, std::vector<CheckReport>>;

/// c = a*b + a elementwise vs double.
NamedChecks check_tensor_op(bool cuda);
/// 64x96 @ 96x48 fp32 matmul (cuBLAS on CUDA) vs double, bound K·2^-23·Σ|a||b| per element.
NamedChecks check_matmul(bool cuda);
/// `steps` steps of torch::optim::Adam (adamw = false: L2, our kFp32 variant) or AdamW (decoupled,
/// kFp32AdamW) vs our double reference from the same state, each step. `swap_reference` compares with
/// the other weight-decay style instead (tests use it to show the check tells the two apart).
NamedChecks check_adam(bool adamw, bool cuda, int steps, float weight_decay = 0.01f, bool swap_reference = false);
/// torch AdamW fed grad = fp16/S equals BMTrain's offload semantics: vs our kOffloadFp16 reference, and
/// our CPU offload Adam (best ISA) vs the same reference on the same inputs.
NamedChecks check_offload_semantics(int steps);
/// torch::nn::functional::cross_entropy (reduction none, ignore_index -100) on x.float() of `dtype`
/// logits, loss and autograd gradient of sum(loss·go) vs our reference.
NamedChecks check_cross_entropy(Dtype dtype, std::size_t rows, std::size_t vocab, bool cuda);

/// Everything above for the device torch can use here (CUDA when available, else CPU).
std::vector<NamedChecks> run_all(bool cuda);

}  // namespace gpucheck::kernels::torchcheck
