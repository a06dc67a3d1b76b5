#include "zero_step.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>

#include "adam/adam_reference.h"
#include "collectives/layout.h"
#include "common/half_bits.h"
#include "cross_entropy/ce_reference.h"
#include "host_math.h"

namespace gpucheck::training {

void to_json(nlohmann::json& j, const RankOutcome& o) {
  j = {{"rank", o.rank},   {"stats", o.stats},       {"loss", o.loss},
       {"scale", o.scale}, {"skipped", o.skipped},   {"step_seconds", o.step_seconds}};
  if (o.first) j["first"] = *o.first;
}

// JSON has no NaN: a diverged loss travels as null.
static std::vector<double> numbers(const nlohmann::json& j) {
  std::vector<double> v;
  for (auto& x : j) v.push_back(x.is_number() ? x.get<double>() : std::nan(""));
  return v;
}

void from_json(const nlohmann::json& j, RankOutcome& o) {
  o.rank = j.at("rank"), o.stats = j.at("stats"), o.loss = numbers(j.at("loss"));
  o.scale = numbers(j.at("scale")), o.skipped = j.at("skipped").get<std::vector<int>>();
  o.step_seconds = numbers(j.at("step_seconds"));
  if (j.contains("first")) o.first = j.at("first").get<Divergence>();
}

double loss_tolerance(Dtype d, int adam_steps) {
  return 4 * std::ldexp(1.0, d == Dtype::kBf16 ? -8 : -11) * (1 + adam_steps);
}

double weight_tolerance(Dtype, int adam_steps, float lr) { return 2.5 * adam_steps * double(lr); }

namespace {

using collectives::CollOp;
using collectives::Collective;
using collectives::RedOp;
using kernels::AdamState;
using kernels::AdamVariant;
using kernels::HostTensor;

class Stopwatch {
 public:
  template <class F>
  void time(F&& f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double seconds = 0;
};

std::string as_bytes(const HostTensor& t) { return std::string(static_cast<const char*>(t.data()), t.bytes()); }

// One rank's ZeRO-3 state of one layer and its transport buffers.
struct Layer {
  std::string name;
  std::size_t rows = 0, numel = 0, part = 0, padded = 0;
  AdamState state;                 // this rank's partition: fp32 master, 16-bit copy, grad, m, v
  void* gathered = nullptr;        // padded 16-bit weights after the all-gather
  void* send = nullptr;            // padded 16-bit local gradient
  void* recv = nullptr;            // this rank's reduced partition
};

class ZeroRank {
 public:
  ZeroRank(const StepConfig& c, collectives::Transport& t, StepKernels& k, const ReferenceRun& ref, double timeout_s)
      : c_(c), t_(t), k_(k), ref_(ref), timeout_(timeout_s), world_(t.world()), rank_(t.info(0).rank), log_(rank_),
        scaler_{c.initial_scale, 0} {
    dt_ = c.dtype == Dtype::kFp16 ? collectives::DType::kF16 : collectives::DType::kBF16;
    auto init = initial_weights(c);
    for (int l = 0; l < c.layers(); ++l) {
      Layer L;
      L.name = layer_name(c, l);
      L.rows = layer_rows(c, l);
      L.numel = layer_numel(c, l);
      auto layout = collectives::make_zero_layout(dt_, {L.numel}, world_);
      L.part = layout.partition;
      L.padded = layout.padded_total();
      AdamVariant v = c.dtype == Dtype::kFp16 ? AdamVariant::kFp16 : AdamVariant::kBf16;
      L.state.variant = v;
      L.state.param = HostTensor(Dtype::kFp32, L.part);
      L.state.param_h = HostTensor(c.dtype, L.part);
      L.state.grad = HostTensor(c.dtype, L.part);
      L.state.m = HostTensor(v == AdamVariant::kFp16 ? Dtype::kFp16 : Dtype::kFp32, L.part);
      L.state.v = HostTensor(Dtype::kFp32, L.part);
      for (std::size_t i = 0; i < L.part; ++i) {
        std::size_t g = begin(L) + i;
        double w = g < L.numel ? init[l][g] : 0.0;
        L.state.param.set(i, w), L.state.param_h.set(i, w), L.state.grad.set(i, 0), L.state.m.set(i, 0);
        L.state.v.set(i, 0);
      }
      L.gathered = t.alloc(0, L.padded * 2);
      L.send = t.alloc(0, L.padded * 2);
      L.recv = t.alloc(0, L.part * 2);
      layers_.push_back(std::move(L));
    }
    flag_ = t.alloc(0, 1);
  }
  ~ZeroRank() {
    for (auto& L : layers_) t_.release(0, L.gathered), t_.release(0, L.send), t_.release(0, L.recv);
    t_.release(0, flag_);
  }

