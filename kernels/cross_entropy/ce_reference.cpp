#include "cross_entropy/ce_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "common/storage.h"
#include "cross_entropy/ce_chunk.h"
#include "cross_entropy/ce_math.h"

namespace gpucheck::kernels {

CeCase make_ce_case(Dtype dtype, std::size_t rows, std::size_t vocab, std::uint64_t seed, const CeCaseOptions& o) {
  CeCase c;
  c.rows = rows;
  c.vocab = vocab;
  c.logits = HostTensor(dtype, rows * vocab);
  c.target.resize(rows);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, o.logit_stddev);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (std::size_t i = 0; i < rows * vocab; ++i) c.logits.set(i, nd(rng));
  for (std::size_t r = 0; r < rows; ++r)
    c.target[r] = u(rng) < o.ignore_fraction ? c.ignore_index
                                             : static_cast<std::int32_t>(static_cast<std::size_t>(u(rng) * vocab) % vocab);
  if (o.adversarial && rows >= 6 && vocab >= 2) {
    const double inf = std::numeric_limits<double>::infinity();
    const double huge = dtype == Dtype::kFp16 ? 6.0e4 : 1.0e30;
    auto at = [&](std::size_t r, std::size_t i) { return r * vocab + i; };
    c.target[0] = c.ignore_index;
    for (std::size_t i = 0; i < vocab; ++i) c.logits.set(at(1, i), (i % 2 ? huge : -huge) * (0.5 + 0.5 * u(rng)));
    c.target[1] = 1;
    c.logits.set(at(2, vocab / 2), std::numeric_limits<double>::quiet_NaN());
    c.target[2] = 0;
    for (std::size_t i = 0; i < vocab; ++i) c.logits.set(at(3, i), -inf);
    c.target[3] = 0;
    c.logits.set(at(4, vocab / 3), inf);
    c.target[4] = 0;
    c.target[5] = static_cast<std::int32_t>(vocab - 1);
  }
  return c;
}

CeForward ce_forward_reference(const CeCase& c) {
  CeForward f;
  f.loss.assign(c.rows, 0.0f);
  f.softmax = HostTensor(c.logits.dtype(), c.rows * c.vocab);
  f.row_max.assign(c.rows, 0.0);
  f.row_log_sum.assign(c.rows, 0.0);
  for (std::size_t r = 0; r < c.rows; ++r) {
    const std::size_t base = r * c.vocab;
    double mx = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < c.vocab; ++i) mx = std::fmax(mx, c.logits.get(base + i));  // NaN ignored
    mx = std::fmax(mx, static_cast<double>(kCeMaxFloor));
    double s = 0.0;
    for (std::size_t i = 0; i < c.vocab; ++i) s += std::exp(c.logits.get(base + i) - mx);
    s += static_cast<double>(kCeSumEpsilon);
    for (std::size_t i = 0; i < c.vocab; ++i) f.softmax.set(base + i, ce_softmax<double>(c.logits.get(base + i), mx, s));
    std::int32_t t = c.target[r];
    double loss;
    if (t == c.ignore_index) loss = 0.0;
    else if (t < 0 || static_cast<std::size_t>(t) >= c.vocab) loss = std::numeric_limits<double>::quiet_NaN();
    else loss = ce_loss<double>(c.logits.get(base + t), mx, s);
    f.loss[r] = static_cast<float>(loss);
    f.row_max[r] = mx;
    f.row_log_sum[r] = std::log(s);
  }
  return f;
}

namespace {
// Tree reduction over lanes in the order the warp shuffles (down, offsets 16..1) and then the per-warp
// slots (in warp order) combine them, for any combine op: max, sum, the chunk-statistics merge.
template <class V, class Op>
V tree(std::vector<V> v, Op op) {
  const std::size_t lanes = v.size();
  std::vector<V> warps;
  for (std::size_t w = 0; w < lanes; w += 32) {
    for (std::size_t o = 16; o > 0; o >>= 1)
      for (std::size_t l = 0; l < o; ++l) v[w + l] = op(v[w + l], v[w + l + o]);
    warps.push_back(v[w]);
  }
  V r = warps[0];
  for (std::size_t k = 1; k < warps.size(); ++k) r = op(r, warps[k]);
  return r;
}
float fmax_op(float a, float b) { return std::fmax(a, b); }
float sum_op(float a, float b) { return a + b; }
}  // namespace

