#pragma once
// Per-element Adam formulas (spec §1.1-§1.4), one definition for the CUDA kernels (T = float), the CPU
// offload optimizer (T = float) and the references (T = double). Storage rounding is the caller's job.
#include "common/hd.h"

namespace gpucheck::kernels {

/// Scalars of one optimizer step, as the kernels receive them (float, like BMTrain's launchers).
/// bias_correction{1,2} = 1 - beta^t computed by the host in double, then narrowed (adam_bias_corrections).
struct AdamHyper {
  float lr = 1e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.0f;
  float scale = 1.0f;  // loss scale S: gradients arrive multiplied by it
  float bias_correction1 = 0.1f;
  float bias_correction2 = 0.001f;
};

/// Fills bias_correction1/2 for 1-based step t exactly as BMTrain's Python does (double pow, then float).
AdamHyper adam_with_step(AdamHyper h, int step);

/// fp16 parameters (spec §1.1): g, m and v are all stored multiplied by S; decoupled weight decay with the
/// old p; eps after the sqrt. Left-to-right order of the BMTrain kernel.
template <typename T>
GK_HD void adam_scaled_state_element(const AdamHyper& h, T g, T& p, T& m, T& v) {
  const T S = h.scale;
  T m1 = T(h.beta1) * m + (T(1) - T(h.beta1)) * g;
  T v1 = T(h.beta2) * v + (T(1) - T(h.beta2)) * g * g / S;
  T p1 = p - T(h.lr) * m1 / T(h.bias_correction1) / (gk_sqrt(v1 * S / T(h.bias_correction2)) + T(h.eps) * S) -
         T(h.lr) * T(h.weight_decay) * p;
  p = p1;
  m = m1;
  v = v1;
}

/// bf16 parameters on the GPU (spec §1.2): unscaled fp32 state, g divided by S first.
template <typename T>
GK_HD void adam_unscaled_state_element(const AdamHyper& h, T g_scaled, T& p, T& m, T& v) {
  T g = g_scaled / T(h.scale);
  T m1 = T(h.beta1) * m + (T(1) - T(h.beta1)) * g;
  T v1 = T(h.beta2) * v + (T(1) - T(h.beta2)) * g * g;
  T p1 = p - T(h.lr) * m1 / T(h.bias_correction1) / (gk_sqrt(v1 / T(h.bias_correction2)) + T(h.eps)) -
         T(h.lr) * T(h.weight_decay) * p;
  p = p1;
  m = m1;
  v = v1;
}

/// The CPU offload optimizer's math (spec §1.3), written with explicit fused multiply-adds in one fixed
/// order. The scalar, AVX2 and AVX-512 paths all evaluate exactly this, so they agree bit for bit
/// whatever the ISA or the thread count (BMTrain's do not: its scalar tail skips the FMAs).
GK_HD void adam_offload_element(const AdamHyper& h, float g_scaled, float& p, float& m, float& v) {
  float g = g_scaled / h.scale;
  float m1 = gk_fma(h.beta1, m, (1.0f - h.beta1) * g);
  float v1 = gk_fma(h.beta2, v, (1.0f - h.beta2) * (g * g));
  float p1 = gk_fma(-h.lr, h.weight_decay * p, p);
  float upd = (m1 / h.bias_correction1) / (gk_sqrt(v1 / h.bias_correction2) + h.eps);
  p = gk_fma(-h.lr, upd, p1);
  m = m1;
  v = v1;
}

/// fp32 parameters: torch.optim.Adam (spec §1.4) — L2 weight decay added to the unscaled gradient
/// (coupled), denom = sqrt(v)/sqrt(bc2) + eps, step = lr/bc1.
template <typename T>
GK_HD void adam_torch_l2_element(const AdamHyper& h, T g_scaled, T& p, T& m, T& v) {
  T g = g_scaled / T(h.scale) + T(h.weight_decay) * p;
  m = T(h.beta1) * m + (T(1) - T(h.beta1)) * g;
  v = T(h.beta2) * v + (T(1) - T(h.beta2)) * g * g;
  T denom = gk_sqrt(v) / gk_sqrt(T(h.bias_correction2)) + T(h.eps);
  p = p - (T(h.lr) / T(h.bias_correction1)) * m / denom;
}

}  // namespace gpucheck::kernels
