#pragma once
// What NVML and libcuda say, asked in a child process (gpucheck-gpuinfo, beside the probes): gpucheck never
// dlopens a driver library itself, so one that crashes, hangs or runs a constructor planted through
// LD_LIBRARY_PATH costs only that child, and `gpucheck abi` stays static (nothing loaded in-process).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::inventory {

struct DeviceHelperReply {
  std::vector<nlohmann::json> lines;  // one object per line the helper printed, in order
  std::string failure;                // "" when it exited 0; else what happened ("killed by SIGSEGV", ...)
};

/// The helper's path, "" when it is not installed.
std::string device_helper_path();

/// Runs the helper with `what` ("nvml", "libcuda"). Lines printed before a crash are kept.
DeviceHelperReply ask_device_helper(const std::vector<std::string>& what);

}  // namespace gpucheck::inventory
