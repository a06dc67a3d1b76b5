// The only translation unit that includes LibTorch (slow to compile): keep every torch call here.
#include "torch_linkage/torch_crosscheck.h"

#include <link.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <type_traits>

#include "adam/adam_offload.h"
#include "adam/adam_reference.h"
#include "cross_entropy/ce_reference.h"
#ifdef GPUCHECK_TORCHCHECK_OUR_CUDA
#include "adam/adam_cuda.h"
#include "cross_entropy/ce_cuda.h"
#endif

namespace gpucheck::kernels::torchcheck {

namespace {

torch::Device device_of(bool cuda) { return cuda ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU); }

torch::Tensor to_torch(const HostTensor& t, bool cuda) {  // as fp32, exactly
  std::vector<float> f(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) f[i] = static_cast<float>(t.get(i));
  return torch::from_blob(f.data(), {static_cast<long>(f.size())}, torch::kFloat32).clone().to(device_of(cuda));
}

void from_torch(const torch::Tensor& x, HostTensor& t) {
  torch::Tensor c = x.detach().to(torch::kCPU).contiguous();
  const float* p = c.data_ptr<float>();
  for (std::size_t i = 0; i < t.size(); ++i) t.set(i, p[i]);
}

int collect_loaded(struct dl_phdr_info* info, size_t, void* out) {
  auto* v = static_cast<std::vector<std::string>*>(out);
  std::string name = info->dlpi_name ? info->dlpi_name : "";
  auto base = name.substr(name.find_last_of('/') + 1);
  if (base.rfind("libtorch", 0) == 0 || base.rfind("libc10", 0) == 0) v->push_back(name);
  return 0;
}

// An optimizer's state for parameter p. LibTorch < 2.5 keys the map by the TensorImpl address written as
// text (c10::guts::to_string, removed since); 2.5+ keys it by the TensorImpl* itself. The map's key type
// says which, so one source builds against both.
template <class StateMap>
torch::optim::OptimizerParamState& param_state(StateMap& state, const torch::Tensor& p) {
  using Key = typename std::decay_t<StateMap>::key_type;
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream key;
    key << p.unsafeGetTensorImpl();  // exactly what c10::guts::to_string wrote
    return *state.at(key.str());
  } else {
    return *state.at(static_cast<Key>(p.unsafeGetTensorImpl()));
  }
}

}  // namespace

TorchInfo torch_info() {
  TorchInfo i;
  i.version = TORCH_VERSION;
  dl_iterate_phdr(collect_loaded, &i.loaded);
  i.cuda_available = torch::cuda::is_available();
  i.cuda_devices = i.cuda_available ? static_cast<int>(torch::cuda::device_count()) : 0;
  return i;
}

NamedChecks check_tensor_op(bool cuda) {
  torch::manual_seed(1);
  torch::Tensor a = torch::randn({4097}), b = torch::randn({4097});
  torch::Tensor c = (a.to(device_of(cuda)) * b.to(device_of(cuda)) + a.to(device_of(cuda))).to(torch::kCPU);
  const float *pa = a.data_ptr<float>(), *pb = b.data_ptr<float>(), *pc = c.data_ptr<float>();
  // Two float roundings (product, sum): 1 ulp of |a·b| + |a| covers both.
  return {"tensor op a*b+a",
          {check_elements(
              "c", 4097, [&](std::size_t i) { return double(pc[i]); },
              [&](std::size_t i) { return double(pa[i]) * pb[i] + pa[i]; },
              [&](std::size_t i) { return ulp_fp32(std::fabs(double(pa[i]) * pb[i]) + std::fabs(pa[i])); })}};
}

NamedChecks check_matmul(bool cuda) {
  const int M = 64, K = 96, N = 48;
  torch::manual_seed(2);
  torch::Tensor a = torch::randn({M, K}), b = torch::randn({K, N});
  torch::Tensor c = torch::matmul(a.to(device_of(cuda)), b.to(device_of(cuda))).to(torch::kCPU).contiguous();
  const float *pa = a.data_ptr<float>(), *pb = b.data_ptr<float>(), *pc = c.data_ptr<float>();
  std::vector<double> want(M * N), bound(M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, abs_sum = 0;
      for (int k = 0; k < K; ++k) {
        s += double(pa[i * K + k]) * pb[k * N + j];
        abs_sum += std::fabs(double(pa[i * K + k]) * pb[k * N + j]);
      }
      want[i * N + j] = s;
      bound[i * N + j] = K * std::ldexp(1.0, -23) * abs_sum;  // classic γ_K bound for any summation order
    }
  return {std::string("matmul 64x96x48") + (cuda ? " (cuBLAS)" : ""),
          {check_elements(
              "c", M * N, [&](std::size_t i) { return double(pc[i]); }, [&](std::size_t i) { return want[i]; },
              [&](std::size_t i) { return bound[i]; })}};
}

