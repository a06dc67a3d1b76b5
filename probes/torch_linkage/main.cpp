// torch.linkage: which libtorch this process really loaded, and whether its numerics agree with ours.
#include <string>

#include "common/check_result.h"
#include "probe/probe.h"
#include "torch_linkage/torch_crosscheck.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  using namespace gpucheck::kernels;
  return probe::run(argc, argv, [](const probe::Context&, Finding& r) {
    torchcheck::TorchInfo info = torchcheck::torch_info();
    r.evidence["torch_version"] = info.version;
    r.evidence["built_against"] = GPUCHECK_TORCH_DIR;
    std::string loaded;
    for (auto& l : info.loaded) loaded += (loaded.empty() ? "" : "\n") + l;
    r.evidence["loaded_libraries"] = loaded.empty() ? "none found" : loaded;
    r.evidence["torch_cuda"] = info.cuda_available ? std::to_string(info.cuda_devices) + " device(s)" : "not available";
    CheckCollector checks;
    for (auto& [name, reports] : torchcheck::run_all(info.cuda_available)) checks.add(name, reports);
    checks.fill(r, "libtorch " + info.version + (info.cuda_available ? " on CUDA" : " on CPU (torch sees no CUDA)"));
    if (info.loaded.empty() && r.status == Status::kPass) {
      r.status = Status::kWarn;
      r.summary += "; but no libtorch/libc10 shared object is mapped (static link?)";
    }
  });
}