  RankOutcome run() {
    RankOutcome out;
    out.rank = rank_;
    for (int s = 1; s <= c_.steps; ++s) {
      log_.begin_step(s);
      Stopwatch work;
      step(s, work, out);
      out.step_seconds.push_back(work.seconds);
    }
    out.first = log_.first();
    out.stats = log_.stats();
    return out;
  }

 private:
  std::size_t begin(const Layer& L) const { return static_cast<std::size_t>(rank_) * L.part; }
  float value(std::uint16_t bits) const {
    return c_.dtype == Dtype::kFp16 ? kernels::fp16_to_float(bits) : kernels::bf16_to_float(bits);
  }
  std::uint16_t bits(float x) const {
    return c_.dtype == Dtype::kFp16 ? kernels::fp16_from_float(x) : kernels::bf16_from_float(x);
  }
  void run_collective(const Collective& coll) { t_.run({coll}, 1, timeout_); }

  // All-gather of the layer's 16-bit weights (in place, as BMTrain's gather into the full buffer), then
  // the gathered buffer checked bit for bit against every rank's partition.
  std::vector<float> gather(Layer& L, Stopwatch& work) {
    auto* full = static_cast<unsigned char*>(L.gathered);
    std::vector<std::uint16_t> host(L.padded);
    work.time([&] {
      t_.upload(0, full + begin(L) * 2, L.state.param_h.data(), L.part * 2);
      Collective coll{CollOp::kAllGather, RedOp::kNone, dt_, L.part, 0, {{full + begin(L) * 2, full}}};
      run_collective(coll);
      t_.download(0, host.data(), full, L.padded * 2);
    });
    auto parts = t_.all_gather_strings(as_bytes(L.state.param_h));
    std::string expected;
    for (auto& p : parts) expected += p;
    const auto* want = reinterpret_cast<const std::uint16_t*>(expected.data());
    log_.compare("all-gather", L.name, "gathered weight", L.numel, c_.hidden,
                 [&](std::size_t i) { return value(host[i]); }, [&](std::size_t i) { return value(want[i]); },
                 [](std::size_t) { return 0.0; });
    std::vector<float> w(L.numel);
    for (std::size_t i = 0; i < L.numel; ++i) w[i] = value(host[i]);
    return w;
  }

  // got = A B on this rank, checked against the double product of the same 16-bit inputs.
  // `fault` (tests only) changes the result as a faulty GEMM would leave it, before the check.
  std::vector<float> gemm(const std::string& layer, const std::string& what, std::size_t m, std::size_t n,
                          std::size_t k, MatView a, MatView b, Stopwatch& work,
                          const std::function<void(std::vector<float>&)>& fault = nullptr) {
    std::vector<float> got;
    work.time([&] { got = k_.gemm(c_.dtype, m, n, k, a, b); });
    if (fault) fault(got);
    std::vector<double> want, mag;
    gemm_reference(m, n, k, a, b, want, mag);
    log_.compare("gemm", layer, what, m * n, n, [&](std::size_t i) { return got[i]; },
                 [&](std::size_t i) { return want[i]; },
                 [&](std::size_t i) { return gemm_bound(c_.dtype, k, want[i], mag[i]); });
    return got;
  }

