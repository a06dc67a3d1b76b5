#include "bmtrain_installed/bmtrain_gpu_checks.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/cuda_support.h"
#include "cross_entropy/ce_reference.h"
#include "inf_nan/inf_nan_reference.h"

namespace gpucheck::kernels::bmtrain {

namespace {

python::Arg device_address(const DeviceBuffer& b) { return address(b.get()); }
const python::Arg kDefaultStream = std::uint64_t{0};

// Calls C.<fn>(args) and waits for the GPU; "" or why it failed (Python error or CUDA error).
std::string launch(NativeModule& module, const std::string& fn, const std::vector<python::Arg>& args) {
  if (!module.has(fn)) return "the module has no " + fn;
  if (std::string err = module.call(fn, args); !err.empty()) return fn + " raised " + err;
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  return e == cudaSuccess ? "" : fn + ": " + cuda_error_text(e);
}

// BMTrain's launchers do not check their own CUDA runtime's launch status (a statically linked cudart that
// cannot load a kernel image for this GPU "succeeds" and writes nothing). Output buffers are filled with a
// sentinel byte first; an output left entirely untouched means the launcher did not run, which is reported
// as that (never as "outside tolerance").
constexpr unsigned char kSentinel = 0xff;  // all-ones: a NaN in fp16, bf16 and fp32

void fill_sentinel(const DeviceBuffer& b) { cuda_check(cudaMemset(b.get(), kSentinel, b.bytes()), "cudaMemset sentinel"); }

bool untouched(const DeviceBuffer& b) {
  std::vector<unsigned char> host(b.bytes());
  b.download(host.data(), host.size());
  for (unsigned char c : host)
    if (c != kSentinel) return false;
  return true;
}

std::string did_not_run(const std::string& fn, const std::string& buffer) {
  return "did not run: " + fn + " returned without writing any element of " + buffer +
         " (its own CUDA runtime failed to launch the kernel, e.g. no kernel image for this GPU)";
}

void adam_case(NativeModule& module, CheckCollector& checks, AdamVariant v, std::size_t n, bool adversarial) {
  AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 3);
  AdamState before = make_adam_state(v, n, 23 + n + adversarial, h, adversarial);
  DeviceBuffer p = to_device(before.param), ph = to_device(before.param_h), g = to_device(before.grad),
               m = to_device(before.m), s = to_device(before.v);
  const std::string fn = v == AdamVariant::kBf16 ? "adam_bf16_launcher" : "adam_fp16_launcher";
  std::string name = "bmtrain " + fn + " n=" + std::to_string(n) + (adversarial ? " adversarial" : "");
  fill_sentinel(ph);  // param_h is output only
  // BMTrain 1.0.x argument order (bmtrain/optim/_function.py::adam_fp16 / adam_bf16).
  std::string err = launch(module, fn,
                           {static_cast<std::int64_t>(n), device_address(p), device_address(ph), device_address(g),
                            device_address(m), device_address(s), double(h.beta1), double(h.beta2), double(h.eps),
                            double(h.lr), double(h.scale), double(h.weight_decay), double(h.bias_correction1),
                            double(h.bias_correction2), kDefaultStream});
  if (!err.empty()) return checks.add(name, could_not_run(err));
  if (untouched(ph)) return checks.add(name, could_not_run(did_not_run(fn, "param_h")));
  AdamState got = before;
  from_device(p, got.param), from_device(ph, got.param_h), from_device(m, got.m), from_device(s, got.v);
  AdamState want = before;
  adam_reference_step(want, h);
  checks.add(name + " vs reference", check_adam_step(before, want, got, h));
}

void inf_nan_case(NativeModule& module, CheckCollector& checks, Dtype d, std::size_t n, std::size_t bad_at,
                  int preset) {
  HostTensor t(d, n);
  for (std::size_t i = 0; i < n; ++i) t.u16()[i] = static_cast<std::uint16_t>((i * 2654435761u) & 0x3bff);  // finite
  if (bad_at < n) t.set(bad_at, bad_at % 2 ? INFINITY : NAN);
  DeviceBuffer x = to_device(t), mid(1024), out(1);
  cuda_check(cudaMemset(mid.get(), 0, 1024), "cudaMemset");  // BMTrain's wrapper zeroes `mid` per call
  std::uint8_t flag = static_cast<std::uint8_t>(preset);
  out.upload(&flag, 1);
  const std::string fn = d == Dtype::kBf16 ? "has_nan_inf_bf16_launcher" : "has_nan_inf_fp16_launcher";
  std::string name = "bmtrain " + fn + " n=" + std::to_string(n) +
                     (bad_at < n ? " bad at " + std::to_string(bad_at) : " clean") + (preset ? " flag preset" : "");
  std::string err = launch(module, fn, {static_cast<std::int64_t>(n), device_address(x), device_address(mid),
                                        device_address(out), kDefaultStream});
  if (!err.empty()) return checks.add(name, could_not_run(err));
  out.download(&flag, 1);
  checks.add(name, check_flag("flag", flag, preset || has_inf_nan_reference(t)));
}

void cross_entropy_case(NativeModule& module, CheckCollector& checks, Dtype d, std::size_t rows, std::size_t vocab) {
  CeCaseOptions o;
  o.adversarial = true;
  CeCase c = make_ce_case(d, rows, vocab, rows * 977 + vocab, o);
  CeForward want = ce_forward_reference(c);
  DeviceBuffer x = to_device(c.logits), sm(c.logits.bytes()), t(rows * 4), loss(rows * 4), go(rows * 4);
  t.upload(c.target.data(), t.bytes());
  fill_sentinel(sm), fill_sentinel(loss);
  const char* dt = d == Dtype::kBf16 ? "bf16" : "fp16";
  std::string name = std::string("bmtrain cross_entropy ") + dt + " " + std::to_string(rows) + "x" + std::to_string(vocab);
  const auto m = static_cast<std::int64_t>(rows), n = static_cast<std::int64_t>(vocab);
  // (m, n, input, target, softmax, output, ignore_index, stream): bmtrain/loss/_function.py.
  std::string err = launch(module, std::string("cross_entropy_forward_") + dt + "_launcher",
                           {m, n, device_address(x), device_address(t), device_address(sm), device_address(loss),
                            std::int64_t{c.ignore_index}, kDefaultStream});
  if (!err.empty()) return checks.add(name + " forward", could_not_run(err));
  if (untouched(loss) && untouched(sm))
    return checks.add(name + " forward", could_not_run(did_not_run(std::string("cross_entropy_forward_") + dt + "_launcher",
                                                                   "loss and softmax")));
  std::vector<float> got_loss(rows);
  loss.download(got_loss.data(), loss.bytes());
  HostTensor got_sm(d, rows * vocab);
  from_device(sm, got_sm);
  checks.add(name + " forward", check_ce_forward(c, want, got_loss, got_sm));
  // 1.0.x's kernel ignores ignore_index; the wrapper passes grad_output 0 for those rows, as we do.
  std::vector<float> grad_out(rows);
  for (std::size_t r = 0; r < rows; ++r) grad_out[r] = c.target[r] == c.ignore_index ? 0.0f : 32768.0f / rows;
  go.upload(grad_out.data(), go.bytes());
  // (m, n, grad_output, target, x, ignore_index, stream), in place over the saved softmax.
  err = launch(module, std::string("cross_entropy_backward_inplace_") + dt + "_launcher",
               {m, n, device_address(go), device_address(t), device_address(sm), std::int64_t{c.ignore_index},
                kDefaultStream});
  if (!err.empty()) return checks.add(name + " backward", could_not_run(err));
  HostTensor got_grad(d, rows * vocab);
  from_device(sm, got_grad);
  if (std::memcmp(got_grad.data(), got_sm.data(), got_sm.bytes()) == 0)
    return checks.add(name + " backward",
                      could_not_run(did_not_run(std::string("cross_entropy_backward_inplace_") + dt + "_launcher",
                                                "the gradient (the softmax buffer is unchanged)")));
  checks.add(name + " backward", check_ce_backward(ce_backward_reference(c, got_sm, grad_out), got_grad));
}

}  // namespace

void check_gpu_launchers(NativeModule& module, const std::string& level, CheckCollector& checks) {
  const std::size_t adam_n = level == "quick" ? 4099 : (1u << 20) + 3;
  for (AdamVariant v : {AdamVariant::kFp16, AdamVariant::kBf16})
    for (bool adversarial : {false, true}) adam_case(module, checks, v, adam_n, adversarial);
  for (Dtype d : {Dtype::kFp16, Dtype::kBf16}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
      inf_nan_case(module, checks, d, n, n, 0);
      inf_nan_case(module, checks, d, n, n, 1);
      inf_nan_case(module, checks, d, n, n / 2, 0);
      inf_nan_case(module, checks, d, n, n - 1, 0);
    }
    for (std::size_t vocab : {std::size_t{10}, std::size_t{999}, std::size_t{86583}})
      cross_entropy_case(module, checks, d, vocab >= 80000 ? (level == "quick" ? 8 : 64) : 300, vocab);
  }
}

}  // namespace gpucheck::kernels::bmtrain
