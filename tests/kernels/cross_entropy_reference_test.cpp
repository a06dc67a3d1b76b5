// Cross-entropy reference against hand-computed rows and BMTrain's edge semantics (ignore_index,
// all-ignored batches, huge logits, a NaN logit, rows of -inf), and the GPU algorithm's float arithmetic
// (run on the host) against the reference for vocabularies 10, 999 and 86583 in every dtype.
#include <gtest/gtest.h>

#include <cmath>

#include "cross_entropy/ce_math.h"
#include "cross_entropy/ce_reference.h"

using namespace gpucheck::kernels;

namespace {
CeCase fp32_case(std::vector<double> logits, std::size_t vocab, std::vector<std::int32_t> target) {
  CeCase c;
  c.rows = target.size();
  c.vocab = vocab;
  c.logits = HostTensor(Dtype::kFp32, logits.size());
  for (std::size_t i = 0; i < logits.size(); ++i) c.logits.set(i, logits[i]);
  c.target = target;
  return c;
}
}  // namespace

TEST(CrossEntropyReference, HandComputedRow) {
  CeCase c = fp32_case({1, 2, 3}, 3, {2});
  CeForward f = ce_forward_reference(c);
  double s = std::exp(-2.0) + std::exp(-1.0) + 1.0 + 1e-10;
  EXPECT_NEAR(f.loss[0], std::log(s), 1e-7);  // -3 + 3 + log(s)
  EXPECT_NEAR(f.softmax.get(0), std::exp(-2.0) / s, 1e-8);
  EXPECT_NEAR(f.softmax.get(2), 1.0 / s, 1e-7);
  std::vector<float> go{2.0f};
  HostTensor g = ce_backward_reference(c, f.softmax, go);
  EXPECT_NEAR(g.get(2), (1.0 / s - 1.0) * 2.0, 1e-7);
  EXPECT_NEAR(g.get(1), std::exp(-1.0) / s * 2.0, 1e-7);
}

TEST(CrossEntropyReference, IgnoreIndexAndAllIgnoredRows) {
  CeCaseOptions o;
  o.ignore_fraction = 1.0;  // every row ignored
  CeCase c = make_ce_case(Dtype::kFp16, 16, 999, 4, o);
  CeForward f = ce_forward_reference(c);
  for (float l : f.loss) EXPECT_EQ(l, 0.0f);
  std::vector<float> go(c.rows, 0.0f);  // BMTrain's wrapper zeroes grad_output of ignored rows
  HostTensor g = ce_backward_reference(c, f.softmax, go);
  for (std::size_t i = 0; i < g.size(); ++i) ASSERT_EQ(g.u16()[i], 0u) << i;  // +0, not -0 or NaN
}

TEST(CrossEntropyReference, HugeLogitsNanLogitAndInfRows) {
  CeCase c = fp32_case({1e30, -1e30, 0, 0, NAN, 1, -INFINITY, -INFINITY}, 2, {0, 1, 0, 1});
  CeForward f = ce_forward_reference(c);
  EXPECT_NEAR(f.loss[0], 0.0, 1e-9);               // log(1 + 1e-10)
  EXPECT_NEAR(f.loss[1], std::log(2.0), 1e-7);     // two equal logits
  EXPECT_NEAR(f.loss[0], 1e-10, 1e-12);
  EXPECT_TRUE(std::isnan(f.loss[2]));              // a NaN logit poisons the row's sum ...
  EXPECT_EQ(f.row_max[2], 1.0);                    // ... but not its max (fmax ignores NaN)
  EXPECT_TRUE(std::isnan(f.softmax.get(5)));
  EXPECT_TRUE(std::isinf(f.loss[3]));              // all -inf: max clamped to -1e6, softmax 0, loss +inf
  EXPECT_EQ(f.row_max[3], -1e6);
  EXPECT_EQ(f.softmax.get(6), 0.0);
  CeCase big = fp32_case({1e30, -1e30}, 2, {1});
  EXPECT_GT(ce_forward_reference(big).loss[0], 1e30);
}

TEST(CrossEntropyReference, GpuAlgorithmInFloatIsWithinPolicy) {
  for (Dtype d : {Dtype::kFp16, Dtype::kBf16, Dtype::kFp32}) {
    for (std::size_t vocab : {10u, 999u, 86583u}) {
      std::size_t rows = vocab > 10000 ? 6 : 64;
      CeCaseOptions o;
      o.adversarial = true;
      CeCase c = make_ce_case(d, rows, vocab, vocab + 1, o);
      CeForward want = ce_forward_reference(c);
      CeForward got = ce_forward_host_float(c);
      auto reports = check_ce_forward(c, want, got.loss, got.softmax);
      ASSERT_TRUE(all_ok(reports)) << to_string(d) << " vocab " << vocab << ": " << summarize(reports);
      std::vector<float> go(rows);
      for (std::size_t r = 0; r < rows; ++r) go[r] = c.target[r] == c.ignore_index ? 0.0f : 32768.0f / rows;
      HostTensor gw = ce_backward_reference(c, got.softmax, go);
      // The kernel's backward in float, emulated element by element.
      HostTensor gg(d, gw.size());
      for (std::size_t i = 0; i < gg.size(); ++i) {
        std::size_t r = i / vocab;
        bool is_t = c.target[r] >= 0 && std::size_t(c.target[r]) == i % vocab;
        gg.set(i, ce_grad<float>(static_cast<float>(got.softmax.get(i)), is_t, go[r]));
      }
      auto br = check_ce_backward(gw, gg);
      ASSERT_TRUE(br.ok()) << to_string(d) << " vocab " << vocab << ": " << br.describe();
    }
  }
}

// A slower but worse algorithm must be caught: summing without subtracting the max first overflows.
TEST(CrossEntropyReference, PolicyRejectsAnUnstableSoftmax) {
  CeCase c = make_ce_case(Dtype::kFp32, 4, 999, 2, CeCaseOptions{0.0, false, 30.0});
  CeForward want = ce_forward_reference(c);
  CeForward naive = want;
  for (std::size_t r = 0; r < c.rows; ++r) {
    float s = 0;
    for (std::size_t i = 0; i < c.vocab; ++i) s += std::exp(static_cast<float>(c.logits.get(r * 999 + i)));
    for (std::size_t i = 0; i < c.vocab; ++i)
      naive.softmax.set(r * 999 + i, std::exp(static_cast<float>(c.logits.get(r * 999 + i))) / s);
  }
  EXPECT_FALSE(all_ok(check_ce_forward(c, want, naive.loss, naive.softmax)));
}
