#pragma once
// Fused Adam kernels (spec §1.1, §1.2, §1.4). Raw device pointers and a stream, like BMTrain's launchers,
// but 64-bit element counts (a grid-stride loop covers n >= 2^31) and n == 0 is a no-op. Any element
// offset is accepted: 16-byte vector accesses when the buffers allow it (rule in adam_chunk.h), scalar
// otherwise, with identical results.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "adam/adam_math.h"

namespace gpucheck::kernels {

/// fp16 params: param fp32 (in/out), param_h fp16 (out), grad fp16 (S-scaled), m fp16 (S-scaled, in/out),
/// v fp32 (S-scaled, in/out).
cudaError_t launch_adam_fp16(std::size_t n, float* param, std::uint16_t* param_h, const std::uint16_t* grad,
                             std::uint16_t* m, float* v, const AdamHyper& h, cudaStream_t stream);
/// bf16 params: param fp32, param_h bf16 (RNE), grad bf16 (S-scaled), m and v fp32 unscaled.
cudaError_t launch_adam_bf16(std::size_t n, float* param, std::uint16_t* param_h, const std::uint16_t* grad,
                             float* m, float* v, const AdamHyper& h, cudaStream_t stream);
/// fp32 params, torch.optim.Adam semantics (L2 weight decay), grad fp32 divided by S first.
cudaError_t launch_adam_fp32(std::size_t n, float* param, const float* grad, float* m, float* v,
                             const AdamHyper& h, cudaStream_t stream);

}  // namespace gpucheck::kernels
