// kernels.adam_offload: the CPU offload Adam on every ISA path and several thread counts vs the double
// reference (within policy) and vs the scalar single-thread result (bit-identical by construction).
#include <chrono>
#include <string>

#include "adam/adam_offload.h"
#include "adam/adam_reference.h"
#include "common/check_result.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck::kernels;

AdamState run_offload(const AdamState& before, const AdamHyper& h, CpuIsa isa, unsigned threads, double* seconds) {
  auto t0 = std::chrono::steady_clock::now();
  AdamState s = adam_offload_on_copy(before, h, isa, threads);
  if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

// Every path evaluates the same operations, so the results must be identical (NaN matching NaN).
std::vector<CheckReport> identical(const AdamState& got, const AdamState& base) {
  return {check_exact("param", got.param, base.param), check_exact("param_h", got.param_h, base.param_h),
          check_exact("m", got.m, base.m), check_exact("v", got.v, base.v)};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    CheckCollector checks;
    auto isas = supported_cpu_isas();
    unsigned threads = offload_default_threads();
    std::vector<std::size_t> sizes{0, 1, 15, 17, 4099};
    if (ctx.level != "quick") sizes.push_back((1u << 20) + 5);
    if (ctx.level == "long") sizes.push_back((1u << 26) + 3);
    std::string isa_list;
    for (CpuIsa i : isas) isa_list += std::string(isa_list.empty() ? "" : ", ") + to_string(i);
    double best_gbps = 0;
    for (AdamVariant v : {AdamVariant::kOffloadFp16, AdamVariant::kOffloadBf16}) {
      for (std::size_t n : sizes) {
        for (bool adversarial : {false, true}) {
          AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 3);
          AdamState before = make_adam_state(v, n, n * 7 + adversarial, h, adversarial);
          AdamState want = before;
          adam_reference_step(want, h);
          AdamState base = run_offload(before, h, CpuIsa::kScalar, 1, nullptr);
          std::string name = std::string(to_string(v)) + " n=" + std::to_string(n) + (adversarial ? " adversarial" : "");
          checks.add(name + " scalar vs reference", check_adam_step(before, want, base, h));
          for (CpuIsa isa : isas)
            for (unsigned t : {1u, 3u, threads}) {
              double secs = 0;
              AdamState got = run_offload(before, h, isa, t, &secs);
              checks.add(name + " " + to_string(isa) + " x" + std::to_string(t) + " vs scalar",
                         identical(got, base));
              // bytes moved: param/m/v read+write, grad read, param_h write
              if (n >= (1u << 20) && secs > 0) best_gbps = std::max(best_gbps, n * 30.0 / secs / 1e9);
            }
        }
      }
    }
    checks.fill(r, "offload Adam fp16/bf16 on " + isa_list + " (threads 1, 3, " + std::to_string(threads) + ")");
    r.evidence["isa_paths"] = isa_list;
    r.evidence["best_isa"] = to_string(best_cpu_isa());
    r.evidence["threads"] = std::to_string(threads);
    r.evidence["bf16_rounding"] = "round to nearest even (BMTrain 1.0.x truncates)";
    if (best_gbps > 0) r.add_metric("throughput", best_gbps, "GB/s", "higher");
  });
}
