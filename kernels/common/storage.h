#pragma once
// Storage traits for templated kernels: how an element of each dtype is loaded as float and stored from
// float (RNE), using the shared bit-level conversions.
#include "common/half_bits.h"

namespace gpucheck::kernels {

struct Fp16Storage {
  using T = std::uint16_t;
  GK_HD static float load(T v) { return fp16_to_float(v); }
  GK_HD static T store(float f) { return fp16_from_float(f); }
};
struct Bf16Storage {
  using T = std::uint16_t;
  GK_HD static float load(T v) { return bf16_to_float(v); }
  GK_HD static T store(float f) { return bf16_from_float(f); }
};
struct Fp32Storage {
  using T = float;
  GK_HD static float load(T v) { return v; }
  GK_HD static T store(float f) { return f; }
};

}  // namespace gpucheck::kernels
