#pragma once
// Cross-entropy element math (spec §1.6), shared by the CUDA kernels (float) and the reference (double).
#include "common/hd.h"

namespace gpucheck::kernels {

// BMTrain clamps the row max at -1e6 (rows of all -inf give 0, not NaN) and adds 1e-10 to the sum once,
// after the reduction. Our kernels reproduce both.
inline constexpr float kCeMaxFloor = -1e6f;
inline constexpr float kCeSumEpsilon = 1e-10f;

/// Per-row loss from the target logit, the clamped max and the sum (already + 1e-10).
template <typename T>
GK_HD T ce_loss(T x_target, T row_max, T sum) {
  return (-x_target + row_max) + gk_log(sum);
}

template <typename T>
GK_HD T ce_softmax(T x, T row_max, T sum) {
  return gk_exp(x - row_max) / sum;
}

/// The kernels' form: the reciprocal of the row sum is formed once per row, so each element costs one
/// multiply instead of a division (one extra float rounding, inside the softmax tolerance's 3 ulp margin).
template <typename T>
GK_HD T ce_softmax_scaled(T x, T row_max, T inv_sum) {
  return gk_exp(x - row_max) * inv_sum;
}

/// Backward in place over the saved softmax: (softmax - onehot) * grad_output, rounded once.
template <typename T>
GK_HD T ce_grad(T softmax, bool is_target, T grad_output) {
  return (softmax - (is_target ? T(1) : T(0))) * grad_output;
}

}  // namespace gpucheck::kernels
