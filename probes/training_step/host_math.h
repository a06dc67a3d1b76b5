#pragma once
// The step's host arithmetic: GEMMs with the GPU's precision contract (fp32 accumulation of 16-bit
// operands, one rounding to the storage dtype at the end: what cuBLASLt's CUBLAS_COMPUTE_32F does) and
// the same products in double with sum |a||b|, which scales their rigorous error bound.
#include <cmath>
#include <cstddef>
#include <vector>

#include "common/half_bits.h"
#include "common/host_tensor.h"

namespace gpucheck::training {

/// Element (i, p) of a matrix at data[i * row + p * col]: a transpose is a view with the strides swapped.
struct MatView {
  const float* data;
  std::size_t row, col;
  float at(std::size_t i, std::size_t p) const { return data[i * row + p * col]; }
};

/// x rounded to the 16-bit dtype (round to nearest even) and back: the value a 16-bit buffer holds.
inline float round_to(kernels::Dtype d, float x) {
  if (d == kernels::Dtype::kFp16) return kernels::fp16_to_float(kernels::fp16_from_float(x));
  if (d == kernels::Dtype::kBf16) return kernels::bf16_to_float(kernels::bf16_from_float(x));
  return x;
}

/// C (m x n, row-major) = A (m x k) B (k x n), accumulated in float in p order, rounded to `d`.
inline std::vector<float> gemm_device_math(kernels::Dtype d, std::size_t m, std::size_t n, std::size_t k, MatView a,
                                           MatView b) {
  std::vector<float> c(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (std::size_t p = 0; p < k; ++p) acc += a.at(i, p) * b.at(p, j);
      c[i * n + j] = round_to(d, acc);
    }
  return c;
}

/// The same product in double, and sum_p |a||b| per element.
inline void gemm_reference(std::size_t m, std::size_t n, std::size_t k, MatView a, MatView b,
                           std::vector<double>& value, std::vector<double>& abs_sum) {
  value.assign(m * n, 0.0);
  abs_sum.assign(m * n, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double acc = 0.0, mag = 0.0;
      for (std::size_t p = 0; p < k; ++p) {
        double x = double(a.at(i, p)) * double(b.at(p, j));
        acc += x;
        mag += std::fabs(x);
      }
      value[i * n + j] = acc;
      abs_sum[i * n + j] = mag;
    }
}

/// Allowed |got - exact| for a k-term fp32-accumulated dot product stored in `d`: any summation order
/// (tree, split-k, tensor-core fragments) keeps the float result within gamma_k * sum|a||b|, gamma_k =
/// k u / (1 - k u), u = 2^-24; we take 2 k u for the tensor cores' truncating adds. Rounding to `d` then
/// adds half an ulp of the stored value.
inline double gemm_bound(kernels::Dtype d, std::size_t k, double exact, double abs_sum) {
  double float_error = 2.0 * double(k) * std::ldexp(1.0, -24) * abs_sum;
  if (d == kernels::Dtype::kFp32) return float_error;
  return 0.5 * kernels::ulp_of(d, std::fabs(exact) + float_error) + float_error;
}

}  // namespace gpucheck::training