NamedChecks check_adam(bool adamw, bool cuda, int steps, float weight_decay, bool swap_reference) {
  AdamHyper h0{1e-2f, 0.9f, 0.999f, 1e-8f, weight_decay, 1.0f};
  const AdamVariant var = adamw != swap_reference ? AdamVariant::kFp32AdamW : AdamVariant::kFp32;
  const std::size_t n = 3001;
  AdamState s = make_adam_state(var, n, 21, h0, false);
  for (std::size_t i = 0; i < n; ++i) s.m.set(i, 0.0), s.v.set(i, 0.0);  // torch starts from zero state
  torch::Tensor p = to_torch(s.param, cuda).requires_grad_(true);
  std::vector<torch::Tensor> params{p};
  std::unique_ptr<torch::optim::Optimizer> opt;
  // Hyperparameters given to torch as the exact doubles of our floats, so both see the same values.
  if (adamw)
    opt = std::make_unique<torch::optim::AdamW>(
        params, torch::optim::AdamWOptions(h0.lr).betas({h0.beta1, h0.beta2}).eps(h0.eps).weight_decay(h0.weight_decay));
  else
    opt = std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(h0.lr).betas({h0.beta1, h0.beta2}).eps(h0.eps).weight_decay(h0.weight_decay));
  std::vector<CheckReport> all;
  std::mt19937_64 rng(5);
  std::normal_distribution<double> nd(0, 0.1);
  for (int step = 1; step <= steps; ++step) {
    for (std::size_t i = 0; i < n; ++i) s.grad.set(i, nd(rng));
    AdamHyper h = adam_with_step(h0, step);
    AdamState want = s;
    adam_reference_step(want, h);
    p.mutable_grad() = to_torch(s.grad, cuda);
    opt->step();
    AdamState got = s;
    from_torch(p, got.param);
    torch::Tensor m, v;
    if (adamw) {
      auto& st = static_cast<torch::optim::AdamWParamState&>(param_state(opt->state(), p));
      m = st.exp_avg(), v = st.exp_avg_sq();
    } else {
      auto& st = static_cast<torch::optim::AdamParamState&>(param_state(opt->state(), p));
      m = st.exp_avg(), v = st.exp_avg_sq();
    }
    from_torch(m, got.m);
    from_torch(v, got.v);
    for (auto& r : check_adam_step(s, want, got, h)) {
      r.name = "step " + std::to_string(step) + " " + r.name;
      all.push_back(r);
    }
#ifdef GPUCHECK_TORCHCHECK_OUR_CUDA
    if (cuda && !adamw) {  // our fp32 kernel (torch-Adam semantics) on torch's CUDA buffers, same inputs
      torch::Tensor pp = to_torch(s.param, true), gg = to_torch(s.grad, true), mm = to_torch(s.m, true),
                    vv = to_torch(s.v, true);
      torch::cuda::synchronize();
      cudaError_t e = launch_adam_fp32(n, pp.data_ptr<float>(), gg.data_ptr<float>(), mm.data_ptr<float>(),
                                       vv.data_ptr<float>(), h, nullptr);
      if (e == cudaSuccess) e = cudaDeviceSynchronize();
      if (e != cudaSuccess) throw std::runtime_error(std::string("our Adam kernel: ") + cudaGetErrorName(e));
      AdamState ours = s;
      from_torch(pp, ours.param), from_torch(mm, ours.m), from_torch(vv, ours.v);
      for (auto& r : check_adam_step(s, want, ours, h)) {
        r.name = "step " + std::to_string(step) + " our kernel " + r.name;
        all.push_back(r);
      }
    }
#endif
    s = got;  // next step starts from torch's state: errors are per step, not accumulated
  }
  return {std::string(adamw ? "torch::optim::AdamW vs our decoupled reference" : "torch::optim::Adam vs our L2 reference") +
              (cuda ? " (CUDA)" : " (CPU)"),
          all};
}

