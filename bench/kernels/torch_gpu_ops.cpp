// The LibTorch translation unit of the GPU benchmarks' torch baselines (see torch_gpu_ops.h).
#include "torch_gpu_ops.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <stdexcept>

namespace gpucheck::kernels::torchops {

namespace {

torch::ScalarType scalar_type(Dtype d) {
  switch (d) {
    case Dtype::kFp16: return torch::kHalf;
    case Dtype::kBf16: return torch::kBFloat16;
    case Dtype::kFp32: return torch::kFloat32;
  }
  throw std::invalid_argument("unknown dtype");
}

torch::TensorOptions on_cuda(torch::ScalarType t) { return torch::TensorOptions().dtype(t).device(torch::kCUDA, 0); }

// torch's errors carry a C++ backtrace after the first line; keep the message.
template <typename F>
auto torch_call(const char* what, F f) {
  try {
    return f();
  } catch (const c10::Error& e) {
    throw std::runtime_error(std::string(what) + ": " + e.what_without_backtrace());
  }
}

}  // namespace

std::optional<std::string> torch_cuda_unusable_reason() {
  // The CUDA hooks are registered only when libtorch_cuda is loaded; a CPU-only LibTorch keeps the default
  // interface, whose hasCUDART() is false. hasCUDA() alone would not tell this from "no GPU".
  if (!at::globalContext().hasCUDART())
    return std::string("LibTorch was built without CUDA (torch ") + TORCH_VERSION +
           ": no ATen CUDA hooks registered, at::globalContext().hasCUDART() is false)";
  if (!torch::cuda::is_available())
    return std::string("LibTorch ") + TORCH_VERSION + " has CUDA but torch::cuda::is_available() is false";
  return std::nullopt;
}

TorchGpuOp make_torch_adam(Dtype half, std::size_t n) {
  return torch_call("torch fused Adam", [&] {
    const long len = static_cast<long>(n);
    auto f32 = on_cuda(torch::kFloat32);
    torch::Tensor p = torch::randn({len}, f32), g = torch::randn({len}, f32) * 0.01,
                  m = torch::randn({len}, f32) * 0.01, v = torch::randn({len}, f32).abs() * 1e-4,
                  step = torch::zeros({}, f32);  // non-zero state, as in ours (adam_bench_data.h)
    torch::Tensor ph;
    std::string what = "step.add_(1); at::_fused_adam_ (fp32 param/grad/exp_avg/exp_avg_sq)";
    if (half != Dtype::kFp32) {
      ph = torch::empty({len}, on_cuda(scalar_type(half)));
      what += std::string("; param_h.copy_(param) (") + to_string(half) + ")";
    }
    TorchGpuOp op;
    op.what = what;
    op.run = [p, g, m, v, step, ph]() mutable {
      torch::NoGradGuard no_grad;
      step.add_(1);
      at::_fused_adam_({p}, {g}, {m}, {v}, {}, {step}, /*lr=*/1e-3, /*beta1=*/0.9, /*beta2=*/0.999,
                       /*weight_decay=*/0.01, /*eps=*/1e-8, /*amsgrad=*/false, /*maximize=*/false);
      if (ph.defined()) ph.copy_(p);
    };
    op.sync = [] { torch::cuda::synchronize(); };
    op.run();  // fail here, not in the timed loop, if torch cannot run it
    op.sync();
    return op;
  });
}

TorchGpuOp make_torch_cross_entropy(Dtype dtype, std::size_t rows, std::size_t vocab) {
  return torch_call("torch cross_entropy", [&] {
    const long r = static_cast<long>(rows), c = static_cast<long>(vocab);
    torch::Tensor x = (torch::randn({r, c}, on_cuda(torch::kFloat32)) * 4).to(scalar_type(dtype)).requires_grad_(true);
    torch::Tensor t = torch::randint(0, c, {r}, torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA, 0));
    torch::Tensor go = torch::ones({r}, on_cuda(scalar_type(dtype)));
    TorchGpuOp op;
    op.what = std::string("cross_entropy(x, t, reduction none) + autograd::grad (") + to_string(dtype) + ")";
    op.run = [x, t, go] {
      namespace F = torch::nn::functional;
      torch::Tensor loss = F::cross_entropy(x, t, F::CrossEntropyFuncOptions().reduction(torch::kNone));
      torch::autograd::grad({loss}, {x}, {go});
    };
    op.sync = [] { torch::cuda::synchronize(); };
    op.run();
    op.sync();
    return op;
  });
}

}  // namespace gpucheck::kernels::torchops
