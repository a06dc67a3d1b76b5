#pragma once
// Storage traits for templated kernels: how an element of each dtype is loaded as float and stored from
// float (RNE). On the device through the hardware conversions (half_hw.h), on the host through the shared
// bit-level ones (half_bits.h); test_half_hw.cpp proves the two give the same bits for every non-NaN.
#include "common/half_bits.h"
#ifdef __CUDA_ARCH__
#include "common/half_hw.h"
#endif

namespace gpucheck::kernels {

struct Fp16Storage {
  using T = std::uint16_t;
#ifdef __CUDA_ARCH__
  GK_HD static float load(T v) { return fp16_to_float_hw(v); }
  GK_HD static T store(float f) { return fp16_from_float_hw(f); }
#else
  GK_HD static float load(T v) { return fp16_to_float(v); }
  GK_HD static T store(float f) { return fp16_from_float(f); }
#endif
};
struct Bf16Storage {
  using T = std::uint16_t;
#ifdef __CUDA_ARCH__
  GK_HD static float load(T v) { return bf16_to_float_hw(v); }
  GK_HD static T store(float f) { return bf16_from_float_hw(f); }
#else
  GK_HD static float load(T v) { return bf16_to_float(v); }
  GK_HD static T store(float f) { return bf16_from_float(f); }
#endif
};
struct Fp32Storage {
  using T = float;
  GK_HD static float load(T v) { return v; }
  GK_HD static T store(float f) { return f; }
};

}  // namespace gpucheck::kernels
