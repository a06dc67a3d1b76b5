#include <cstdlib>

#include "core/text.h"
#include "inventory/collect.h"
#include "inventory/driver_info.h"
#include "inventory/gpu_info.h"
#include "inventory/gpu_presence.h"
#include "platform/root_fs.h"
#include "platform/environment.h"


namespace gpucheck::inventory {

Inventory collect_devices() {
  platform::RootFs fs("/");
  Inventory inv;
  inv.collected_at = utc_now_iso();
  inv.root = fs.root();
  inv.hostname = platform::hostname();
  inv.gpu_presence = read_gpu_presence(fs);
  // NVML and libcuda reach a GPU only through /dev/nvidiaN (WSL: /dev/dxg): with none of those and no NVIDIA
  // PCI function there is nothing to ask them, and starting the child that asks is most of `gpucheck abi`'s
  // time on one library. The driver then stays unread: a device-only inventory serves GPU questions.
  // GPUCHECK_ASK_DRIVER=always asks regardless (stand-in driver libraries in tests, a /dev hidden from us).
  const char* ask = std::getenv("GPUCHECK_ASK_DRIVER");
  const bool always = ask && std::string(ask) == "always";
  if (!always && inv.gpu_presence.checked && !inv.gpu_presence.any() && !fs.exists("/dev/dxg")) {
    inv.notes.push_back("no NVIDIA GPU on this machine (" + inv.gpu_presence.source +
                        ", /dev/nvidia*): the driver and NVML were not asked");
  } else {
    // One child answers both (NVML's init is the slow part of it).
    const DeviceHelperReply reply = ask_device_helper({"nvml", "libcuda"});
    const platform::LdCache no_cache;  // the live driver is found by the child's own dlopen
    inv.driver = read_driver(fs, no_cache, &reply);
    GpuScan g = gpus_from_helper(reply, std::getenv("CUDA_VISIBLE_DEVICES"));
    inv.gpus = std::move(g.gpus);
    if (inv.driver.version.empty() && !g.driver_version.empty()) inv.driver.version = g.driver_version;
    for (auto& n : driver_notes(inv.driver, g.error)) inv.notes.push_back(std::move(n));
    adopt_driver_library_mismatch(inv.driver, g.error);
  }
  inv.notes.push_back("devices only: GPUs and driver (toolkits, libraries, compilers and Python not collected)");
  return inv;
}

}  // namespace gpucheck::inventory
