#include "adam/adam_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace gpucheck::kernels {

AdamHyper adam_with_step(AdamHyper h, int step) {
  h.bias_correction1 = static_cast<float>(1.0 - std::pow(static_cast<double>(h.beta1), step));
  h.bias_correction2 = static_cast<float>(1.0 - std::pow(static_cast<double>(h.beta2), step));
  return h;
}

const char* to_string(AdamVariant v) {
  switch (v) {
    case AdamVariant::kFp16: return "fp16";
    case AdamVariant::kBf16: return "bf16";
    case AdamVariant::kFp32: return "fp32";
    case AdamVariant::kOffloadFp16: return "offload_fp16";
    case AdamVariant::kOffloadBf16: return "offload_bf16";
    case AdamVariant::kFp32AdamW: return "fp32_adamw";
  }
  return "?";
}

Dtype adam_half_dtype(AdamVariant v) {
  switch (v) {
    case AdamVariant::kFp16:
    case AdamVariant::kOffloadFp16: return Dtype::kFp16;
    case AdamVariant::kBf16:
    case AdamVariant::kOffloadBf16: return Dtype::kBf16;
    case AdamVariant::kFp32:
    case AdamVariant::kFp32AdamW: return Dtype::kFp32;
  }
  return Dtype::kFp32;
}

namespace {
bool scaled_state(AdamVariant v) { return v == AdamVariant::kFp16; }
}  // namespace

AdamState make_adam_state(AdamVariant variant, std::size_t n, std::uint64_t seed, const AdamHyper& h,
                          bool adversarial) {
  AdamState s;
  s.variant = variant;
  Dtype hd = adam_half_dtype(variant);
  s.param = HostTensor(Dtype::kFp32, n);
  if (hd != Dtype::kFp32) s.param_h = HostTensor(hd, n);
  s.grad = HostTensor(hd, n);
  s.m = HostTensor(scaled_state(variant) ? Dtype::kFp16 : Dtype::kFp32, n);
  s.v = HostTensor(Dtype::kFp32, n);
  const double S = h.scale;
  const double state_scale = scaled_state(variant) ? S : 1.0;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    s.param.set(i, nd(rng));
    s.grad.set(i, 0.1 * nd(rng) * S);
    s.m.set(i, 0.1 * nd(rng) * state_scale);
    s.v.set(i, std::fabs(0.01 * nd(rng)) * state_scale);
  }
  if (adversarial && n > 0) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Largest finite fp16; for wider types a value whose square still fits in float (the kernels square it).
    const double big = hd == Dtype::kFp16 ? 65504.0 : 1.0e18;
    // Each class lands on index k*stride + c so it shows up for any n, the tail included.
    auto at = [&](std::size_t c) { return std::min(n - 1, c * std::max<std::size_t>(1, n / 11)); };
    s.grad.set(at(0), inf);
    s.grad.set(at(1), -inf);
    s.grad.set(at(2), nan);
    s.grad.set(at(3), 0.0), s.m.set(at(3), 0.0), s.v.set(at(3), 0.0);             // all zero: update 0
    s.grad.set(at(4), big), s.m.set(at(4), hd == Dtype::kFp16 ? 65504.0 : 1e3);   // top of the fp16 range
    s.grad.set(at(5), hd == Dtype::kFp16 ? 5.96e-8 : 1e-39);                      // smallest subnormal
    s.param.set(at(6), 0.0);
    s.param.set(at(7), 1e30);
    s.grad.set(at(8), -big), s.m.set(at(8), hd == Dtype::kFp16 ? -65504.0 : -1e3);
    s.param.set(n - 1, -3.5);  // the last element, the one a kernel without a bounds check tends to miss
  }
  return s;
}

void rescale_scaled_state(AdamState& s, double factor) {
  if (s.variant != AdamVariant::kFp16) return;
  for (std::size_t i = 0; i < s.size(); ++i) {
    s.m.set(i, s.m.get(i) * factor);
    s.v.set(i, s.v.get(i) * factor);
  }
}

namespace {
// One step over every element in precision T, storing through the dtypes' rounding.
template <typename T>
void adam_step_in(AdamState& s, const AdamHyper& h) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    T p = static_cast<T>(s.param.get(i)), g = static_cast<T>(s.grad.get(i));
    T m = static_cast<T>(s.m.get(i)), v = static_cast<T>(s.v.get(i));
    switch (s.variant) {
      case AdamVariant::kFp16: adam_scaled_state_element<T>(h, g, p, m, v); break;
      case AdamVariant::kBf16:
      case AdamVariant::kOffloadFp16:
      case AdamVariant::kOffloadBf16:
      case AdamVariant::kFp32AdamW: adam_unscaled_state_element<T>(h, g, p, m, v); break;
      case AdamVariant::kFp32: adam_torch_l2_element<T>(h, g, p, m, v); break;
    }
    s.param.set(i, p);
    if (s.param_h.size()) s.param_h.set(i, static_cast<float>(p));
    s.m.set(i, m);
    s.v.set(i, v);
  }
}
}  // namespace

