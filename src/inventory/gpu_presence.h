#pragma once
// Whether this machine has an NVIDIA GPU at all, without the driver: PCI functions of vendor 0x10de whose
// class is a display or 3D controller (/sys/bus/pci/devices/*/{vendor,class,device}), and the device nodes
// the driver creates (/dev/nvidia*). It tells "no NVIDIA GPU here" (nothing to test) from "a GPU and no
// driver" (install one). Files only, so it works under --root (a fake tree in the tests).
#include "inventory/model.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

GpuPresence read_gpu_presence(const platform::RootFs& fs);

}  // namespace gpucheck::inventory
