#include "common/device_identity.h"

#include <cuda_runtime_api.h>

namespace gpucheck::kernels {

void set_device_identity(DeviceFinding& d, int dev) {
  d.device = std::to_string(dev);
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, dev) == cudaSuccess) {
    unsigned char bytes[16];
    for (int i = 0; i < 16; ++i) bytes[i] = static_cast<unsigned char>(p.uuid.bytes[i]);
    d.evidence["uuid"] = format_gpu_uuid(bytes);
  }
  char bus[32] = {0};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, dev) == cudaSuccess) d.evidence["pci_bus_id"] = bus;
}

}  // namespace gpucheck::kernels