  // A kernel family's own check (kernels/common/tolerance.h): counted, and its worst element when it fails.
  void add_reports(const std::string& kind, const std::string& layer, const std::string& what,
                   const std::vector<kernels::CheckReport>& reports, std::size_t cols) {
    for (auto& r : reports)
      log_.record(kind, layer, what + " (" + r.name + ")", cols,
                  {r.count, r.max_abs, r.max_rel, r.worst_ratio}, r.ok(), r.worst_index, r.worst_got, r.worst_want,
                  r.worst_allowed);
  }

  // Reduce-scatter (sum) of the layer's local gradient; the partition is checked against the double sum
  // of every rank's local gradient (exchanged on a separate path), each of the W-1 16-bit additions
  // allowed half an ulp of the sum of magnitudes.
  void reduce_scatter(Layer& L, const std::vector<float>& local, int s, Stopwatch& work) {
    std::vector<std::uint16_t> send(L.padded, 0);
    for (std::size_t i = 0; i < L.numel; ++i) send[i] = bits(local[i]);
    std::vector<std::uint16_t> sent = send;
    if (c_.inject == Injection::kChunkMisorder && s == c_.inject_step && rank_ == c_.inject_rank &&
        L.name == "head" && world_ > 1)
      std::swap_ranges(sent.begin(), sent.begin() + L.part, sent.begin() + L.part);
    std::vector<std::uint16_t> got(L.part);
    work.time([&] {
      t_.upload(0, L.send, sent.data(), L.padded * 2);
      Collective coll{CollOp::kReduceScatter, RedOp::kSum, dt_, L.part, 0, {{L.send, L.recv}}};
      run_collective(coll);
      t_.download(0, got.data(), L.recv, L.part * 2);
    });
    std::memcpy(L.state.grad.data(), got.data(), L.part * 2);
    auto all = t_.all_gather_strings(std::string(reinterpret_cast<const char*>(send.data()), send.size() * 2));
    std::vector<double> want(L.part, 0.0), mag(L.part, 0.0);
    for (auto& a : all) {
      const auto* v = reinterpret_cast<const std::uint16_t*>(a.data());
      for (std::size_t i = 0; i < L.part; ++i) {
        double x = value(v[begin(L) + i]);
        want[i] += x;
        mag[i] += std::fabs(x);
      }
    }
    overflow_expected_ |= std::any_of(want.begin(), want.end(), [](double x) { return !std::isfinite(x); });
    const double adds = world_ - 1;
    log_.compare("reduce-scatter", L.name, "reduce-scattered gradient", L.part, 0,
                 [&](std::size_t i) { return value(got[i]); }, [&](std::size_t i) { return want[i]; },
                 [&](std::size_t i) { return adds * 0.5 * kernels::ulp_of(c_.dtype, mag[i]); });
  }

