// kernels.cross_entropy: forward + in-place backward on GPU 0 vs the double reference.
#include <string>

#include "common/check_result.h"
#include "common/cuda_support.h"
#include "cross_entropy/ce_cuda.h"
#include "cross_entropy/ce_reference.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck::kernels;

void run_case(CheckCollector& checks, Dtype d, std::size_t rows, std::size_t vocab, bool in_place) {
  CeCaseOptions o;
  o.adversarial = true;
  CeCase c = make_ce_case(d, rows, vocab, rows * 131 + vocab, o);
  CeForward want = ce_forward_reference(c);
  DeviceBuffer x = to_device(c.logits);
  DeviceBuffer sm_own(in_place ? 0 : c.logits.bytes());
  DeviceBuffer& sm = in_place ? x : sm_own;
  DeviceBuffer t(rows * sizeof(std::int32_t)), loss(rows * sizeof(float)), go(rows * sizeof(float));
  DeviceBuffer ws(ce_forward_workspace_bytes(rows, vocab));
  t.upload(c.target.data(), t.bytes());
  cuda_check(launch_ce_forward(d, rows, vocab, x.get(), sm.get(), t.as<std::int32_t>(), c.ignore_index,
                               loss.as<float>(), ws.get(), nullptr),
             "cross-entropy forward launch");
  cuda_check(cudaDeviceSynchronize(), "cross-entropy forward");
  std::vector<float> got_loss(rows);
  loss.download(got_loss.data(), loss.bytes());
  HostTensor got_sm(d, rows * vocab);
  from_device(sm, got_sm);
  std::string name = std::string(to_string(d)) + " " + std::to_string(rows) + "x" + std::to_string(vocab) +
                     (in_place ? " in-place" : "");
  checks.add(name + " forward", check_ce_forward(c, want, got_loss, got_sm));
  // Backward over the GPU's own softmax, grad_output as BMTrain's wrapper passes it (0 for ignored rows).
  std::vector<float> grad_out(rows);
  for (std::size_t r = 0; r < rows; ++r) grad_out[r] = c.target[r] == c.ignore_index ? 0.0f : 32768.0f / rows;
  go.upload(grad_out.data(), go.bytes());
  cuda_check(launch_ce_backward_inplace(d, rows, vocab, sm.get(), t.as<std::int32_t>(), go.as<float>(), nullptr),
             "cross-entropy backward launch");
  cuda_check(cudaDeviceSynchronize(), "cross-entropy backward");
  HostTensor got_grad(d, rows * vocab);
  from_device(sm, got_grad);
  checks.add(name + " backward", check_ce_backward(ce_backward_reference(c, got_sm, grad_out), got_grad));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    if (!require_gpu(r)) return;
    CheckCollector checks;
    std::vector<std::size_t> vocabs{10, 999, 86583};
    if (ctx.level == "long") vocabs.insert(vocabs.end(), {128000, 256000});
    for (Dtype d : {Dtype::kFp16, Dtype::kBf16, Dtype::kFp32}) {
      for (std::size_t vocab : vocabs) {
        std::size_t rows = vocab >= 80000 ? (ctx.level == "quick" ? 8 : 64) : 300;
        run_case(checks, d, rows, vocab, false);
      }
      run_case(checks, d, 16, 86583, true);
    }
    checks.fill(r, "cross-entropy fwd+bwd fp16/bf16/fp32 on " + r.evidence["device"]);
  });
}
