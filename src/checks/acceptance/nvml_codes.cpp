#include "checks/acceptance/nvml_codes.h"

#include <fmt/format.h>

namespace gpucheck::acceptance {

std::string nvml_return_name(int rc) {
  static const char* const kNames[] = {
      "NVML_SUCCESS", "NVML_ERROR_UNINITIALIZED", "NVML_ERROR_INVALID_ARGUMENT", "NVML_ERROR_NOT_SUPPORTED",
      "NVML_ERROR_NO_PERMISSION", "NVML_ERROR_ALREADY_INITIALIZED", "NVML_ERROR_NOT_FOUND",
      "NVML_ERROR_INSUFFICIENT_SIZE", "NVML_ERROR_INSUFFICIENT_POWER", "NVML_ERROR_DRIVER_NOT_LOADED",
      "NVML_ERROR_TIMEOUT", "NVML_ERROR_IRQ_ISSUE", "NVML_ERROR_LIBRARY_NOT_FOUND",
      "NVML_ERROR_FUNCTION_NOT_FOUND", "NVML_ERROR_CORRUPTED_INFOROM", "NVML_ERROR_GPU_IS_LOST",
      "NVML_ERROR_RESET_REQUIRED", "NVML_ERROR_OPERATING_SYSTEM", "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
      "NVML_ERROR_IN_USE", "NVML_ERROR_MEMORY", "NVML_ERROR_NO_DATA", "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED",
      "NVML_ERROR_INSUFFICIENT_RESOURCES", "NVML_ERROR_FREQ_NOT_SUPPORTED",
      "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "NVML_ERROR_DEPRECATED", "NVML_ERROR_NOT_READY",
      "NVML_ERROR_GPU_NOT_FOUND", "NVML_ERROR_INVALID_STATE"};
  if (rc == kNvmlMissingSymbol) return "missing symbol";
  if (rc >= 0 && rc < static_cast<int>(sizeof kNames / sizeof *kNames)) return fmt::format("{} ({})", kNames[rc], rc);
  if (rc == 999) return "NVML_ERROR_UNKNOWN (999)";
  return fmt::format("NVML return code {}", rc);
}

const std::vector<ClockEventReason>& clock_event_reasons() {
  static const std::vector<ClockEventReason> kReasons = {
      {0x1, "GpuIdle", false, "nothing runs on the GPU and the clocks drop to idle"},
      {0x2, "ApplicationsClocksSetting", false, "limited by the applications clocks setting"},
      {0x4, "SwPowerCap", true, "lowered to stay under the power limit"},
      {0x8, "HwSlowdown", true, "hardware slowdown (clocks / 2 or more): temperature, power brake or power draw"},
      {0x10, "SyncBoost", false, "held to the slowest GPU of its sync boost group"},
      {0x20, "SwThermalSlowdown", true, "lowered to keep the GPU or memory under its maximum operating temperature"},
      {0x40, "HwThermalSlowdown", true, "hardware thermal slowdown (clocks / 2 or more): too hot"},
      {0x80, "HwPowerBrakeSlowdown", true, "hardware power brake slowdown: external power brake asserted"},
      {0x100, "DisplayClockSetting", false, "limited by the display clocks setting"},
  };
  return kReasons;
}

std::vector<std::string> decode_clock_event_reasons(std::uint64_t mask) {
  std::vector<std::string> names;
  std::uint64_t known = 0;
  for (const auto& r : clock_event_reasons()) {
    known |= r.bit;
    if (mask & r.bit) names.emplace_back(r.name);
  }
  for (int b = 0; b < 64; ++b) {
    std::uint64_t bit = std::uint64_t{1} << b;
    if ((mask & bit) && !(known & bit)) names.push_back(fmt::format("0x{:x}", bit));
  }
  return names;
}

std::vector<std::string> throttle_reasons(std::uint64_t mask) {
  std::vector<std::string> names;
  for (const auto& r : clock_event_reasons())
    if (r.throttle && (mask & r.bit)) names.emplace_back(r.name);
  return names;
}

}  // namespace gpucheck::acceptance