  void step(int s, Stopwatch& work, RankOutcome& out) {
    const std::size_t T = c_.tokens, d = c_.hidden, V = c_.vocab;
    const int nl = c_.layers();
    Batch b = make_batch(c_, s, rank_);
    const double scale = scaler_.scale;
    log_.expect_equal("loss scale", "loss scale the step runs with", scale, ref_.scale[s - 1]);
    out.scale.push_back(scale);
    overflow_expected_ = false;

    // ---- forward: embedding rows, the linears, the head, cross-entropy ----
    std::vector<std::vector<float>> acts(nl - 1);  // inputs of layers 1..nl-1 (acts[l-1] feeds layer l)
    {
      auto e = gather(layers_[0], work);
      acts[0].resize(T * d);
      for (std::size_t t = 0; t < T; ++t)
        std::copy_n(e.begin() + b.tokens[t] * d, d, acts[0].begin() + t * d);
    }
    for (int l = 1; l < nl - 1; ++l) {
      auto w = gather(layers_[l], work);  // y = x W^T
      acts[l] = gemm(layers_[l].name, "forward output", T, d, d, MatView{acts[l - 1].data(), d, 1},
                     MatView{w.data(), 1, d}, work);
    }
    Layer& head = layers_[nl - 1];
    auto hw = gather(head, work);
    auto logits = gemm(head.name, "logits", T, V, d, MatView{acts[nl - 2].data(), d, 1}, MatView{hw.data(), 1, d}, work);

    kernels::CeCase ce;
    ce.rows = T, ce.vocab = V, ce.logits = HostTensor(c_.dtype, T * V), ce.target = b.targets;
    for (std::size_t i = 0; i < T * V; ++i) ce.logits.set(i, logits[i]);
    kernels::CeForward fwd;
    work.time([&] { k_.ce_forward(ce, fwd.loss, fwd.softmax); });
    add_reports("cross-entropy", "loss", "cross-entropy forward",
                kernels::check_ce_forward(ce, kernels::ce_forward_reference(ce), fwd.loss, fwd.softmax), V);
    double loss = 0;
    for (float x : fwd.loss) loss += x;
    loss /= T;
    out.loss.push_back(loss);
    const double ref_loss = ref_.loss[s - 1][rank_];
    log_.compare("loss vs reference", "loss", "mean loss of this rank's micro-batch", 1, 0,
                 [&](std::size_t) { return loss; }, [&](std::size_t) { return ref_loss; },
                 [&](std::size_t) { return loss_tolerance(c_.dtype, adam_step_) * std::max(1.0, std::fabs(ref_loss)); });

    // ---- backward: dlogits (scaled by S / (W T)), head, linears, embedding; each layer reduce-scattered ----
    const float go = static_cast<float>(scale / (double(world_) * T));
    HostTensor dl = fwd.softmax;
    work.time([&] { k_.ce_backward(ce, dl, go); });
    add_reports("cross-entropy", "loss", "cross-entropy backward",
                {kernels::check_ce_backward(kernels::ce_backward_reference(ce, fwd.softmax, std::vector<float>(T, go)), dl)}, V);
    std::vector<float> dy(T * V);
    for (std::size_t i = 0; i < dy.size(); ++i) dy[i] = float(dl.get(i));

    // The grad-ulp fault: one element of linear1's local weight gradient on one rank, one ulp up.
    auto ulp_fault = [&](int l) -> std::function<void(std::vector<float>&)> {
      if (c_.inject != Injection::kGradUlp || s != c_.inject_step || rank_ != c_.inject_rank || l != 1) return nullptr;
      return [this](std::vector<float>& g) {
        std::size_t i = g.size() / 3;
        g[i] = value(static_cast<std::uint16_t>(bits(g[i]) + 1));
      };
    };
    {
      auto w = gather(head, work);  // BMTrain gathers again for the backward
      auto dh = gemm(head.name, "local weight gradient", V, d, T, MatView{dy.data(), 1, V},
                     MatView{acts[nl - 2].data(), d, 1}, work);
      auto dx = gemm(head.name, "input gradient", T, d, V, MatView{dy.data(), V, 1}, MatView{w.data(), d, 1}, work);
      // The planted fp16 overflow, away from element 0 (which the first thread of a flag kernel reads).
      if (s == c_.overflow_step && rank_ == world_ - 1) dh[dh.size() - 5] = INFINITY;
      reduce_scatter(head, dh, s, work);
      dy.swap(dx);
    }
    for (int l = nl - 2; l >= 1; --l) {
      Layer& L = layers_[l];
      auto w = gather(L, work);
      auto dw = gemm(L.name, "local weight gradient", d, d, T, MatView{dy.data(), 1, d},
                     MatView{acts[l - 1].data(), d, 1}, work, ulp_fault(l));
      auto dx = gemm(L.name, "input gradient", T, d, d, MatView{dy.data(), d, 1}, MatView{w.data(), d, 1}, work);
      reduce_scatter(L, dw, s, work);
      dy.swap(dx);
    }
    {
      Layer& E = layers_[0];
      std::vector<float> de(E.numel, 0.0f);
      work.time([&] {
        std::vector<float> acc(E.numel, 0.0f);
        for (std::size_t t = 0; t < T; ++t)
          for (std::size_t j = 0; j < d; ++j) acc[b.tokens[t] * d + j] += dy[t * d + j];
        for (std::size_t i = 0; i < E.numel; ++i) de[i] = round_to(c_.dtype, acc[i]);
      });
      std::vector<double> want(E.numel, 0.0), mag(E.numel, 0.0);
      for (std::size_t t = 0; t < T; ++t)
        for (std::size_t j = 0; j < d; ++j) {
          want[b.tokens[t] * d + j] += dy[t * d + j];
          mag[b.tokens[t] * d + j] += std::fabs(dy[t * d + j]);
        }
      log_.compare("gemm", E.name, "local weight gradient", E.numel, d, [&](std::size_t i) { return de[i]; },
                   [&](std::size_t i) { return want[i]; },
                   [&](std::size_t i) { return gemm_bound(c_.dtype, T, want[i], mag[i]); });
      reduce_scatter(E, de, s, work);
    }

    // ---- overflow: the inf/NaN flag of this rank's partitions, all-reduced (max) ----
    std::uint8_t flag = 0;
    work.time([&] {
      for (auto& L : layers_) flag |= k_.has_inf_nan(L.state.grad) ? 1 : 0;
      t_.upload(0, flag_, &flag, 1);
      run_collective(Collective{CollOp::kAllReduce, RedOp::kMax, collectives::DType::kU8, 1, 0, {{flag_, flag_}}});
      t_.download(0, &flag, flag_, 1);
    });
    const bool overflow_want = t_.sum_over_processes(overflow_expected_ ? 1.0 : 0.0) > 0;
    log_.expect_equal("overflow", "inf/NaN flag (all-reduced)", flag, overflow_want ? 1 : 0);

    // ---- optimizer: skip on overflow (BMTrain), else fused Adam on the partition ----
    const bool skip = flag && c_.inject != Injection::kSkipDisabled;
    if (skip) out.skipped.push_back(s);
    kernels::AdamHyper h = kernels::adam_with_step(
        kernels::AdamHyper{c_.lr, c_.beta1, c_.beta2, c_.eps, c_.weight_decay, static_cast<float>(scale)},
        adam_step_ + (skip ? 0 : 1));
    if (!skip) ++adam_step_;
    for (auto& L : layers_) {
      AdamState before = L.state;
      if (!skip) work.time([&] { k_.adam(L.state, h); });
      if (overflow_want) {
        log_.compare("optimizer", L.name, "master weight (the step overflowed: must be unchanged)", L.part, 0,
                     [&](std::size_t i) { return L.state.param.get(i); },
                     [&](std::size_t i) { return before.param.get(i); }, [](std::size_t) { return 0.0; });
      } else {
        AdamState want = before;
        kernels::adam_reference_step(want, h);
        add_reports("optimizer", L.name, "fused Adam", kernels::check_adam_step(before, want, L.state, h), 0);
      }
    }
    const double factor = scaler_.after_step(skip, c_.scale_window);
    if (factor != 1)
      for (auto& L : layers_) kernels::rescale_scaled_state(L.state, factor);  // _on_justify_scale

    // ---- after the step: this rank's master weights against the free-running reference ----
    for (int l = 0; l < nl; ++l) {
      Layer& L = layers_[l];
      const auto& rw = ref_.weights[s - 1][l];
      const std::size_t n = std::min(L.part, L.numel > begin(L) ? L.numel - begin(L) : 0);
      const double tol = weight_tolerance(c_.dtype, adam_step_, c_.lr);
      log_.compare("weights vs reference", L.name, "master weight vs the double reference", n, 0,
                   [&](std::size_t i) { return L.state.param.get(i); },
                   [&](std::size_t i) { return rw[begin(L) + i]; }, [&](std::size_t) { return tol; });
    }
  }

  const StepConfig& c_;
  collectives::Transport& t_;
  StepKernels& k_;
  const ReferenceRun& ref_;
  double timeout_;
  int world_, rank_;
  CheckLog log_;
  LossScaler scaler_;
  collectives::DType dt_;
  std::vector<Layer> layers_;
  void* flag_ = nullptr;
  bool overflow_expected_ = false;
  int adam_step_ = 0;
};

}  // namespace

RankOutcome run_zero_steps(const StepConfig& c, collectives::Transport& t, StepKernels& k, const ReferenceRun& ref,
                           double timeout_s) {
  ZeroRank z(c, t, k, ref, timeout_s);
  return z.run();
}

}  // namespace gpucheck::training
