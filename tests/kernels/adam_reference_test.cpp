// The Adam references against hand-computed steps, the scaled-state algebra, and the kernels' float math
// (run on the host) against the double references under the tolerance policy.
#include <gtest/gtest.h>

#include <cmath>

#include "adam/adam_reference.h"
#include "common/half_bits.h"

using namespace gpucheck::kernels;

namespace {
AdamHyper first_step(float lr, float wd, float scale) {
  AdamHyper h;
  h.lr = lr, h.beta1 = 0.9f, h.beta2 = 0.999f, h.eps = 1e-8f, h.weight_decay = wd, h.scale = scale;
  return adam_with_step(h, 1);
}
AdamState one(AdamVariant v, double p, double g_scaled, double m, double vv) {
  AdamState s = make_adam_state(v, 1, 1, AdamHyper{}, false);
  s.param.set(0, p), s.grad.set(0, g_scaled), s.m.set(0, m), s.v.set(0, vv);
  return s;
}
}  // namespace

TEST(AdamReference, BiasCorrectionsFromTheStep) {
  AdamHyper h = adam_with_step(AdamHyper{}, 1);
  EXPECT_FLOAT_EQ(h.bias_correction1, 1.0f - 0.9f);
  EXPECT_FLOAT_EQ(h.bias_correction2, static_cast<float>(1.0 - 0.999f));
  h = adam_with_step(AdamHyper{}, 10);
  EXPECT_FLOAT_EQ(h.bias_correction1, static_cast<float>(1.0 - std::pow(double(0.9f), 10)));
}

// First step from zero state: m̂ = g, v̂ = g², so p1 = p - lr·g/(|g| + eps) - lr·wd·p (decoupled).
TEST(AdamReference, HandComputedFirstStepFp16ScaledState) {
  AdamHyper h = first_step(0.1f, 0.01f, 4.0f);
  AdamState s = one(AdamVariant::kFp16, 1.0, 0.5 * 4, 0, 0);
  adam_reference_step(s, h);
  double want_p = 1.0 - 0.1 * 0.5 / (0.5 + 1e-8) - 0.1 * 0.01 * 1.0;
  EXPECT_NEAR(s.param.get(0), want_p, 1e-7);
  EXPECT_EQ(s.param_h.u16()[0], fp16_from_float(static_cast<float>(want_p)));
  EXPECT_EQ(s.m.u16()[0], fp16_from_float(0.1f * 2.0f));                    // S·m = S·(1-b1)·g
  EXPECT_NEAR(s.v.get(0), 4.0 * (1 - double(0.999f)) * 0.25, 1e-12);         // S·v
}

TEST(AdamReference, HandComputedFirstStepBf16AndOffload) {
  AdamHyper h = first_step(0.1f, 0.01f, 4.0f);
  for (AdamVariant v : {AdamVariant::kBf16, AdamVariant::kOffloadBf16, AdamVariant::kOffloadFp16}) {
    AdamState s = one(v, 1.0, -0.25 * 4, 0, 0);
    adam_reference_step(s, h);
    double want_p = 1.0 + 0.1 * 0.25 / (0.25 + 1e-8) - 0.1 * 0.01;
    EXPECT_NEAR(s.param.get(0), want_p, 1e-7) << to_string(v);
    EXPECT_NEAR(s.m.get(0), (1 - double(0.9f)) * -0.25, 1e-9) << to_string(v);  // unscaled state
    EXPECT_NEAR(s.v.get(0), (1 - double(0.999f)) * 0.0625, 1e-12) << to_string(v);
  }
}

// torch's Adam adds wd·p to the gradient: on a first step the update is still lr·sign(g + wd·p), so with
// g = 0.5, wd = 0.01, p = 1 the weight moves by lr, not lr·(1 + wd) as in the decoupled variants.
TEST(AdamReference, Fp32IsTorchAdamWithCoupledL2) {
  AdamHyper h = first_step(0.1f, 0.01f, 1.0f);
  AdamState s = one(AdamVariant::kFp32, 1.0, 0.5, 0, 0);
  adam_reference_step(s, h);
  double g = 0.5 + double(0.01f) * 1.0;
  EXPECT_NEAR(s.param.get(0), 1.0 - double(0.1f) * g / (g + 1e-8), 1e-7);
  EXPECT_NEAR(s.m.get(0), (1 - double(0.9f)) * g, 1e-8);
  AdamState d = one(AdamVariant::kFp32AdamW, 1.0, 0.5, 0, 0);
  adam_reference_step(d, h);
  EXPECT_NEAR(d.param.get(0), 1.0 - 0.1 * 0.5 / (0.5 + 1e-8) - 0.1 * 0.01, 1e-7);
}

