#pragma once
// GK_HD marks element math that is compiled for the device by nvcc and as plain inline C++ everywhere else,
// so the kernels, the CPU references and the CPU offload Adam share one definition of every formula.
#include <cmath>
#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define GK_HD __host__ __device__ __forceinline__
#else
#define GK_HD inline
#endif

namespace gpucheck::kernels {

GK_HD std::uint32_t float_bits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

GK_HD float bits_float(std::uint32_t u) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

// Overloads so templated element math picks sqrtf/expf/logf in float and the double versions in double
// (the device has both; <cmath> on the host).
GK_HD float gk_sqrt(float x) { return sqrtf(x); }
GK_HD double gk_sqrt(double x) { return sqrt(x); }
GK_HD float gk_exp(float x) { return expf(x); }
GK_HD double gk_exp(double x) { return exp(x); }
GK_HD float gk_log(float x) { return logf(x); }
GK_HD double gk_log(double x) { return log(x); }
GK_HD float gk_fmax(float a, float b) { return fmaxf(a, b); }
GK_HD double gk_fmax(double a, double b) { return fmax(a, b); }
GK_HD float gk_fma(float a, float b, float c) { return fmaf(a, b, c); }
GK_HD double gk_fma(double a, double b, double c) { return fma(a, b, c); }

}  // namespace gpucheck::kernels
