// Fused Adam kernels. One element per thread per iteration of a grid-stride loop with 64-bit indices;
// the grid is capped so huge tensors reuse resident blocks instead of launching billions of them.
#include "adam/adam_cuda.h"

#include "common/storage.h"

namespace gpucheck::kernels {

namespace {

constexpr int kBlock = 256;

unsigned grid_for(std::size_t n) {
  std::size_t blocks = (n + kBlock - 1) / kBlock;
  const std::size_t cap = 65536;  // ~ 500 blocks per SM on the largest GPUs: plenty to saturate memory
  return static_cast<unsigned>(blocks < cap ? blocks : cap);
}

__global__ void adam_fp16_kernel(std::size_t n, float* __restrict__ param, std::uint16_t* __restrict__ param_h,
                                 const std::uint16_t* __restrict__ grad, std::uint16_t* __restrict__ m,
                                 float* __restrict__ v, AdamHyper h) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float p = param[i], mi = fp16_to_float(m[i]), vi = v[i];
    adam_scaled_state_element<float>(h, fp16_to_float(grad[i]), p, mi, vi);
    param[i] = p;
    param_h[i] = fp16_from_float(p);
    m[i] = fp16_from_float(mi);
    v[i] = vi;
  }
}

__global__ void adam_bf16_kernel(std::size_t n, float* __restrict__ param, std::uint16_t* __restrict__ param_h,
                                 const std::uint16_t* __restrict__ grad, float* __restrict__ m,
                                 float* __restrict__ v, AdamHyper h) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float p = param[i], mi = m[i], vi = v[i];
    adam_unscaled_state_element<float>(h, bf16_to_float(grad[i]), p, mi, vi);
    param[i] = p;
    param_h[i] = bf16_from_float(p);
    m[i] = mi;
    v[i] = vi;
  }
}

__global__ void adam_fp32_kernel(std::size_t n, float* __restrict__ param, const float* __restrict__ grad,
                                 float* __restrict__ m, float* __restrict__ v, AdamHyper h) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float p = param[i], mi = m[i], vi = v[i];
    adam_torch_l2_element<float>(h, grad[i], p, mi, vi);
    param[i] = p;
    m[i] = mi;
    v[i] = vi;
  }
}

}  // namespace

cudaError_t launch_adam_fp16(std::size_t n, float* param, std::uint16_t* param_h, const std::uint16_t* grad,
                             std::uint16_t* m, float* v, const AdamHyper& h, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  adam_fp16_kernel<<<grid_for(n), kBlock, 0, stream>>>(n, param, param_h, grad, m, v, h);
  return cudaGetLastError();
}

cudaError_t launch_adam_bf16(std::size_t n, float* param, std::uint16_t* param_h, const std::uint16_t* grad,
                             float* m, float* v, const AdamHyper& h, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  adam_bf16_kernel<<<grid_for(n), kBlock, 0, stream>>>(n, param, param_h, grad, m, v, h);
  return cudaGetLastError();
}

cudaError_t launch_adam_fp32(std::size_t n, float* param, const float* grad, float* m, float* v,
                             const AdamHyper& h, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  adam_fp32_kernel<<<grid_for(n), kBlock, 0, stream>>>(n, param, grad, m, v, h);
  return cudaGetLastError();
}

}  // namespace gpucheck::kernels