// The S-scaled fp16 state is an implementation detail: the same true gradient gives the same weights for
// any loss scale (up to fp16 rounding of the stored state).
TEST(AdamReference, LossScaleDoesNotChangeTheUpdate) {
  AdamHyper h1 = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1.0f}, 5);
  AdamHyper h2 = h1;
  h2.scale = 1024.0f;
  AdamState a = make_adam_state(AdamVariant::kFp16, 4096, 9, h1, false);
  AdamState b = a;
  for (std::size_t i = 0; i < a.size(); ++i) {
    b.grad.set(i, a.grad.get(i) * 1024), b.m.set(i, a.m.get(i) * 1024), b.v.set(i, a.v.get(i) * 1024);
  }
  adam_reference_step(a, h1);
  adam_reference_step(b, h2);
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a.param.get(i), b.param.get(i), 1e-6) << i;
}

// What the CUDA kernels compute (the same element functions in float), against the double reference,
// random and adversarial inputs, several sizes, every variant; also over 20 consecutive steps.
TEST(AdamReference, KernelFloatMathIsWithinPolicy) {
  for (AdamVariant v : {AdamVariant::kFp16, AdamVariant::kBf16, AdamVariant::kFp32, AdamVariant::kOffloadFp16,
                        AdamVariant::kOffloadBf16, AdamVariant::kFp32AdamW}) {
    for (float scale : {1.0f, 1024.0f, 65536.0f}) {
      for (std::size_t n : {1u, 1000u, 65537u}) {
        for (bool adv : {false, true}) {
          AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, scale}, 5);
          AdamState before = make_adam_state(v, n, n + 3, h, adv);
          AdamState want = before, got = before;
          adam_reference_step(want, h);
          adam_host_float_step(got, h);
          auto reports = check_adam_step(before, want, got, h);
          ASSERT_TRUE(all_ok(reports)) << to_string(v) << " S=" << scale << " n=" << n << " adv=" << adv << ": "
                                       << summarize(reports);
        }
      }
    }
    AdamHyper h0{1e-2f, 0.9f, 0.999f, 1e-8f, 0.01f, 256.0f};
    AdamState s = make_adam_state(v, 5000, 77, h0, false);
    for (int step = 1; step <= 20; ++step) {
      AdamHyper h = adam_with_step(h0, step);
      AdamState want = s, got = s;
      adam_reference_step(want, h);
      adam_host_float_step(got, h);
      auto reports = check_adam_step(s, want, got, h);
      ASSERT_TRUE(all_ok(reports)) << to_string(v) << " step " << step << ": " << summarize(reports);
      s = got;
    }
  }
}

TEST(AdamReference, AdversarialClassesBehaveAsSpecified) {
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.999f, 1e-8f, 0.0f, 1.0f}, 1);
  AdamState s = make_adam_state(AdamVariant::kFp16, 110, 1, h, true);
  AdamState r = s;
  adam_reference_step(r, h);
  std::size_t stride = 110 / 11;
  EXPECT_TRUE(std::isnan(r.param.get(0)));             // +inf gradient: inf/inf in the update
  EXPECT_TRUE(std::isnan(r.param.get(2 * stride)));    // NaN gradient
  EXPECT_TRUE(std::isinf(r.m.get(0)));
  EXPECT_EQ(r.param.get(3 * stride), s.param.get(3 * stride));  // zero grad and state: no move
  EXPECT_EQ(r.m.get(4 * stride), 65504.0);                       // fp16 state at its maximum stays finite
}

// Raising the loss scale doubles the stored fp16 m: |S·m| > 32752 overflows to inf, and the following
// step drives that parameter to ±inf — in the reference and in the kernel's float math alike.
TEST(AdamReference, RescaledFp16StateOverflowsAndPoisonsTheStep) {
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.999f, 1e-8f, 0.0f, 2048.0f}, 3);
  AdamState s = make_adam_state(AdamVariant::kFp16, 64, 4, h, false);
  s.m.set(10, 40000.0);
  s.m.set(11, -30000.0);
  rescale_scaled_state(s, 2.0);
  EXPECT_TRUE(std::isinf(s.m.get(10)));
  EXPECT_EQ(s.m.get(11), -60000.0);
  h.scale *= 2;
  AdamState want = s, got = s;
  adam_reference_step(want, h);
  adam_host_float_step(got, h);
  EXPECT_TRUE(std::isinf(want.param.get(10)));  // p - lr·inf/(sqrt(v̂)+eps)
  EXPECT_TRUE(std::isfinite(want.param.get(11)));
  EXPECT_TRUE(all_ok(check_adam_step(s, want, got, h))) << summarize(check_adam_step(s, want, got, h));
}
