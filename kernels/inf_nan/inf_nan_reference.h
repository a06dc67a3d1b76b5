#pragma once
// Reference for the sticky overflow flag (spec §1.5): any element whose exponent bits are all ones.
#include "common/half_bits.h"
#include "common/host_tensor.h"

namespace gpucheck::kernels {

inline bool has_inf_nan_reference(const HostTensor& t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.dtype() == Dtype::kFp16 && fp16_is_inf_or_nan(t.u16()[i])) return true;
    if (t.dtype() == Dtype::kBf16 && bf16_is_inf_or_nan(t.u16()[i])) return true;
    if (t.dtype() == Dtype::kFp32 && !std::isfinite(t.f32()[i])) return true;
  }
  return false;
}

}  // namespace gpucheck::kernels
