#pragma once
// The CPU "offload" Adam BMTrain runs on the host for fp16/bf16 parameters (spec §1.3): fp32 master,
// unscaled fp32 state, gradient as 16-bit scaled by S, 16-bit parameter copy written back. Three code
// paths (scalar, AVX2+FMA+F16C, AVX-512F) chosen at run time; all evaluate adam_offload_element in the
// same order, so results are identical bit for bit across paths and thread counts.
#include <cstddef>
#include <cstdint>

#include "adam/adam_math.h"
#include "adam/adam_reference.h"
#include "adam/cpu_isa.h"

namespace gpucheck::kernels {

struct OffloadAdamBuffers {
  std::size_t n = 0;
  float* param = nullptr;              // fp32 master, in/out
  std::uint16_t* param_h = nullptr;    // fp16 or bf16 copy, out (bf16: round to nearest even)
  const std::uint16_t* grad = nullptr; // fp16 or bf16 gradient multiplied by the loss scale
  float* m = nullptr;                  // fp32, unscaled
  float* v = nullptr;                  // fp32, unscaled
  bool bf16 = false;
};

/// Threads BMTrain would use: the CPUs this process may run on (sched_getaffinity).
unsigned offload_default_threads();

/// One step. Throws std::invalid_argument if `isa` is not supported here or threads == 0.
void adam_offload_step(const OffloadAdamBuffers& b, const AdamHyper& h, CpuIsa isa, unsigned threads);

/// One offload step applied to a copy of `before` (an kOffloadFp16/kOffloadBf16 state), for checks that
/// compare paths on identical inputs.
AdamState adam_offload_on_copy(const AdamState& before, const AdamHyper& h, CpuIsa isa, unsigned threads);

}  // namespace gpucheck::kernels
