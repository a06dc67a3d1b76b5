#include "common/cuda_launch.h"
#include "inf_nan/inf_nan_cuda.h"

#include "common/half_bits.h"

namespace gpucheck::kernels {

namespace {

constexpr int kBlock = 256;

// The exponent mask test is exact on the raw pattern; 8 elements per 16-byte load when aligned.
template <bool kBf16>
__global__ void has_inf_nan_kernel(std::size_t n, const std::uint16_t* __restrict__ data, std::uint8_t* flag) {
  const std::uint32_t mask = kBf16 ? 0x7f80u : 0x7c00u;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  int found = 0;
  const bool aligned = (reinterpret_cast<std::uintptr_t>(data) & 15u) == 0;
  std::size_t vec_n = aligned ? n / 8 : 0;
  const uint4* vec = reinterpret_cast<const uint4*>(data);
  for (std::size_t k = tid; k < vec_n; k += stride) {
    uint4 w = vec[k];
    std::uint32_t words[4] = {w.x, w.y, w.z, w.w};
    for (int j = 0; j < 4; ++j)
      found |= ((words[j] & mask) == mask) | (((words[j] >> 16) & mask) == mask);
  }
  for (std::size_t i = vec_n * 8 + tid; i < n; i += stride) found |= (data[i] & mask) == mask;
  if (__syncthreads_or(found) && threadIdx.x == 0) *flag = 1;
}

}  // namespace

cudaError_t launch_has_inf_nan(bool bf16, std::size_t n, const std::uint16_t* data, std::uint8_t* flag,
                               cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  std::size_t blocks = (n / 8 + kBlock) / kBlock;
  unsigned grid = static_cast<unsigned>(blocks < 8192 ? (blocks ? blocks : 1) : 8192);
  if (bf16) GK_LAUNCH(has_inf_nan_kernel<true>, grid, kBlock, 0, stream)(n, data, flag);
  else GK_LAUNCH(has_inf_nan_kernel<false>, grid, kBlock, 0, stream)(n, data, flag);
  return cudaGetLastError();
}

}  // namespace gpucheck::kernels
