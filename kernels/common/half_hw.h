#pragma once
// The conversions the kernels use on the device: the hardware instructions (cvt.f32.f16, cvt.rn.f16.f32,
// cvt.rn.bf16.f32 / the bf16 shift) through cuda_fp16.h and cuda_bf16.h, instead of half_bits.h's
// branchy bit arithmetic. Those intrinsics are __host__ __device__: compiled for the host they are NVIDIA's
// own emulation, which is what lets a host test (tests/kernels/test_half_hw.cpp) compare these very
// functions with half_bits.h's round-to-nearest-even for every fp16/bf16 pattern and around every
// representable value. NaN payloads may differ (the hardware returns a canonical NaN); no non-NaN does.
#if __has_include(<cuda_fp16.h>)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define GK_HAVE_HW_HALF 1

#include "common/hd.h"

namespace gpucheck::kernels {

GK_HD float fp16_to_float_hw(std::uint16_t h) { return __half2float(__ushort_as_half(h)); }
GK_HD std::uint16_t fp16_from_float_hw(float f) { return __half_as_ushort(__float2half_rn(f)); }
GK_HD float bf16_to_float_hw(std::uint16_t b) { return __bfloat162float(__ushort_as_bfloat16(b)); }
GK_HD std::uint16_t bf16_from_float_hw(float f) { return __bfloat16_as_ushort(__float2bfloat16_rn(f)); }

}  // namespace gpucheck::kernels
#endif
