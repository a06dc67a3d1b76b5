#include "common/cuda_launch.h"
#include "cross_entropy/ce_cuda.h"

#include <cmath>

#include "common/storage.h"
#include "cross_entropy/ce_math.h"

namespace gpucheck::kernels {

namespace {

constexpr int kBlock = kCeBlock;

__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// Block-wide reductions, result broadcast to every thread. `slots` holds one value per warp.
__device__ float block_max(float v, float* slots) {
  v = warp_max(v);
  if ((threadIdx.x & 31) == 0) slots[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = slots[0];
  for (int w = 1; w < kBlock / 32; ++w) r = fmaxf(r, slots[w]);
  __syncthreads();
  return r;
}
__device__ float block_sum(float v, float* slots) {
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) slots[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = slots[0];
  for (int w = 1; w < kBlock / 32; ++w) r += slots[w];
  __syncthreads();
  return r;
}

// The block-wide merge of a row's chunk statistics (ce_chunk.h: ce_merge), the result in every thread:
// each thread folds its chunks, a shuffle-down tree folds each warp into its lane 0, and every thread then
// folds the warps' slots in order. One L2 round trip per thread and two barriers, instead of one thread
// walking all of the row's chunks (about 24 dependent round trips at vocab 256k) while the block waits.
__device__ CeRowMerge warp_merge(CeRowMerge m) {
  for (int o = 16; o > 0; o >>= 1) {
    const CeRowMerge other{__shfl_down_sync(0xffffffffu, m.max, o), __shfl_down_sync(0xffffffffu, m.sum, o)};
    m = ce_merge(m, other);
  }
  return m;
}
__device__ CeRowMerge block_merge(const float2* st, std::size_t chunks, float2* slots) {
  const CeRowMerge m = warp_merge(ce_thread_merge(st, chunks, threadIdx.x));
  if ((threadIdx.x & 31) == 0) slots[threadIdx.x >> 5] = make_float2(m.max, m.sum);
  __syncthreads();
  CeRowMerge r{slots[0].x, slots[0].y};
  for (int w = 1; w < kBlock / 32; ++w) r = ce_merge(r, CeRowMerge{slots[w].x, slots[w].y});
  __syncthreads();  // the slots are rewritten for the next row
  r.sum += kCeSumEpsilon;
  return r;
}

// Pass 1: per (row, chunk) the clamped max and sum of exp(x - max), from one read of the chunk kept in
// registers (ce_chunk.h: 16-byte packs, coalesced). fmaxf ignores NaN (as BMTrain's max does) while the sum
// propagates it; +inf gives inf - inf = NaN in the sum, as in BMTrain.
template <typename S>
__global__ void __launch_bounds__(kBlock) ce_chunk_stats(std::size_t rows, std::size_t vocab, std::size_t chunks,
                               const typename S::T* __restrict__ x, const std::int32_t* __restrict__ target,
                               float2* __restrict__ stats, float* __restrict__ x_target) {
  __shared__ float slots[kBlock / 32];
  const std::size_t c = blockIdx.x;
  for (std::size_t r = blockIdx.y; r < rows; r += gridDim.y) {
    const typename S::T* row = ce_row(x, r, vocab);
    const CeRowPlan plan = ce_row_plan(row, vocab);
    const CeSpan span = ce_chunk_span(c, plan);
    float v[kCePerThread];
    ce_thread_load<S>(row, plan, c, threadIdx.x, v);
    const float mx = block_max(ce_thread_max(v), slots);
    const float s = block_sum(ce_thread_sum_exp(v, mx), slots);
    if (threadIdx.x == 0) stats[ce_stats_slot(r, chunks, c)] = make_float2(mx, s);
    // The target logit is saved here, in pass 1, because pass 2 may overwrite it (softmax aliasing x).
    const std::int32_t t = target[r];
    if (threadIdx.x == 0 && t >= 0 && static_cast<std::size_t>(t) >= span.begin && static_cast<std::size_t>(t) < span.end)
      x_target[r] = S::load(row[t]);
  }
}

// Pass 2: the block merges the row's chunk statistics in a fixed order (block_merge: deterministic, the
// same bits in every block of the row), adds 1e-10 once and forms 1/sum, and writes the softmax of this
// chunk; chunk 0 writes the loss.
template <typename S>
__global__ void __launch_bounds__(kBlock) ce_chunk_softmax(std::size_t rows, std::size_t vocab, std::size_t chunks,
                                 const typename S::T* x, typename S::T* softmax, const float2* __restrict__ stats,
                                 const float* __restrict__ x_target,
                                 const std::int32_t* __restrict__ target, std::int32_t ignore_index,
                                 float* __restrict__ loss) {
  __shared__ float2 merge_slots[kBlock / 32];
  const std::size_t c = blockIdx.x;
  for (std::size_t r = blockIdx.y; r < rows; r += gridDim.y) {
    const CeRowMerge m = block_merge(stats + ce_stats_slot(r, chunks, 0), chunks, merge_slots);
    if (c == 0 && threadIdx.x == 0) {
      const std::int32_t t = target[r];
      float l;
      if (t == ignore_index) l = 0.0f;
      else if (t < 0 || static_cast<std::size_t>(t) >= vocab) l = nanf("");
      else l = ce_loss<float>(x_target[r], m.max, m.sum);
      loss[r] = l;
    }
    const typename S::T* in = ce_row(x, r, vocab);
    typename S::T* out = ce_row(softmax, r, vocab);
    ce_thread_softmax<S>(in, out, ce_row_plan(in, vocab), ce_row_plan(out, vocab), c, threadIdx.x, m.max,
                         1.0f / m.sum);
  }
}

template <typename S>
__global__ void __launch_bounds__(kBlock) ce_backward(std::size_t rows, std::size_t vocab, typename S::T* g,
                                                      const std::int32_t* target, const float* grad_output) {
  for (std::size_t r = blockIdx.y; r < rows; r += gridDim.y) {
    typename S::T* row = ce_row(g, r, vocab);
    ce_thread_backward<S>(row, ce_row_plan(row, vocab), blockIdx.x, threadIdx.x, target[r], grad_output[r]);
  }
}

template <typename S>
std::size_t chunks_of(std::size_t vocab) { return ce_chunk_count<typename S::T>(vocab); }

template <typename S>
dim3 grid_of(std::size_t rows, std::size_t vocab) {
  return dim3(static_cast<unsigned>(chunks_of<S>(vocab)), ce_grid_rows(rows));
}

template <typename S>
cudaError_t forward(std::size_t rows, std::size_t vocab, const void* x, void* sm, const std::int32_t* target,
                    std::int32_t ignore, float* loss, void* ws, cudaStream_t stream) {
  using T = typename S::T;
  std::size_t chunks = chunks_of<S>(vocab);
  auto* stats = static_cast<float2*>(ws);
  auto* x_target = reinterpret_cast<float*>(stats + rows * chunks);
  GK_LAUNCH(ce_chunk_stats<S>, grid_of<S>(rows, vocab), kBlock, 0, stream)(rows, vocab, chunks, static_cast<const T*>(x), target,
                                                                  stats, x_target);
  GK_LAUNCH(ce_chunk_softmax<S>, grid_of<S>(rows, vocab), kBlock, 0, stream)(rows, vocab, chunks, static_cast<const T*>(x),
                                                                    static_cast<T*>(sm), stats, x_target, target,
                                                                    ignore, loss);
  return cudaGetLastError();
}

}  // namespace

std::size_t ce_forward_workspace_bytes(std::size_t rows, std::size_t vocab) {
  // chunk stats (as many slots as the 16-bit layout needs, the larger), then target logits
  return rows * chunks_of<Fp16Storage>(vocab) * sizeof(float2) + rows * sizeof(float);
}

cudaError_t launch_ce_forward(Dtype dtype, std::size_t rows, std::size_t vocab, const void* logits, void* softmax,
                              const std::int32_t* target, std::int32_t ignore_index, float* loss, void* workspace,
                              cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  if (vocab == 0) return cudaErrorInvalidValue;
  switch (dtype) {
    case Dtype::kFp16: return forward<Fp16Storage>(rows, vocab, logits, softmax, target, ignore_index, loss, workspace, stream);
    case Dtype::kBf16: return forward<Bf16Storage>(rows, vocab, logits, softmax, target, ignore_index, loss, workspace, stream);
    case Dtype::kFp32: return forward<Fp32Storage>(rows, vocab, logits, softmax, target, ignore_index, loss, workspace, stream);
  }
  return cudaErrorInvalidValue;
}

cudaError_t launch_ce_backward_inplace(Dtype dtype, std::size_t rows, std::size_t vocab, void* softmax_grad,
                                       const std::int32_t* target, const float* grad_output, cudaStream_t stream) {
  if (rows == 0 || vocab == 0) return cudaSuccess;
  switch (dtype) {
    case Dtype::kFp16:
      GK_LAUNCH(ce_backward<Fp16Storage>, grid_of<Fp16Storage>(rows, vocab), kBlock, 0, stream)(rows, vocab, static_cast<std::uint16_t*>(softmax_grad), target, grad_output);
      break;
    case Dtype::kBf16:
      GK_LAUNCH(ce_backward<Bf16Storage>, grid_of<Bf16Storage>(rows, vocab), kBlock, 0, stream)(rows, vocab, static_cast<std::uint16_t*>(softmax_grad), target, grad_output);
      break;
    case Dtype::kFp32:
      GK_LAUNCH(ce_backward<Fp32Storage>, grid_of<Fp32Storage>(rows, vocab), kBlock, 0, stream)(rows, vocab, static_cast<float*>(softmax_grad), target, grad_output);
      break;
  }
  return cudaGetLastError();
}

}  // namespace gpucheck::kernels
