#pragma once
// device.memory's kernels (and device.copy's pattern checks): fill a device buffer with a pattern and
// verify it in place, counting wrong words and recording the first ones. The address a word's value
// depends on is its device virtual address.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "memtest/memtest_patterns.h"

namespace gpucheck::kernels {

cudaError_t launch_pattern_fill(const PatternSpec& p, std::uint64_t* words, std::size_t n, cudaStream_t s);

/// Adds the number of wrong words to *bad_count and stores up to `keep` of them in bad_first, in the
/// order the threads find them (bad_count beyond `keep` is still exact).
cudaError_t launch_pattern_verify(const PatternSpec& p, const std::uint64_t* words, std::size_t n,
                                  unsigned long long* bad_count, BadWord* bad_first, unsigned keep,
                                  cudaStream_t s);

}  // namespace gpucheck::kernels
