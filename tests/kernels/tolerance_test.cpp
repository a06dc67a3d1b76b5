// The checker must fail on results that are just outside the policy: one ulp over the bound, a NaN, an
// inf, a gradient written at the wrong class index; and it must name the offending element.
#include <gtest/gtest.h>

#include <cmath>

#include "adam/adam_reference.h"
#include "common/check_result.h"
#include "common/tolerance.h"
#include "cross_entropy/ce_reference.h"

using namespace gpucheck::kernels;

namespace {
CheckReport compare16(const HostTensor& got, const HostTensor& want) {
  return check_elements(
      "x", want.size(), [&](std::size_t i) { return got.get(i); }, [&](std::size_t i) { return want.get(i); },
      [&](std::size_t i) { return tolerance::kStoredUlps16 * want.ulp(want.get(i)); });
}
}  // namespace

TEST(Tolerance, OneUlpPassesTwoUlpsFailAtTheRightIndex) {
  HostTensor want(Dtype::kFp16, 100);
  for (std::size_t i = 0; i < 100; ++i) want.set(i, 0.1 * double(i) - 3.0);
  HostTensor got = want;
  EXPECT_TRUE(compare16(got, want).ok());
  got.u16()[37] += 1;  // one ulp away (same binade): within policy
  auto r = compare16(got, want);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.worst_index, 37u);
  EXPECT_GT(r.max_abs, 0.0);
  got.u16()[61] += 2;  // two ulps: one over the policy
  r = compare16(got, want);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.worst_index, 61u);
  EXPECT_NEAR(r.max_abs, 2 * want.ulp(want.get(61)), 1e-12);
  EXPECT_NEAR(r.max_rel, r.max_abs / std::fabs(want.get(61)), 1e-9);
}

TEST(Tolerance, NanAndInfAreNeverWithinTolerance) {
  HostTensor want(Dtype::kFp32, 10);
  for (std::size_t i = 0; i < 10; ++i) want.set(i, double(i) + 1);
  HostTensor got = want;
  got.set(2, 1000.0);  // a large finite error first ...
  got.set(7, NAN);     // ... but the NaN is what gets reported
  auto r = compare16(got, want);
  EXPECT_EQ(r.mismatches, 2u);
  EXPECT_EQ(r.worst_index, 7u);
  EXPECT_TRUE(std::isnan(r.worst_got));
  HostTensor got2 = want;
  got2.set(4, INFINITY);
  r = compare16(got2, want);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.worst_index, 4u);
  // NaN where the reference has NaN, and the same inf, are matches.
  HostTensor w2 = want, g2 = want;
  w2.set(3, NAN), g2.set(3, NAN), w2.set(5, -INFINITY), g2.set(5, -INFINITY);
  EXPECT_TRUE(compare16(g2, w2).ok());
  g2.set(5, INFINITY);
  EXPECT_FALSE(compare16(g2, w2).ok());
}

TEST(Tolerance, AdamMasterWeightOneUlpOverTheBoundFails) {
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f, 1024.0f}, 3);
  AdamState before = make_adam_state(AdamVariant::kBf16, 257, 5, h, false);
  AdamState want = before;
  adam_reference_step(want, h);
  AdamState got = want;
  EXPECT_TRUE(all_ok(check_adam_step(before, want, got, h)));
  // Push one master weight exactly to the bound (passes), then one float step further (fails).
  double p = want.param.get(100);
  double bound = tolerance::kFp32MasterUlps * ulp_fp32(std::max(std::fabs(p), std::fabs(before.param.get(100))));
  float at_bound = static_cast<float>(p + bound);
  while (double(at_bound) - p > bound) at_bound = std::nextafter(at_bound, -INFINITY);
  got.param.f32()[100] = at_bound;
  EXPECT_TRUE(check_adam_step(before, want, got, h)[0].ok()) << check_adam_step(before, want, got, h)[0].describe();
  got.param.f32()[100] = std::nextafter(at_bound, INFINITY);
  auto r = check_adam_step(before, want, got, h)[0];
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.worst_index, 100u);
  EXPECT_EQ(r.name, "param");
}

TEST(Tolerance, CrossEntropyGradientAtTheWrongClassFails) {
  CeCase c = make_ce_case(Dtype::kFp16, 8, 50, 3, CeCaseOptions{0.0});
  CeForward f = ce_forward_reference(c);
  std::vector<float> go(c.rows, 2.0f);
  HostTensor want = ce_backward_reference(c, f.softmax, go);
  EXPECT_TRUE(check_ce_backward(want, want).ok());
  CeCase wrong = c;
  wrong.target[5] = (c.target[5] + 1) % 50;  // the -1 lands one class off
  HostTensor got = ce_backward_reference(wrong, f.softmax, go);
  auto r = check_ce_backward(want, got);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.mismatches, 2u);
  std::size_t row = r.worst_index / 50, col = r.worst_index % 50;
  EXPECT_EQ(row, 5u);
  EXPECT_TRUE(col == std::size_t(c.target[5]) || col == std::size_t(wrong.target[5]));
}

TEST(Tolerance, CollectorTurnsReportsIntoAProbeVerdict) {
  HostTensor want(Dtype::kFp32, 4);
  for (std::size_t i = 0; i < 4; ++i) want.set(i, double(i));
  HostTensor bad = want;
  bad.set(2, 2.5);
  CheckCollector ok, fail;
  ok.add("clean", check_exact("x", want, want));
  gpucheck::Finding r1;
  ok.fill(r1, "demo");
  EXPECT_EQ(r1.status, gpucheck::Status::kPass);
  fail.add("clean", check_exact("x", want, want));
  fail.add("perturbed", check_exact("x", bad, want));
  gpucheck::Finding r2;
  fail.fill(r2, "demo");
  EXPECT_EQ(r2.status, gpucheck::Status::kFail);
  EXPECT_NE(r2.summary.find("perturbed: x: 1/4"), std::string::npos) << r2.summary;
  EXPECT_NE(r2.summary.find("worst [2]"), std::string::npos) << r2.summary;
  EXPECT_EQ(r2.details["cases"].size(), 2u);
  EXPECT_EQ(r2.details["cases"][1]["checks"][0]["worst_index"], 2);
}
