#pragma once
// Sticky inf/NaN flag (spec §1.5): sets *flag = 1 if any element of the fp16/bf16 buffer has an all-ones
// exponent; never writes 0, so calls over many buffers OR into one byte. One kernel, no scratch buffer.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpucheck::kernels {

cudaError_t launch_has_inf_nan(bool bf16, std::size_t n, const std::uint16_t* data, std::uint8_t* flag,
                               cudaStream_t stream);

}  // namespace gpucheck::kernels
