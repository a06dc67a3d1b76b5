#pragma once
// Host-side Adam cases: input generation (random and adversarial), the double-precision reference step
// with the same storage roundings as each kernel, and the per-buffer tolerance check.
#include <cstdint>
#include <string>
#include <vector>

#include "adam/adam_math.h"
#include "common/host_tensor.h"
#include "common/tolerance.h"

namespace gpucheck::kernels {

enum class AdamVariant {
  kFp16,         // GPU, fp16 params, S-scaled fp16 m and fp32 v (spec §1.1)
  kBf16,         // GPU, bf16 params, unscaled fp32 state (spec §1.2)
  kFp32,         // GPU, fp32 params, torch Adam with L2 (spec §1.4)
  kOffloadFp16,  // CPU offload, fp16 params (spec §1.3)
  kOffloadBf16,  // CPU offload, bf16 params (we round to nearest even; BMTrain truncates)
  kFp32AdamW,    // reference only: fp32 params, decoupled weight decay (torch.optim.AdamW), unscaled state
};
const char* to_string(AdamVariant v);

/// All buffers of one parameter tensor. param_h is empty for kFp32.
struct AdamState {
  AdamVariant variant = AdamVariant::kFp16;
  HostTensor param;    // fp32 master
  HostTensor param_h;  // fp16/bf16 model copy (output only)
  HostTensor grad;     // as the kernel receives it: multiplied by the loss scale
  HostTensor m;        // fp16 (S-scaled) for kFp16, fp32 otherwise
  HostTensor v;        // fp32 (S-scaled for kFp16)
  std::size_t size() const { return param.size(); }
};

Dtype adam_half_dtype(AdamVariant v);  // dtype of param_h / grad (fp32 for kFp32)

/// Random state: p ~ N(0,1), g ~ N(0, 0.01)·S, m ~ N(0, 0.01), v ~ |N(0, 1e-4)|. With `adversarial`, a
/// fixed set of elements gets ±inf / NaN gradients, zero gradient and state, fp16 maxima in the scaled
/// state, subnormal gradients, p = 0 and |p| large, so every class appears at known indices.
AdamState make_adam_state(AdamVariant variant, std::size_t n, std::uint64_t seed, const AdamHyper& h,
                          bool adversarial);

/// BMTrain's _on_justify_scale for fp16 params: when the loss scale changes from S to S·factor it
/// multiplies the stored fp16 m and fp32 v by factor in place. fp16 m can overflow to ±inf here (spec
/// §1.1 hazard); the next step then drives those parameters to ±inf. No-op for other variants.
void rescale_scaled_state(AdamState& s, double factor);

/// One optimizer step computed in double, storing each output with the dtype's rounding (RNE).
void adam_reference_step(AdamState& s, const AdamHyper& h);

/// What the GPU kernel computes, run on the host: the same element function in float (no FMA contraction)
/// with the same storage roundings. Tests use it to show the tolerance policy admits the kernel's math.
void adam_host_float_step(AdamState& s, const AdamHyper& h);

/// Compares `got` (after a kernel step from `before`) with `want` (reference step from `before`).
std::vector<CheckReport> check_adam_step(const AdamState& before, const AdamState& want, const AdamState& got,
                                         const AdamHyper& h);

}  // namespace gpucheck::kernels
