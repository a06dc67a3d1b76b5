#pragma once
// The NVIDIA driver: cuDriverGetVersion through dlopen("libcuda.so.1") and the kernel module's
// /proc/driver/nvidia/version. No driver is a finding ("present": false with the reason), not an error.
// Under --root only files are read: the libcuda.so.<version> file name tells the user-space driver version.
#include <string>
#include <vector>

#include "inventory/device_helper.h"
#include "inventory/model.h"
#include "platform/ld_cache.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

/// `ld_cache`: the inspected system's loader cache (read_loader_cache), where --root looks for libcuda.so.1.
/// On the live system libcuda is asked in the gpucheck-gpuinfo child: `asked`, a reply that had "libcuda"
/// among its questions, saves asking again.
Driver read_driver(const platform::RootFs& fs, const platform::LdCache& ld_cache, const DeviceHelperReply* asked = nullptr);

/// The inventory's notes on a missing driver, in words instead of the loader's: no libcuda.so.1 and no
/// libnvidia-ml.so.1 is one note, "driver: none installed (the loader finds neither libcuda.so.1 nor
/// libnvidia-ml.so.1)"; any other reason (a driver that does not initialise, NVML errors) is kept as it was
/// said. The inventory's facts (driver.error) keep the loader's own text.
std::vector<std::string> driver_notes(const Driver& driver, const std::string& gpu_error);
/// NVML's "Driver/library version mismatch" (the GPU scan's error) is the driver's own failure: kept as the
/// driver's error (libcuda may still answer cuDriverGetVersion, but nothing CUDA starts).
void adopt_driver_library_mismatch(Driver& driver, const std::string& gpu_error);

/// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 ..." -> "550.54.15".
std::string parse_proc_driver_version(const std::string& text);

}  // namespace gpucheck::inventory
