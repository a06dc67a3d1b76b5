#include "gemm/gemm_cuda.h"

#include "memtest/memtest_patterns.h"

namespace gpucheck::kernels {

namespace {
constexpr int kThreads = 256;

unsigned blocks_for(std::size_t n) {
  std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65536 ? (b ? b : 1) : 65536);
}

__global__ void fill_kernel(GemmType t, void* data, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint64_t r = pattern_word(PatternSpec{MemPattern::kXorshift, 0, seed}, i, 0);
    float u = static_cast<float>(r >> 40) * (2.0f / 16777216.0f) - 1.0f;  // 24 random bits -> [-1, 1)
    switch (t) {
      case GemmType::kFp32: static_cast<float*>(data)[i] = u; break;
      case GemmType::kTf32: static_cast<float*>(data)[i] = tf32_truncate(u); break;
      case GemmType::kFp16: static_cast<std::uint16_t*>(data)[i] = fp16_from_float(u); break;
      case GemmType::kBf16: static_cast<std::uint16_t*>(data)[i] = bf16_from_float(u); break;
      case GemmType::kFp8: static_cast<std::uint8_t*>(data)[i] = e4m3_from_float(u); break;
    }
  }
}

__global__ void compare_kernel(const std::uint32_t* a, const std::uint32_t* b, std::size_t n, unsigned long long* count) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(count, local);
}
}  // namespace

cudaError_t launch_gemm_fill(GemmType t, void* data, std::size_t count, std::uint64_t seed, cudaStream_t s) {
  fill_kernel<<<blocks_for(count), kThreads, 0, s>>>(t, data, count, seed);
  return cudaGetLastError();
}

cudaError_t launch_compare_words(const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                                 unsigned long long* mismatches, cudaStream_t s) {
  compare_kernel<<<blocks_for(n), kThreads, 0, s>>>(a, b, n, mismatches);
  return cudaGetLastError();
}

}  // namespace gpucheck::kernels
