#pragma once
// torch's own CUDA ops as baselines for the GPU benchmarks (ratio_to_torch). No torch types here, so only
// torch_gpu_ops.cpp pays LibTorch's compile time. Every function throws std::runtime_error with torch's
// message when torch cannot do the work.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "common/host_tensor.h"

namespace gpucheck::kernels::torchops {

/// nullopt when this LibTorch can run CUDA ops here; otherwise the exact reason, e.g. "LibTorch was built
/// without CUDA (torch 1.13.1: no ATen CUDA hooks registered, at::globalContext().hasCUDART() is false)".
std::optional<std::string> torch_cuda_unusable_reason();

/// A workload prepared on CUDA tensors: run() enqueues one instance on torch's current (default) stream,
/// sync() waits for the device (torch::cuda::synchronize).
struct TorchGpuOp {
  std::string what;  // the torch calls one run() makes
  std::function<void()> run;
  std::function<void()> sync;
};

/// One Adam step over n parameters as torch's Adam(fused=True) does it: step += 1, at::_fused_adam_ on fp32
/// param/grad/exp_avg/exp_avg_sq (L2 weight decay, like our fp32 variant); for half = fp16/bf16 also the
/// 16-bit model copy param_h.copy_(param) that BMTrain's kernels write in the same pass.
TorchGpuOp make_torch_adam(Dtype half, std::size_t n);

/// torch::nn::functional::cross_entropy(x, target, reduction none) on [rows, vocab] logits of `dtype` and
/// its backward (torch::autograd::grad with a per-row grad_output): what our forward + in-place backward do.
TorchGpuOp make_torch_cross_entropy(Dtype dtype, std::size_t rows, std::size_t vocab);

}  // namespace gpucheck::kernels::torchops
