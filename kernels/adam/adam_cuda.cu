// Fused Adam kernels. Each thread of a grid-stride loop (64-bit chunk indices, grid capped so huge tensors
// reuse resident blocks) updates one chunk of adam_chunk.h: 8 elements moved with 16-byte accesses when
// the buffers allow it, one element otherwise. The per-chunk code is shared with the host tests.
#include "common/cuda_launch.h"
#include "adam/adam_chunk.h"
#include "adam/adam_cuda.h"

namespace gpucheck::kernels {

namespace {

template <class V>
__global__ void __launch_bounds__(kAdamBlock) adam_kernel(AdamChunkPlan plan, AdamBuffers<V> b, AdamHyper h) {
  const std::size_t chunks = adam_chunk_count(plan);
  for (std::size_t c = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; c < chunks;
       c += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    adam_update_chunk<V>(c, plan, b, h);
}

template <class V>
cudaError_t launch(std::size_t n, const AdamBuffers<V>& b, const AdamHyper& h, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const AdamChunkPlan plan = adam_chunk_plan(n, b);
  GK_LAUNCH(adam_kernel<V>, adam_grid_blocks(adam_chunk_count(plan)), kAdamBlock, 0, stream)(plan, b, h);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_adam_fp16(std::size_t n, float* param, std::uint16_t* param_h, const std::uint16_t* grad,
                             std::uint16_t* m, float* v, const AdamHyper& h, cudaStream_t stream) {
  return launch(n, AdamBuffers<AdamFp16Variant>{param, param_h, grad, m, v}, h, stream);
}

cudaError_t launch_adam_bf16(std::size_t n, float* param, std::uint16_t* param_h, const std::uint16_t* grad,
                             float* m, float* v, const AdamHyper& h, cudaStream_t stream) {
  return launch(n, AdamBuffers<AdamBf16Variant>{param, param_h, grad, m, v}, h, stream);
}

cudaError_t launch_adam_fp32(std::size_t n, float* param, const float* grad, float* m, float* v,
                             const AdamHyper& h, cudaStream_t stream) {
  return launch(n, AdamBuffers<AdamFp32Variant>{param, nullptr, grad, m, v}, h, stream);
}

}  // namespace gpucheck::kernels
