#include "gemm/gemm_types.h"

#include <cmath>

namespace gpucheck::kernels {

const char* to_string(GemmType t) {
  switch (t) {
    case GemmType::kFp32: return "fp32";
    case GemmType::kTf32: return "tf32";
    case GemmType::kFp16: return "fp16";
    case GemmType::kBf16: return "bf16";
    case GemmType::kFp8: return "fp8";
  }
  return "unknown";
}

int input_bytes(GemmType t) {
  switch (t) {
    case GemmType::kFp32: case GemmType::kTf32: return 4;
    case GemmType::kFp16: case GemmType::kBf16: return 2;
    case GemmType::kFp8: return 1;
  }
  return 4;
}

int input_precision_bits(GemmType t) {
  switch (t) {
    case GemmType::kFp32: return 24;
    case GemmType::kTf32: return 11;
    case GemmType::kFp16: return 11;
    case GemmType::kBf16: return 8;
    case GemmType::kFp8: return 4;
  }
  return 0;
}

int accumulation_precision_bits(GemmType t) { return t == GemmType::kFp8 ? 14 : 24; }

std::int64_t exact_integer_bound(GemmType t, std::int64_t k) {
  if (k <= 0) return 0;
  std::int64_t a = std::int64_t{1} << input_precision_bits(t);
  const std::int64_t acc = std::int64_t{1} << accumulation_precision_bits(t);
  while (a > 0 && k * a * a > acc) --a;  // at most 2^24 steps for fp32; in practice a few hundred
  return a;
}

double gemm_tolerance(GemmType t, std::int64_t k) {
  const bool tensor_core = t != GemmType::kFp32;
  double u = t == GemmType::kFp8 ? std::ldexp(1.0, -13) : std::ldexp(1.0, -24);
  if (tensor_core && t != GemmType::kFp8) u *= 2;
  double ku = static_cast<double>(k) * u;
  double gamma = ku < 1 ? ku / (1 - ku) : 1.0;
  double input = t == GemmType::kTf32 ? 2 * std::ldexp(1.0, -10) + std::ldexp(1.0, -20) : 0.0;
  return gamma + input + std::ldexp(1.0, -24);
}

}  // namespace gpucheck::kernels
