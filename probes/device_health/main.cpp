// device.health: is each GPU healthy by its own counters? NVML through dlopen (nvml_reader.h); the
// verdict rules are the checks layer's (checks/acceptance/gpu_health.h). Without NVML or a GPU: skip with
// the exact reason.
#include <cstdlib>

#include "checks/acceptance/gpu_health.h"
#include "nvml_reader.h"
#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    // XID events reach NVML only while someone listens: the longer levels listen longer.
    unsigned watch_ms = ctx.level == "quick" ? 0 : ctx.level == "long" ? 5000 : 1000;
    if (auto v = ctx.arg("--xid-watch-ms"); !v.empty()) watch_ms = static_cast<unsigned>(std::strtoul(v.c_str(), nullptr, 10));
    auto scan = probe::scan_nvml_health(std::getenv("CUDA_VISIBLE_DEVICES"), watch_ms);
    if (!scan.library.empty()) r.evidence["nvml"] = scan.library;
    if (!scan.driver_version.empty()) r.evidence["driver_version"] = scan.driver_version;
    if (!scan.skip_reason.empty()) {
      r.add_fix("install the NVIDIA driver (it ships libnvidia-ml.so.1) on a machine with a GPU");
      return probe::skip(r, scan.skip_reason);
    }
    acceptance::judge_health(scan.gpus, r);
    r.add_metric("gpus_read", static_cast<double>(scan.gpus.size()), "count");
    r.references.push_back("https://docs.nvidia.com/deploy/nvml-api/");
  });
}
