#pragma once
// Cross-entropy forward and in-place backward (spec §1.6) for fp16, bf16 and fp32 logits.
//
// BMTrain runs one 1024-thread block per row and reads the row three times (max, sum, write). Here a row
// is split into chunks of kCeChunk elements: pass 1 gives each chunk's (max, sum of exp) from one DRAM
// read (the second sweep over a 8-16 KiB chunk hits L1), pass 2 merges the row's chunk statistics and
// writes the softmax and the loss. Large vocabularies get many blocks per row, so few rows still fill
// the GPU, and DRAM sees 2 reads + 1 write instead of 3 + 1. Index arithmetic and per-thread loops live in
// ce_chunk.h (host-tested on tensors beyond 2^32 elements).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/host_tensor.h"
#include "cross_entropy/ce_chunk.h"

namespace gpucheck::kernels {

/// Bytes of device scratch the forward pass needs (2 floats per row and chunk + the target logit per row).
std::size_t ce_forward_workspace_bytes(std::size_t rows, std::size_t vocab);

/// loss[r] = 0 for target == ignore_index, NaN for a target outside [0, vocab); softmax may alias logits.
cudaError_t launch_ce_forward(Dtype dtype, std::size_t rows, std::size_t vocab, const void* logits, void* softmax,
                              const std::int32_t* target, std::int32_t ignore_index, float* loss, void* workspace,
                              cudaStream_t stream);

/// x[r,i] = round((x[r,i] - (i == target[r])) * grad_output[r]) in place over the saved softmax.
cudaError_t launch_ce_backward_inplace(Dtype dtype, std::size_t rows, std::size_t vocab, void* softmax_grad,
                                       const std::int32_t* target, const float* grad_output, cudaStream_t stream);

}  // namespace gpucheck::kernels
