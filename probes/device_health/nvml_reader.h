#pragma once
// Reads device.health's facts from libnvidia-ml.so.1, loaded with dlopen (never nvidia-smi's text). Only
// the NVML functions used are declared, with nvml.h's signatures (CUDA 12.6); a function the loaded
// library lacks is recorded as missing, not called.
#include <string>
#include <vector>

#include "checks/acceptance/gpu_health.h"

namespace gpucheck::probe {

struct NvmlHealthScan {
  std::vector<acceptance::GpuHealth> gpus;
  std::string library;  // the file dlopen loaded
  std::string driver_version;
  std::string skip_reason;  // set when nothing could be read: no library, no symbol, init failed, no GPU
};

/// `cuda_visible_devices`: the variable's value or nullptr; GPUs are numbered as CUDA numbers them.
/// `xid_watch_ms`: how long to wait for XID events after registering for them (0: do not watch).
NvmlHealthScan scan_nvml_health(const char* cuda_visible_devices, unsigned xid_watch_ms);

}  // namespace gpucheck::probe
