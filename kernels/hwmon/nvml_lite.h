#pragma once
// The few NVML readings the copy and stress probes sample (PCIe link, clocks, power, temperature, clocks
// event reasons), through the NVML binding (nvml_library.h) so the probes start without NVML and say what
// was missing. The health verdicts on these counters belong to device.health; here they are context.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hwmon/nvml_library.h"

namespace gpucheck::kernels {

struct NvmlSample {
  std::optional<unsigned> sm_clock_mhz, power_mw, temperature_c;
  std::optional<unsigned long long> clocks_event_reasons;  // NVML's bit mask
};

struct PcieLink {
  std::optional<unsigned> max_gen, max_width, current_gen, current_width;
};

class NvmlLite {
 public:
  /// Loads libnvidia-ml.so.1 (or $GPUCHECK_NVML) and calls nvmlInit_v2; ok() says whether it worked.
  NvmlLite();
  bool ok() const { return lib_.ok(); }
  /// Why NVML is not usable ("libnvidia-ml.so.1: cannot open shared object file ...").
  std::string why() const { return lib_.why(); }
  /// The NVML device for a CUDA PCI bus id ("0000:3B:00.0", from cudaDeviceGetPCIBusId); null when unknown.
  void* device_by_pci_bus_id(const std::string& bus_id) const;
  NvmlSample sample(void* device) const;
  PcieLink pcie(void* device) const;

 private:
  NvmlLibrary lib_;
  int (*by_bus_)(const char*, void**) = nullptr;
  int (*clock_)(void*, int, unsigned*) = nullptr;
  int (*power_)(void*, unsigned*) = nullptr;
  int (*temp_)(void*, int, unsigned*) = nullptr;
  int (*reasons_)(void*, unsigned long long*) = nullptr;
  int (*max_gen_)(void*, unsigned*) = nullptr;
  int (*max_width_)(void*, unsigned*) = nullptr;
  int (*cur_gen_)(void*, unsigned*) = nullptr;
  int (*cur_width_)(void*, unsigned*) = nullptr;
};

// NVML's clocks event reason bits (nvml.h, nvmlClocksEventReason*: SwPowerCap 0x4, HwSlowdown 0x8,
// SyncBoost 0x10, SwThermalSlowdown 0x20, HwThermalSlowdown 0x40, HwPowerBrakeSlowdown 0x80). SW power
// capping is how a GPU at full GEMM load normally runs; the slowdowns are what a stress run must not end with.
inline constexpr unsigned long long kClocksEventSwPowerCap = 0x4;
inline constexpr unsigned long long kClocksEventHwSlowdown = 0x8;
inline constexpr unsigned long long kClocksEventSwThermal = 0x20;
inline constexpr unsigned long long kClocksEventHwThermal = 0x40;
inline constexpr unsigned long long kClocksEventHwPowerBrake = 0x80;
inline constexpr unsigned long long kClocksEventSlowdownMask =
    kClocksEventHwSlowdown | kClocksEventSwThermal | kClocksEventHwThermal | kClocksEventHwPowerBrake;

/// "hw_slowdown, sw_thermal" for the slowdown bits set in `reasons`; "" when none.
std::string describe_slowdown(unsigned long long reasons);

}  // namespace gpucheck::kernels
