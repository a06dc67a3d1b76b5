#pragma once
// GPUs through NVML, loaded with dlopen("libnvidia-ml.so.1") so gpucheck has no link-time dependency on the
// driver. CUDA_VISIBLE_DEVICES is applied the way the CUDA runtime applies it (indices or UUID prefixes,
// stopping at the first invalid entry), so `index` is what a CUDA program would call the device.
#include <string>
#include <vector>

#include "inventory/device_helper.h"
#include "inventory/model.h"

namespace gpucheck::inventory {

struct GpuScan {
  std::vector<Gpu> gpus;
  std::string driver_version;  // nvmlSystemGetDriverVersion, when NVML loaded
  std::string error;           // why no GPU could be listed ("libnvidia-ml.so.1: cannot open ...")
};

/// `cuda_visible_devices` is the variable's value, or nullptr when unset. NVML is loaded in the
/// gpucheck-gpuinfo child (inventory/device_helper.h), never in this process.
GpuScan read_gpus(const char* cuda_visible_devices);
/// The same from a reply already asked for (with "nvml" among its questions).
GpuScan gpus_from_helper(const DeviceHelperReply& reply, const char* cuda_visible_devices);

/// Applies CUDA_VISIBLE_DEVICES to GPUs numbered by NVML (each with uuid "GPU-..."): the visible ones in
/// the variable's order, renumbered from 0.
std::vector<Gpu> apply_visible_devices(const std::vector<Gpu>& all, const std::string& value);

}  // namespace gpucheck::inventory
