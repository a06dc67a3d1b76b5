#pragma once
// Index arithmetic and per-thread loops of the cross-entropy kernels (ce_cuda.cu), __host__ __device__ so
// host tests run them on windows of tensors with rows x vocab far beyond 2^32 elements. A block handles
// one (row, chunk) pair at a time: chunk c of a row covers columns [c·kCeChunk, min((c+1)·kCeChunk, vocab)),
// thread `tid` of `threads` visits columns begin + tid, begin + tid + threads, ... Only the block-wide
// reductions (warp shuffles) stay in the .cu. Every index is std::size_t: row·vocab + column never passes
// through a 32-bit type (BMTrain's int offsets overflow past 2^31 elements).
#include <cstddef>
#include <cstdint>

#include "cross_entropy/ce_math.h"

namespace gpucheck::kernels {

inline constexpr std::size_t kCeChunk = 4096;  // columns per (row, chunk) block task
inline constexpr unsigned kCeBlock = 256;      // threads per block
inline constexpr unsigned kCeMaxGridY = 65535;  // grid.y limit: blocks stride over rows beyond it

GK_HD std::size_t ce_chunk_count(std::size_t vocab) { return vocab / kCeChunk + (vocab % kCeChunk ? 1 : 0); }

struct CeSpan {
  std::size_t begin = 0, end = 0;  // columns [begin, end) of one chunk
};
GK_HD CeSpan ce_chunk_span(std::size_t chunk, std::size_t vocab) {
  const std::size_t begin = chunk * kCeChunk;
  if (begin >= vocab) return {vocab, vocab};
  return {begin, vocab - begin > kCeChunk ? begin + kCeChunk : vocab};
}

/// First element of row `row` (row-major rows x vocab).
template <typename T>
GK_HD T* ce_row(T* base, std::size_t row, std::size_t vocab) {
  return base + row * vocab;
}

/// Slot of (row, chunk) in the forward pass's chunk statistics.
GK_HD std::size_t ce_stats_slot(std::size_t row, std::size_t chunks, std::size_t chunk) { return row * chunks + chunk; }

/// grid.y of a launch over `rows` rows; block y handles rows y, y + grid_y, ...
GK_HD unsigned ce_grid_rows(std::size_t rows) { return static_cast<unsigned>(rows < kCeMaxGridY ? rows : kCeMaxGridY); }

/// Pass 1, first sweep: this thread's max over its columns of the chunk, from the clamp floor. fmaxf
/// ignores NaN, as BMTrain's max does.
template <class S>
GK_HD float ce_thread_max(const typename S::T* row, CeSpan span, unsigned tid, unsigned threads) {
  float mx = kCeMaxFloor;
  for (std::size_t i = span.begin + tid; i < span.end; i += threads) mx = gk_fmax(mx, S::load(row[i]));
  return mx;
}

/// Pass 1, second sweep: this thread's sum of exp(x - chunk max).
template <class S>
GK_HD float ce_thread_sum_exp(const typename S::T* row, CeSpan span, unsigned tid, unsigned threads, float mx) {
  float s = 0.0f;
  for (std::size_t i = span.begin + tid; i < span.end; i += threads) s += gk_exp(S::load(row[i]) - mx);
  return s;
}

/// Pass 2: this thread's softmax outputs of the chunk (out may alias in).
template <class S>
GK_HD void ce_thread_softmax(const typename S::T* in, typename S::T* out, CeSpan span, unsigned tid, unsigned threads,
                             float mx, float sum) {
  for (std::size_t i = span.begin + tid; i < span.end; i += threads) out[i] = S::store(ce_softmax<float>(S::load(in[i]), mx, sum));
}

/// Backward in place: this thread's gradients of the chunk.
template <class S>
GK_HD void ce_thread_backward(typename S::T* row, CeSpan span, unsigned tid, unsigned threads, std::int32_t target,
                              float grad_output) {
  for (std::size_t i = span.begin + tid; i < span.end; i += threads)
    row[i] = S::store(ce_grad<float>(S::load(row[i]), target >= 0 && static_cast<std::size_t>(target) == i, grad_output));
}

}  // namespace gpucheck::kernels
