#include "common/cuda_launch.h"
#include "memtest/memtest_cuda.h"

namespace gpucheck::kernels {

namespace {
constexpr int kThreads = 256;

unsigned blocks_for(std::size_t n) {
  // Grid-stride loops: enough blocks to fill any GPU, never more than the words need.
  std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65536 ? (b ? b : 1) : 65536);
}

__global__ void fill_kernel(PatternSpec p, std::uint64_t* words, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    words[i] = pattern_word(p, i, reinterpret_cast<std::uint64_t>(words + i));
}

__global__ void verify_kernel(PatternSpec p, const std::uint64_t* words, std::size_t n, unsigned long long* count,
                              BadWord* first, unsigned keep) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint64_t address = reinterpret_cast<std::uint64_t>(words + i);
    // volatile: every word is really read back from memory, never from a value the compiler kept.
    std::uint64_t got = *reinterpret_cast<const volatile std::uint64_t*>(words + i);
    std::uint64_t want = pattern_word(p, i, address);
    if (got != want) {
      unsigned long long slot = atomicAdd(count, 1ULL);
      if (slot < keep) first[slot] = BadWord{address, want, got};
    }
  }
}
}  // namespace

cudaError_t launch_pattern_fill(const PatternSpec& p, std::uint64_t* words, std::size_t n, cudaStream_t s) {
  GK_LAUNCH(fill_kernel, blocks_for(n), kThreads, 0, s)(p, words, n);
  return cudaGetLastError();
}

cudaError_t launch_pattern_verify(const PatternSpec& p, const std::uint64_t* words, std::size_t n,
                                  unsigned long long* bad_count, BadWord* bad_first, unsigned keep,
                                  cudaStream_t s) {
  GK_LAUNCH(verify_kernel, blocks_for(n), kThreads, 0, s)(p, words, n, bad_count, bad_first, keep);
  return cudaGetLastError();
}

}  // namespace gpucheck::kernels
