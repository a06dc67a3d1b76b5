#pragma once
// NVML's return codes and clocks-event (throttle) reason bits, by name. The values are NVML's own
// (nvml.h of CUDA 12.6, nvmlReturn_t and the nvmlClocksEventReason* macros); only those gpucheck reads.
#include <cstdint>
#include <string>
#include <vector>

namespace gpucheck::acceptance {

// nvmlReturn_t values gpucheck tells apart.
inline constexpr int kNvmlSuccess = 0;
inline constexpr int kNvmlNotSupported = 3;
inline constexpr int kNvmlNoPermission = 4;
inline constexpr int kNvmlTimeout = 10;
inline constexpr int kNvmlCorruptedInforom = 14;
inline constexpr int kNvmlGpuIsLost = 15;
/// Not an NVML code: the loaded libnvidia-ml has no such function (an older driver), so it was not called.
inline constexpr int kNvmlMissingSymbol = -1;

/// "NVML_ERROR_NO_PERMISSION (4)"; "missing symbol" for kNvmlMissingSymbol; "NVML return code 77" otherwise.
std::string nvml_return_name(int rc);

/// One bit of nvmlDeviceGetCurrentClocksEventReasons.
struct ClockEventReason {
  std::uint64_t bit;
  const char* name;     // "HwThermalSlowdown" (the macro's suffix)
  bool throttle;        // true: the GPU runs slower than it could for a reason worth a warning
  const char* meaning;  // one line, from nvml.h's comment
};

const std::vector<ClockEventReason>& clock_event_reasons();
inline constexpr std::uint64_t kClocksEventGpuIdle = 0x1;

/// The names of the set bits, in bit order; an unknown bit is named "0x...".
std::vector<std::string> decode_clock_event_reasons(std::uint64_t mask);
/// The set bits that are throttling (power cap, thermal and hardware slowdowns), by name.
std::vector<std::string> throttle_reasons(std::uint64_t mask);

}  // namespace gpucheck::acceptance
