#include "common/host_tensor.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/half_bits.h"

namespace gpucheck::kernels {

const char* to_string(Dtype d) {
  switch (d) {
    case Dtype::kFp16: return "fp16";
    case Dtype::kBf16: return "bf16";
    case Dtype::kFp32: return "fp32";
  }
  return "?";
}

std::size_t element_size(Dtype d) { return d == Dtype::kFp32 ? 4 : 2; }

HostTensor::HostTensor(Dtype dtype, std::size_t n) : dtype_(dtype), n_(n) {
  if (dtype == Dtype::kFp32) f32_.assign(n, 0.0f);
  else u16_.assign(n, 0);
}

double HostTensor::get(std::size_t i) const {
  switch (dtype_) {
    case Dtype::kFp16: return fp16_to_float(u16_[i]);
    case Dtype::kBf16: return bf16_to_float(u16_[i]);
    case Dtype::kFp32: return f32_[i];
  }
  return 0;
}

void HostTensor::set(std::size_t i, double v) {
  float f = static_cast<float>(v);
  switch (dtype_) {
    case Dtype::kFp16: u16_[i] = fp16_from_float(f); break;
    case Dtype::kBf16: u16_[i] = bf16_from_float(f); break;
    case Dtype::kFp32: f32_[i] = f; break;
  }
}

double HostTensor::ulp(double x) const { return ulp_of(dtype_, x); }

namespace {
// Spacing 2^(floor(log2|x|) - mantissa_bits), never below the subnormal spacing 2^min_exp.
double spacing(double x, int mantissa_bits, int min_exp) {
  x = std::fabs(x);
  if (!std::isfinite(x)) return std::numeric_limits<double>::infinity();
  if (x == 0) return std::ldexp(1.0, min_exp);
  int e = std::ilogb(x);
  return std::ldexp(1.0, std::max(e - mantissa_bits, min_exp));
}
}  // namespace

double ulp_fp32(double x) { return spacing(x, 23, -149); }
double ulp_fp16(double x) { return spacing(x, 10, -24); }
double ulp_bf16(double x) { return spacing(x, 7, -133); }
double ulp_of(Dtype d, double x) {
  switch (d) {
    case Dtype::kFp16: return ulp_fp16(x);
    case Dtype::kBf16: return ulp_bf16(x);
    case Dtype::kFp32: return ulp_fp32(x);
  }
  return 0;
}

}  // namespace gpucheck::kernels
