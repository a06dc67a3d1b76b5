#include "reference.h"

#include <cmath>

#include "adam/adam_math.h"

namespace gpucheck::training {

double LossScaler::after_step(bool overflow, int window) {
  if (overflow) {
    good = 0;
    if (scale > 1) {
      scale /= 2;
      return 0.5;
    }
    return 1;
  }
  if (++good < window) return 1;
  good = 0;
  scale *= 2;
  return 2;
}

namespace {

using Mat = std::vector<double>;

// C (m x n) += op(A) op(B) with A(i,p) = a[i*ar + p*ac] and B(p,j) = b[p*br + j*bc].
void gemm_add(std::size_t m, std::size_t n, std::size_t k, const double* a, std::size_t ar, std::size_t ac,
              const double* b, std::size_t br, std::size_t bc, double* c) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double acc = 0;
      for (std::size_t p = 0; p < k; ++p) acc += a[i * ar + p * ac] * b[p * br + j * bc];
      c[i * n + j] += acc;
    }
}

// Loss of one rank's micro-batch; adds d(loss summed over the job / (world * tokens)) to grads.
double forward_backward(const StepConfig& c, int world, const std::vector<Mat>& w, const Batch& b,
                        std::vector<Mat>& grads) {
  const std::size_t T = c.tokens, d = c.hidden, V = c.vocab, L = c.linears;
  std::vector<Mat> h(L + 1, Mat(T * d, 0.0));
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t j = 0; j < d; ++j) h[0][t * d + j] = w[0][b.tokens[t] * d + j];
  for (std::size_t l = 1; l <= L; ++l)  // h_l = h_{l-1} W_l^T
    gemm_add(T, d, d, h[l - 1].data(), d, 1, w[l].data(), 1, d, h[l].data());
  const Mat& head = w[L + 1];
  Mat logits(T * V, 0.0);
  gemm_add(T, V, d, h[L].data(), d, 1, head.data(), 1, d, logits.data());
  double loss = 0;
  Mat dlogits(T * V);
  const double go = 1.0 / (double(world) * T);
  for (std::size_t t = 0; t < T; ++t) {
    double mx = logits[t * V];
    for (std::size_t v = 1; v < V; ++v) mx = std::max(mx, logits[t * V + v]);
    double sum = 0;
    for (std::size_t v = 0; v < V; ++v) sum += std::exp(logits[t * V + v] - mx);
    loss += mx + std::log(sum) - logits[t * V + b.targets[t]];
    for (std::size_t v = 0; v < V; ++v)
      dlogits[t * V + v] = (std::exp(logits[t * V + v] - mx) / sum - (int(v) == b.targets[t] ? 1.0 : 0.0)) * go;
  }
  // head: dH += dlogits^T h_L, dh_L = dlogits H
  gemm_add(V, d, T, dlogits.data(), 1, V, h[L].data(), d, 1, grads[L + 1].data());
  Mat dh(T * d, 0.0);
  gemm_add(T, d, V, dlogits.data(), V, 1, head.data(), d, 1, dh.data());
  for (std::size_t l = L; l >= 1; --l) {
    gemm_add(d, d, T, dh.data(), 1, d, h[l - 1].data(), d, 1, grads[l].data());  // dW += dh^T h_{l-1}
    Mat dx(T * d, 0.0);
    gemm_add(T, d, d, dh.data(), d, 1, w[l].data(), d, 1, dx.data());  // dx = dh W
    dh.swap(dx);
  }
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t j = 0; j < d; ++j) grads[0][b.tokens[t] * d + j] += dh[t * d + j];
  return loss / T;
}

}  // namespace

ReferenceRun run_reference(const StepConfig& c, int world) {
  ReferenceRun run;
  std::vector<Mat> w, m, v;
  for (auto& layer : initial_weights(c)) {
    w.emplace_back(layer.begin(), layer.end());
    m.emplace_back(layer.size(), 0.0);
    v.emplace_back(layer.size(), 0.0);
  }
  LossScaler scaler{c.initial_scale, 0};
  int adam_step = 0;
  for (int s = 1; s <= c.steps; ++s) {
    std::vector<Mat> g;
    for (auto& layer : w) g.emplace_back(layer.size(), 0.0);
    std::vector<double> losses;
    for (int r = 0; r < world; ++r) losses.push_back(forward_backward(c, world, w, make_batch(c, s, r), g));
    const bool overflow = s == c.overflow_step;  // the planted overflow: BMTrain skips the step
    run.loss.push_back(losses);
    run.scale.push_back(scaler.scale);
    run.skipped.push_back(overflow);
    if (!overflow) {
      kernels::AdamHyper h = kernels::adam_with_step(
          kernels::AdamHyper{c.lr, c.beta1, c.beta2, c.eps, c.weight_decay, 1.0f}, ++adam_step);
      for (std::size_t l = 0; l < w.size(); ++l)
        for (std::size_t i = 0; i < w[l].size(); ++i)
          kernels::adam_unscaled_state_element<double>(h, g[l][i], w[l][i], m[l][i], v[l][i]);
    }
    scaler.after_step(overflow, c.scale_window);
    run.weights.push_back(w);
  }
  return run;
}

}  // namespace gpucheck::training
