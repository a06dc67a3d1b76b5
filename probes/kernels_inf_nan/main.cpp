// kernels.inf_nan: the sticky overflow flag on GPU 0, exact against the CPU reference.
#include <cmath>
#include <string>

#include "common/check_result.h"
#include "common/cuda_support.h"
#include "inf_nan/inf_nan_cuda.h"
#include "inf_nan/inf_nan_reference.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck::kernels;

/// Runs the kernel over t[offset..] with the flag preset to `preset`; returns the flag.
int gpu_flag(const HostTensor& t, std::size_t offset, int preset) {
  DeviceBuffer d = to_device(t);
  DeviceBuffer flag(1);
  std::uint8_t f = static_cast<std::uint8_t>(preset);
  flag.upload(&f, 1);
  cuda_check(launch_has_inf_nan(t.dtype() == Dtype::kBf16, t.size() - offset, d.as<std::uint16_t>() + offset,
                                flag.as<std::uint8_t>(), nullptr),
             "has_inf_nan launch");
  cuda_check(cudaDeviceSynchronize(), "has_inf_nan kernel");
  flag.download(&f, 1);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    if (!require_gpu(r)) return;
    CheckCollector checks;
    std::vector<std::size_t> sizes{1, 7, 1000, (1u << 20) + 3};
    if (ctx.level == "long") sizes.push_back((std::size_t{1} << 31) + 5);
    for (Dtype d : {Dtype::kFp16, Dtype::kBf16}) {
      for (std::size_t n : sizes) {
        HostTensor t(d, n);
        for (std::size_t i = 0; i < n; ++i) t.u16()[i] = static_cast<std::uint16_t>((i * 2654435761u) & 0x3bff);  // finite
        std::string base = std::string(to_string(d)) + " n=" + std::to_string(n);
        checks.add(base + " clean", check_flag("flag", gpu_flag(t, 0, 0), has_inf_nan_reference(t)));
        checks.add(base + " clean, flag preset", check_flag("flag stays set", gpu_flag(t, 0, 1), 1));
        for (std::size_t pos : {std::size_t{0}, n / 2, n - 1})
          for (double bad : {INFINITY, -INFINITY, NAN}) {
            HostTensor u = t;
            u.set(pos, bad);
            checks.add(base + " bad at " + std::to_string(pos) + " (" + std::to_string(bad) + ")",
                       check_flag("flag", gpu_flag(u, 0, 0), has_inf_nan_reference(u)));
            if (n > 1 && pos == 0)  // misaligned start: the bad element is just before the range
              checks.add(base + " misaligned, bad element outside", check_flag("flag", gpu_flag(u, 1, 0), 0));
          }
      }
    }
    checks.fill(r, "inf/NaN flag fp16/bf16 exact on " + r.evidence["device"]);
  });
}
