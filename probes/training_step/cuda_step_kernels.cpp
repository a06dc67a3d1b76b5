#include "cuda_step_kernels.h"

#include "adam/adam_cuda.h"
#include "common/cuda_support.h"
#include "cross_entropy/ce_cuda.h"
#include "inf_nan/inf_nan_cuda.h"

namespace gpucheck::training {

using kernels::cuda_check;
using kernels::DeviceBuffer;
using kernels::HostTensor;

namespace {

// A device copy of a host buffer (at least one byte: a zero-sized cudaMalloc returns no pointer).
DeviceBuffer upload(const void* src, std::size_t bytes) {
  DeviceBuffer b(bytes ? bytes : 1);
  if (bytes) b.upload(src, bytes);
  return b;
}

void finish(cudaError_t launch, const char* what) {
  cuda_check(launch, what);
  cuda_check(cudaDeviceSynchronize(), what);
}

}  // namespace

std::string CudaStepKernels::name() const {
  return "CUDA kernels (cross-entropy, inf/NaN, fused Adam); GEMM " +
         (gemm_ ? gemm_->name() : std::string("on the host (fp32 accumulation)"));
}

std::vector<float> CudaStepKernels::gemm(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k, MatView a,
                                         MatView b) {
  if (!gemm_) return gemm_device_math(d, m, n, k, a, b);
  auto bits = [d](float x) {
    return d == kernels::Dtype::kFp16 ? kernels::fp16_from_float(x) : kernels::bf16_from_float(x);
  };
  std::vector<std::uint16_t> ah(m * k), bt(n * k);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) ah[i * k + p] = bits(a.at(i, p));
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t p = 0; p < k; ++p) bt[j * k + p] = bits(b.at(p, j));
  std::vector<float> dcol = gemm_->multiply(d, m, n, k, ah, bt);
  std::vector<float> c(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) c[i * n + j] = round_to(d, dcol[j * m + i]);
  return c;
}

void CudaStepKernels::ce_forward(const kernels::CeCase& c, std::vector<float>& loss, HostTensor& softmax) {
  DeviceBuffer logits = upload(c.logits.data(), c.logits.bytes());
  DeviceBuffer out(c.logits.bytes());
  DeviceBuffer target = upload(c.target.data(), c.target.size() * sizeof(std::int32_t));
  DeviceBuffer l(c.rows * sizeof(float));
  DeviceBuffer ws(std::max<std::size_t>(1, kernels::ce_forward_workspace_bytes(c.rows, c.vocab)));
  finish(kernels::launch_ce_forward(c.logits.dtype(), c.rows, c.vocab, logits.get(), out.get(), target.as<std::int32_t>(),
                                    c.ignore_index, l.as<float>(), ws.get(), nullptr),
         "cross-entropy forward");
  loss.resize(c.rows);
  l.download(loss.data(), c.rows * sizeof(float));
  softmax = HostTensor(c.logits.dtype(), c.logits.size());
  out.download(softmax.data(), softmax.bytes());
}

void CudaStepKernels::ce_backward(const kernels::CeCase& c, HostTensor& x, float grad_output) {
  DeviceBuffer buf = upload(x.data(), x.bytes());
  DeviceBuffer target = upload(c.target.data(), c.target.size() * sizeof(std::int32_t));
  std::vector<float> go(c.rows, grad_output);
  DeviceBuffer g = upload(go.data(), go.size() * sizeof(float));
  finish(kernels::launch_ce_backward_inplace(x.dtype(), c.rows, c.vocab, buf.get(), target.as<std::int32_t>(),
                                             g.as<float>(), nullptr),
         "cross-entropy backward");
  buf.download(x.data(), x.bytes());
}

bool CudaStepKernels::has_inf_nan(const HostTensor& t) {
  DeviceBuffer data = upload(t.data(), t.bytes());
  std::uint8_t flag = 0;
  DeviceBuffer f = upload(&flag, 1);
  finish(kernels::launch_has_inf_nan(t.dtype() == kernels::Dtype::kBf16, t.size(), data.as<std::uint16_t>(),
                                     f.as<std::uint8_t>(), nullptr),
         "has_inf_nan");
  f.download(&flag, 1);
  return flag != 0;
}

void CudaStepKernels::adam(kernels::AdamState& s, const kernels::AdamHyper& h) {
  DeviceBuffer p = upload(s.param.data(), s.param.bytes()), ph = upload(s.param_h.data(), s.param_h.bytes());
  DeviceBuffer g = upload(s.grad.data(), s.grad.bytes()), m = upload(s.m.data(), s.m.bytes());
  DeviceBuffer v = upload(s.v.data(), s.v.bytes());
  const std::size_t n = s.size();
  if (s.variant == kernels::AdamVariant::kFp16)
    finish(kernels::launch_adam_fp16(n, p.as<float>(), ph.as<std::uint16_t>(), g.as<std::uint16_t>(),
                                     m.as<std::uint16_t>(), v.as<float>(), h, nullptr),
           "fused Adam fp16");
  else
    finish(kernels::launch_adam_bf16(n, p.as<float>(), ph.as<std::uint16_t>(), g.as<std::uint16_t>(), m.as<float>(),
                                     v.as<float>(), h, nullptr),
           "fused Adam bf16");
  p.download(s.param.data(), s.param.bytes());
  ph.download(s.param_h.data(), s.param_h.bytes());
  m.download(s.m.data(), s.m.bytes());
  v.download(s.v.data(), s.v.bytes());
}

}  // namespace gpucheck::training
