#pragma once
// Device helpers for cublas.gemm and stress.gemm: inputs generated on the GPU in their type (throughput
// runs at sizes the host would take minutes to fill), and a bit-for-bit comparison of two results.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gemm/gemm_types.h"

namespace gpucheck::kernels {

/// `count` elements of type t, uniform in [-1, 1] and rounded to t (the same conversions as the host).
cudaError_t launch_gemm_fill(GemmType t, void* data, std::size_t count, std::uint64_t seed, cudaStream_t s);

/// Adds to *mismatches the number of 32-bit words where a and b differ.
cudaError_t launch_compare_words(const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                                 unsigned long long* mismatches, cudaStream_t s);

}  // namespace gpucheck::kernels