NamedChecks check_offload_semantics(int steps) {
  AdamHyper h0{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f};
  const std::size_t n = 4099;
  AdamState s = make_adam_state(AdamVariant::kOffloadFp16, n, 33, h0, false);
  for (std::size_t i = 0; i < n; ++i) s.m.set(i, 0.0), s.v.set(i, 0.0);
  torch::Tensor p = to_torch(s.param, false).requires_grad_(true);
  torch::optim::AdamW opt({p}, torch::optim::AdamWOptions(h0.lr).betas({h0.beta1, h0.beta2}).eps(h0.eps).weight_decay(h0.weight_decay));
  AdamState ours = s;
  std::vector<CheckReport> all;
  std::mt19937_64 rng(9);
  std::normal_distribution<double> nd(0, 0.1 * h0.scale);
  for (int step = 1; step <= steps; ++step) {
    for (std::size_t i = 0; i < n; ++i) ours.grad.set(i, nd(rng));
    AdamHyper h = adam_with_step(h0, step);
    // torch: the unscaled fp32 gradient BMTrain's offload optimizer would compute, param_h = fp16(param).
    AdamState before_t = ours, want = ours;
    adam_reference_step(want, h);
    torch::Tensor g = to_torch(ours.grad, false) / h0.scale;
    p.mutable_grad() = g;
    opt.step();
    AdamState got_t = ours;
    from_torch(p, got_t.param);
    for (std::size_t i = 0; i < n; ++i) got_t.param_h.set(i, got_t.param.get(i));
    auto& st = static_cast<torch::optim::AdamWParamState&>(param_state(opt.state(), p));
    from_torch(st.exp_avg(), got_t.m);
    from_torch(st.exp_avg_sq(), got_t.v);
    for (auto& r : check_adam_step(before_t, want, got_t, h)) {
      r.name = "torch AdamW step " + std::to_string(step) + " " + r.name;
      all.push_back(r);
    }
    // Ours on the same inputs (its own previous state, which the previous check tied to the reference).
    AdamState got_o = ours;
    OffloadAdamBuffers b{n, got_o.param.f32(), got_o.param_h.u16(), got_o.grad.u16(), got_o.m.f32(), got_o.v.f32(), false};
    adam_offload_step(b, h, best_cpu_isa(), offload_default_threads());
    for (auto& r : check_adam_step(ours, want, got_o, h)) {
      r.name = std::string("offload (") + to_string(best_cpu_isa()) + ") step " + std::to_string(step) + " " + r.name;
      all.push_back(r);
    }
    // Both continue from their own state; keep torch's in sync with ours (they are within policy).
    ours = got_o;
    p.data().copy_(to_torch(ours.param, false));
    st.exp_avg().copy_(to_torch(ours.m, false));
    st.exp_avg_sq().copy_(to_torch(ours.v, false));
  }
  return {"BMTrain offload semantics: torch AdamW(grad/S) and our CPU offload Adam vs reference", all};
}