namespace {
struct HostStat {
  float x, y;  // chunk max, chunk sum (float2 on the device)
};

template <class S>
CeForward host_float_forward(const CeCase& c) {
  using T = typename S::T;
  CeForward f;
  f.loss.assign(c.rows, 0.0f);
  f.softmax = HostTensor(c.logits.dtype(), c.rows * c.vocab);
  f.row_max.assign(c.rows, 0.0);
  f.row_log_sum.assign(c.rows, 0.0);
  const std::size_t chunks = ce_chunk_count<T>(c.vocab);
  const T* logits = static_cast<const T*>(c.logits.data());
  T* softmax = static_cast<T*>(f.softmax.data());
  std::vector<HostStat> st(chunks);
  std::vector<float> lane(kCeBlock);
  std::vector<CeRowMerge> merge_lane(kCeBlock);
  float v[kCePerThread];
  for (std::size_t r = 0; r < c.rows; ++r) {
    // The row's phase on a 16-byte aligned device allocation (cudaMalloc's are 256-byte aligned).
    CeRowPlan plan;
    plan.vocab = c.vocab;
    plan.vector = true;
    plan.phase = static_cast<unsigned>((r * c.vocab) % ce_pack_width<T>());
    const T* row = ce_row(logits, r, c.vocab);
    for (std::size_t k = 0; k < chunks; ++k) {
      for (unsigned tid = 0; tid < kCeBlock; ++tid) {
        ce_thread_load<S>(row, plan, k, tid, v);
        lane[tid] = ce_thread_max(v);
      }
      const float mx = tree(lane, fmax_op);
      for (unsigned tid = 0; tid < kCeBlock; ++tid) {
        ce_thread_load<S>(row, plan, k, tid, v);
        lane[tid] = ce_thread_sum_exp(v, mx);
      }
      st[k] = {mx, tree(lane, sum_op)};
    }
    // The softmax pass's block merge (ce_cuda.cu's block_merge): per-thread folds, then the same tree.
    for (unsigned tid = 0; tid < kCeBlock; ++tid) merge_lane[tid] = ce_thread_merge(st.data(), chunks, tid);
    CeRowMerge m = tree(merge_lane, ce_merge);
    m.sum += kCeSumEpsilon;
    const float inv = 1.0f / m.sum;
    for (std::size_t k = 0; k < chunks; ++k)
      for (unsigned tid = 0; tid < kCeBlock; ++tid)
        ce_thread_softmax<S>(row, ce_row(softmax, r, c.vocab), plan, plan, k, tid, m.max, inv);
    std::int32_t t = c.target[r];
    if (t == c.ignore_index) f.loss[r] = 0.0f;
    else if (t < 0 || static_cast<std::size_t>(t) >= c.vocab) f.loss[r] = std::numeric_limits<float>::quiet_NaN();
    else f.loss[r] = ce_loss<float>(S::load(row[t]), m.max, m.sum);
    f.row_max[r] = m.max;
    f.row_log_sum[r] = std::log(m.sum);
  }
  return f;
}
}  // namespace

CeForward ce_forward_host_float(const CeCase& c) {
  switch (c.logits.dtype()) {
    case Dtype::kFp16: return host_float_forward<Fp16Storage>(c);
    case Dtype::kBf16: return host_float_forward<Bf16Storage>(c);
    case Dtype::kFp32: return host_float_forward<Fp32Storage>(c);
  }
  return {};
}

HostTensor ce_backward_reference(const CeCase& c, const HostTensor& softmax, const std::vector<float>& grad_output) {
  HostTensor g(softmax.dtype(), softmax.size());
  for (std::size_t r = 0; r < c.rows; ++r)
    for (std::size_t i = 0; i < c.vocab; ++i) {
      std::size_t k = r * c.vocab + i;
      bool is_t = c.target[r] >= 0 && static_cast<std::size_t>(c.target[r]) == i;
      g.set(k, ce_grad<double>(softmax.get(k), is_t, grad_output[r]));
    }
  return g;
}

std::vector<CheckReport> check_ce_forward(const CeCase& c, const CeForward& want, const std::vector<float>& loss,
                                          const HostTensor& softmax) {
  namespace tol = tolerance;
  std::vector<CheckReport> out;
  out.push_back(check_elements(
      "loss", c.rows, [&](std::size_t r) { return static_cast<double>(loss[r]); },
      [&](std::size_t r) { return static_cast<double>(want.loss[r]); },
      [&](std::size_t r) {
        std::int32_t t = c.target[r];
        if (t == c.ignore_index) return 0.0;  // must be exactly 0
        double xt = c.logits.get(r * c.vocab + static_cast<std::size_t>(t));
        double mag = std::fabs(xt) + std::fabs(want.row_max[r]) + std::fabs(want.row_log_sum[r]);
        return 4 * ulp_fp32(mag) + tol::kCeSumRelError;
      }));
  out.push_back(check_elements(
      "softmax", c.rows * c.vocab, [&](std::size_t i) { return softmax.get(i); },
      [&](std::size_t i) { return want.softmax.get(i); },
      [&](std::size_t i) {
        double w = want.softmax.get(i);
        double arg = std::fabs(c.logits.get(i) - want.row_max[i / c.vocab]);
        double rel = arg * std::ldexp(1.0, -24) + tol::kCeExpUlps * std::ldexp(1.0, -24) + tol::kCeSumRelError;
        return tol::stored_bound(softmax.dtype(), w, std::fabs(w) * rel);
      }));
  return out;
}

CheckReport check_ce_backward(const HostTensor& want, const HostTensor& got) {
  namespace tol = tolerance;
  return check_elements(
      "grad", want.size(), [&](std::size_t i) { return got.get(i); }, [&](std::size_t i) { return want.get(i); },
      [&](std::size_t i) {
        double w = want.get(i);
        // float evaluates (s - onehot) then * grad: two roundings before the storage rounding.
        return tol::stored_bound(want.dtype(), w, tol::kFp32StoredUlps * ulp_fp32(w));
      });
}

}  // namespace gpucheck::kernels
