#pragma once
// cublas.gemm's host side: inputs in their storage type, the CPU reference (int64 for the exact case,
// double otherwise) and the checks. Layout is the probe's "TN" cuBLASLt call: C (m x n, column-major,
// ldc = m) = A^T B, A stored k x m (lda = k) and B k x n (ldb = k), so both operands run along k.
#include <cstdint>
#include <string>
#include <vector>

#include "gemm/gemm_types.h"

namespace gpucheck::kernels {

struct GemmCase {
  GemmType type = GemmType::kFp32;
  std::int64_t m = 0, n = 0, k = 0;
  std::vector<std::uint8_t> a, b;   // raw input bytes in the type's storage
  std::vector<double> a_value, b_value;  // the same inputs as exact doubles
};

/// Integer-valued inputs uniform in [-bound, bound] (deterministic from seed).
GemmCase make_integer_case(GemmType t, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t bound,
                           std::uint64_t seed);
/// Inputs uniform in [-1, 1], rounded to the input type.
GemmCase make_random_case(GemmType t, std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed);

/// C = A^T B exactly for an integer case (int64: |c| <= k * bound^2 never overflows here).
std::vector<std::int64_t> exact_product(const GemmCase& c);
/// C = A^T B in double, and sum_p |a| |b| per element (the scale of the tolerance).
void reference_product(const GemmCase& c, std::vector<double>& value, std::vector<double>& abs_sum);

struct GemmCheck {
  bool ok = true;
  std::int64_t wrong = 0;       // elements outside the rule
  double worst_excess = 0;      // largest |got - want| / allowed (exact case: |got - want|)
  std::string first;            // "c[3,7] = 12.5, expected 12" for the first element outside the rule
};

GemmCheck check_exact(const GemmCase& c, const std::vector<std::int64_t>& want, const std::vector<float>& got);
GemmCheck check_tolerance(const GemmCase& c, const std::vector<double>& want, const std::vector<double>& abs_sum,
                          const std::vector<float>& got, double tolerance);

}  // namespace gpucheck::kernels
