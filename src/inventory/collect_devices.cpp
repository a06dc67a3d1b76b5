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
  // One child answers both (NVML's init is the slow part of it).
  const DeviceHelperReply reply = ask_device_helper({"nvml", "libcuda"});
  const platform::LdCache no_cache;  // the live driver is found by the child's own dlopen
  inv.driver = read_driver(fs, no_cache, &reply);
  GpuScan g = gpus_from_helper(reply, std::getenv("CUDA_VISIBLE_DEVICES"));
  inv.gpus = std::move(g.gpus);
  inv.gpu_presence = read_gpu_presence(fs);
  if (inv.driver.version.empty() && !g.driver_version.empty()) inv.driver.version = g.driver_version;
  for (auto& n : driver_notes(inv.driver, g.error)) inv.notes.push_back(std::move(n));
  adopt_driver_library_mismatch(inv.driver, g.error);
  inv.notes.push_back("devices only: GPUs and driver (toolkits, libraries, compilers and Python not collected)");
  return inv;
}

}  // namespace gpucheck::inventory