void adam_reference_step(AdamState& s, const AdamHyper& h) { adam_step_in<double>(s, h); }
void adam_host_float_step(AdamState& s, const AdamHyper& h) { adam_step_in<float>(s, h); }

std::vector<CheckReport> check_adam_step(const AdamState& before, const AdamState& want, const AdamState& got,
                                         const AdamHyper& h) {
  namespace tol = tolerance;
  const std::size_t n = before.size();
  const AdamVariant var = before.variant;
  const double S = h.scale, b1 = h.beta1, b2 = h.beta2;
  const bool scaled = var == AdamVariant::kFp16;
  // Magnitudes of the terms each output is built from (double, from the inputs and the reference).
  // |gradient| the kernel works with; for torch's L2 form the float sum g/S + wd·p is off by an ulp of
  // the larger addend, so both count.
  auto grad_term = [&](std::size_t i) {
    double g = std::fabs(before.grad.get(i));
    if (!scaled) g /= S;
    if (var == AdamVariant::kFp32) g += std::fabs(h.weight_decay * before.param.get(i));
    return g;
  };
  // Error of the float gradient itself (g/S rounded, plus the L2 addition): an ulp of its magnitude; it
  // enters m once and v through g² (2·|g|·δg).
  auto grad_err = [&](std::size_t i) { return scaled ? 0.0 : ulp_fp32(grad_term(i)); };
  auto m_bound = [&](std::size_t i) {
    double mag = std::max({std::fabs(b1 * before.m.get(i)), std::fabs((1 - b1) * grad_term(i)), std::fabs(want.m.get(i))});
    return tol::kFp32MomentUlps * ulp_fp32(mag) + (1 - b1) * grad_err(i);
  };
  auto v_bound = [&](std::size_t i) {
    double g = grad_term(i);
    double gg = scaled ? g * g / S : g * g;
    double mag = std::max({std::fabs(b2 * before.v.get(i)), std::fabs((1 - b2) * gg), std::fabs(want.v.get(i))});
    return tol::kFp32MomentUlps * ulp_fp32(mag) + (1 - b2) * 2 * g * grad_err(i);
  };
  auto p_bound = [&](std::size_t i) {
    double p0 = before.param.get(i), p1 = want.param.get(i);
    double upd = std::fabs(p0 - p1) + std::fabs(h.lr * h.weight_decay * p0);
    double mag = std::max({std::fabs(p0), upd, std::fabs(p1)});
    // The float m1 is only within m_bound of the exact one: ulps of its larger addend, not of |m1| (they
    // cancel when g opposes m). The update is linear in m1 with slope lr/(bc1·denom), so that error reaches
    // p amplified by it — on top of the per-operation roundings above (tolerance.h, fp32 master weight).
    double v1 = want.v.get(i);
    double denom = scaled ? std::sqrt(v1 * S / h.bias_correction2) + h.eps * S
                          : std::sqrt(v1 / h.bias_correction2) + h.eps;
    double from_m = h.lr / h.bias_correction1 / denom * m_bound(i);
    if (!std::isfinite(from_m)) from_m = 0;  // non-finite state: the non-finite rules decide, not this term
    return tol::kFp32MasterUlps * ulp_fp32(mag) + from_m;
  };
  std::vector<CheckReport> out;
  auto cmp = [&](const std::string& name, const HostTensor& g, const HostTensor& w, auto allowed) {
    out.push_back(check_elements(
        name, n, [&](std::size_t i) { return g.get(i); }, [&](std::size_t i) { return w.get(i); }, allowed));
  };
  cmp("param", got.param, want.param, p_bound);
  if (want.param_h.size())
    cmp("param_h", got.param_h, want.param_h,
        [&](std::size_t i) { return tol::stored_bound(want.param_h.dtype(), want.param.get(i), p_bound(i)); });
  if (want.m.dtype() == Dtype::kFp32) cmp("m", got.m, want.m, m_bound);
  else cmp("m", got.m, want.m, [&](std::size_t i) { return tol::stored_bound(want.m.dtype(), want.m.get(i), m_bound(i)); });
  cmp("v", got.v, want.v, v_bound);
  return out;
}

}  // namespace gpucheck::kernels
