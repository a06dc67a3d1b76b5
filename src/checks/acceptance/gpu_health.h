#pragma once
// device.health's verdict rules: what NVML said about one GPU (read by the probe, probes/device_health)
// -> one DeviceFinding. Pure: the readings are plain values, so every rule is tested without a driver.
//
// Rules (docs/acceptance.md):
//   fail: uncorrected ECC errors since the driver loaded (volatile), pages pending retirement, row
//         remappings pending or failed, a corrupted infoROM, a link narrower than its maximum, a link
//         slower than its maximum while the GPU is not idle, the GPU lost from the bus;
//   warn: throttling (power cap, thermal, hardware slowdowns), uncorrected errors in the lifetime
//         (aggregate) count only, the slot limiting the link below what the GPU supports, an XID event
//         seen while the probe watched, a query refused for lack of privilege, an unexpected NVML error;
//   info: NVML_ERROR_NOT_SUPPORTED and functions this libnvidia-ml lacks (the fact is unknown, not bad),
//         a link trained down while the GPU is idle (GPUs lower the link speed to save power).
#include <cstdint>
#include <string>
#include <vector>

#include "core/finding.h"

namespace gpucheck::acceptance {

/// One NVML query and its answer.
struct NvmlReading {
  std::string key;    // stable: "ecc.volatile.uncorrected" (the keys are listed in gpu_health.cpp)
  std::string query;  // the exact call: "nvmlDeviceGetTotalEccErrors(UNCORRECTED, VOLATILE_ECC)"
  int rc = 0;         // nvmlReturn_t, or kNvmlMissingSymbol
  std::uint64_t value = 0;
};

struct GpuHealth {
  std::string index;       // CUDA ordinal (CUDA_VISIBLE_DEVICES applied), as the other GPU probes number GPUs
  std::string name, uuid, pci_bus_id;
  unsigned pci_device_id = 0;  // 0x2330; 0 when unknown
  std::vector<NvmlReading> readings;
  std::vector<std::uint64_t> xids;  // XID critical errors NVML delivered while the probe watched
  double xid_watch_s = 0;           // how long it watched (0: not watched)
  unsigned uid = 0;                 // the probe's effective uid, for the privilege message

  const NvmlReading* find(const std::string& key) const;
  /// Adds (or replaces) a reading.
  void set(const std::string& key, const std::string& query, int rc, std::uint64_t value = 0);
};

/// The verdict for one GPU: status, a one-line summary naming every rule that fired, evidence for each
/// reading (value, or why there is none) and metrics temperature_c, power_w, power_limit_w.
DeviceFinding judge_gpu_health(const GpuHealth& gpu);

/// The whole probe's result from every GPU's readings: status (the worst GPU's), summary, devices, and
/// the fixes that apply (reset a GPU with pending remaps, enable persistence mode, run as root).
void judge_health(const std::vector<GpuHealth>& gpus, Finding& out);

}  // namespace gpucheck::acceptance