NamedChecks check_cross_entropy(Dtype dtype, std::size_t rows, std::size_t vocab, bool cuda) {
  CeCaseOptions o;
  o.ignore_fraction = 0.2;
  CeCase c = make_ce_case(dtype, rows, vocab, rows + vocab, o);
  // Huge logits in row 0 (within the dtype): torch and BMTrain agree there; rows of -inf they do not
  // (torch gives NaN, BMTrain +inf), so those stay in the GPU probes only.
  double huge = dtype == Dtype::kFp16 ? 6.0e4 : 1.0e30;
  for (std::size_t i = 0; i < vocab; ++i) c.logits.set(i, (i % 2 ? huge : -huge) * (0.5 + 0.5 * (i % 7) / 7.0));
  c.target[0] = vocab > 1 ? 1 : 0;
  // Reference on the exact fp32 image of the logits (the upstream test compares against x.float()).
  CeCase c32 = c;
  c32.logits = HostTensor(Dtype::kFp32, c.logits.size());
  for (std::size_t i = 0; i < c.logits.size(); ++i) c32.logits.set(i, c.logits.get(i));
  CeForward want = ce_forward_reference(c32);
  std::vector<float> go(rows);
  for (std::size_t r = 0; r < rows; ++r) go[r] = 0.5f + float(r % 3);
  HostTensor want_grad = ce_backward_reference(c32, want.softmax, go);
  for (std::size_t r = 0; r < rows; ++r)
    if (c.target[r] == c.ignore_index)
      for (std::size_t i = 0; i < vocab; ++i) want_grad.set(r * vocab + i, 0.0);  // torch's ignore rows: grad 0

  torch::Tensor x = to_torch(c32.logits, cuda).reshape({long(rows), long(vocab)}).requires_grad_(true);
  std::vector<long> tl(c.target.begin(), c.target.end());
  torch::Tensor t = torch::from_blob(tl.data(), {long(rows)}, torch::kLong).clone().to(device_of(cuda));
  namespace F = torch::nn::functional;
  torch::Tensor loss = F::cross_entropy(x, t, F::CrossEntropyFuncOptions().ignore_index(c.ignore_index).reduction(torch::kNone));
  torch::Tensor gw = torch::from_blob(go.data(), {long(rows)}, torch::kFloat32).clone().to(device_of(cuda));
  (loss * gw).sum().backward();
  torch::Tensor lc = loss.detach().to(torch::kCPU).contiguous(), gc = x.grad().to(torch::kCPU).contiguous();
  std::vector<float> got_loss(lc.data_ptr<float>(), lc.data_ptr<float>() + rows);
  const float* pg = gc.data_ptr<float>();
  std::vector<CheckReport> out;
  // Forward: the loss bound of our policy (torch has no saved softmax to compare).
  out.push_back(check_ce_forward(c32, want, got_loss, want.softmax)[0]);
#ifdef GPUCHECK_TORCHCHECK_OUR_CUDA
  if (cuda) {  // our forward kernel on the same fp32 logits in torch's CUDA memory
    torch::Tensor xs = x.detach().contiguous(), sm = torch::empty_like(xs);
    torch::Tensor ti = t.to(torch::kInt32), ol = torch::empty({long(rows)}, xs.options());
    torch::Tensor ws = torch::empty({long(ce_forward_workspace_bytes(rows, vocab))},
                                    torch::TensorOptions().dtype(torch::kUInt8).device(xs.device()));
    torch::cuda::synchronize();
    cudaError_t e = launch_ce_forward(Dtype::kFp32, rows, vocab, xs.data_ptr<float>(), sm.data_ptr<float>(),
                                      ti.data_ptr<std::int32_t>(), c.ignore_index, ol.data_ptr<float>(),
                                      ws.data_ptr(), nullptr);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) throw std::runtime_error(std::string("our cross-entropy kernel: ") + cudaGetErrorName(e));
    torch::Tensor olc = ol.to(torch::kCPU);
    std::vector<float> our_loss(olc.data_ptr<float>(), olc.data_ptr<float>() + rows);
    HostTensor our_sm(Dtype::kFp32, rows * vocab);
    from_torch(sm.reshape({-1}), our_sm);
    for (auto r : check_ce_forward(c32, want, our_loss, our_sm)) {
      r.name = "our kernel " + r.name;
      out.push_back(r);
    }
  }
#endif
  // Backward: torch forms exp(log_softmax) - onehot, so its softmax inherits the error of
  // x - max - log(sum) (≈ (|x - max| + |log sum|)·2^-24 relative) and the sum's kCeSumRelError.
  out.push_back(check_elements(
      "grad", rows * vocab, [&](std::size_t i) { return double(pg[i]); }, [&](std::size_t i) { return want_grad.get(i); },
      [&](std::size_t i) {
        std::size_t r = i / vocab;
        double sm = want.softmax.get(i);
        double arg = std::fabs(c32.logits.get(i) - want.row_max[r]) + std::fabs(want.row_log_sum[r]) + 4;
        return ulp_fp32(want_grad.get(i)) + go[r] * sm * (arg * std::ldexp(1.0, -23) + tolerance::kCeSumRelError);
      }));
  return {std::string("torch cross_entropy ") + to_string(dtype) + " " + std::to_string(rows) + "x" +
              std::to_string(vocab) + (cuda ? " (CUDA)" : " (CPU)"),
          out};
}

std::vector<NamedChecks> run_all(bool cuda) {
  std::vector<NamedChecks> all;
  all.push_back(check_tensor_op(cuda));
  all.push_back(check_matmul(cuda));
  all.push_back(check_adam(false, cuda, 5));
  all.push_back(check_adam(true, cuda, 5));
  all.push_back(check_offload_semantics(3));
  for (Dtype d : {Dtype::kFp16, Dtype::kBf16, Dtype::kFp32})
    for (std::size_t vocab : {10u, 999u}) all.push_back(check_cross_entropy(d, 32, vocab, cuda));
  all.push_back(check_cross_entropy(Dtype::kFp16, 4, 86583, cuda));
  return all;
}

}  // namespace gpucheck::kernels::torchcheck
