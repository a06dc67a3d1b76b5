#pragma once
// How a GPU probe names a GPU so the acceptance thresholds can find its product (docs/acceptance.md, the
// metric contract): evidence "uuid" as NVML writes it, and "pci_bus_id" as cudaDeviceGetPCIBusId does.
#include <cstdio>
#include <string>

#include "core/finding.h"

namespace gpucheck::kernels {

/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" from the 16 bytes of cudaDeviceProp::uuid (NVML's format).
inline std::string format_gpu_uuid(const unsigned char (&b)[16]) {
  char s[48];
  std::snprintf(s, sizeof s, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return s;
}

/// Sets d.device (the ordinal) and evidence uuid and pci_bus_id for CUDA device `dev` (each only when the
/// runtime gives it). Defined with the CUDA helpers (cuda_support library).
void set_device_identity(DeviceFinding& d, int dev);

}  // namespace gpucheck::kernels
