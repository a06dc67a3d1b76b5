#include "inventory/gpu_info.h"

#include <dlfcn.h>

#include <cstdio>

#include "core/text.h"

namespace gpucheck::inventory {

namespace {

// The few NVML declarations we need (nvml.h is not required to build): stable since NVML 10.
using nvmlDevice_t = void*;
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
constexpr int kClockSm = 1, kClockMem = 2;

struct Nvml {
  void* h = nullptr;
  template <typename F>
  F get(const char* name) const {
    return reinterpret_cast<F>(dlsym(h, name));
  }
};

std::string enabled(int state) { return state == 1 ? "enabled" : "disabled"; }

}  // namespace

std::vector<Gpu> apply_visible_devices(const std::vector<Gpu>& all, const std::string& value) {
  std::vector<Gpu> out;
  for (auto entry : split(value, ',')) {
    entry = trim(entry);
    if (entry.empty()) break;
    const Gpu* match = nullptr;
    if (std::isdigit(static_cast<unsigned char>(entry[0]))) {
      char* end = nullptr;
      long i = std::strtol(entry.c_str(), &end, 10);
      if (*end != '\0' || i < 0 || static_cast<std::size_t>(i) >= all.size()) break;  // invalid: stop here
      match = &all[static_cast<std::size_t>(i)];
    } else {
      std::string want = starts_with(entry, "GPU-") ? entry : "GPU-" + entry;
      for (const auto& g : all)
        if (starts_with(g.uuid, want)) {
          if (match) return out;  // ambiguous prefix: the runtime stops too
          match = &g;
        }
      if (!match) break;
    }
    Gpu g = *match;
    g.index = static_cast<int>(out.size());
    out.push_back(g);
  }
  return out;
}

GpuScan read_gpus(const char* cuda_visible_devices) {
  GpuScan scan;
  Nvml n;
  n.h = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!n.h) {
    const char* e = dlerror();
    scan.error = e ? e : "libnvidia-ml.so.1 cannot be loaded";
    return scan;
  }
  auto init = n.get<int (*)()>("nvmlInit_v2");
  auto count_fn = n.get<int (*)(unsigned*)>("nvmlDeviceGetCount_v2");
  auto handle_fn = n.get<int (*)(unsigned, nvmlDevice_t*)>("nvmlDeviceGetHandleByIndex_v2");
  auto err_fn = n.get<const char* (*)(int)>("nvmlErrorString");
  if (!init || !count_fn || !handle_fn) {
    scan.error = "libnvidia-ml.so.1 lacks nvmlInit_v2/nvmlDeviceGetCount_v2";
    return scan;
  }
  if (int rc = init(); rc != 0) {
    scan.error = std::string("nvmlInit_v2: ") + (err_fn ? err_fn(rc) : std::to_string(rc));
    return scan;
  }
  char buf[128] = {0};
  if (auto drv = n.get<int (*)(char*, unsigned)>("nvmlSystemGetDriverVersion"); drv && drv(buf, sizeof buf) == 0)
    scan.driver_version = buf;
  unsigned count = 0;
  count_fn(&count);
  auto name_fn = n.get<int (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetName");
  auto uuid_fn = n.get<int (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetUUID");
  auto pci_fn = n.get<int (*)(nvmlDevice_t, nvmlPciInfo_t*)>("nvmlDeviceGetPciInfo_v3");
  auto cc_fn = n.get<int (*)(nvmlDevice_t, int*, int*)>("nvmlDeviceGetCudaComputeCapability");
  auto mem_fn = n.get<int (*)(nvmlDevice_t, nvmlMemory_t*)>("nvmlDeviceGetMemoryInfo");
  auto ecc_fn = n.get<int (*)(nvmlDevice_t, int*, int*)>("nvmlDeviceGetEccMode");
  auto pers_fn = n.get<int (*)(nvmlDevice_t, int*)>("nvmlDeviceGetPersistenceMode");
  auto clk_fn = n.get<int (*)(nvmlDevice_t, int, unsigned*)>("nvmlDeviceGetMaxClockInfo");
  auto gen_cur = n.get<int (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetCurrPcieLinkGeneration");
  auto gen_max = n.get<int (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetMaxPcieLinkGeneration");
  auto w_cur = n.get<int (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetCurrPcieLinkWidth");
  auto w_max = n.get<int (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetMaxPcieLinkWidth");
  auto mig_fn = n.get<int (*)(nvmlDevice_t, unsigned*, unsigned*)>("nvmlDeviceGetMigMode");

  std::vector<Gpu> all;
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    if (handle_fn(i, &dev) != 0) continue;
    Gpu g;
    g.index = g.nvml_index = static_cast<int>(i);
    g.source = "NVML (libnvidia-ml.so.1)";
    char s[96] = {0};
    if (name_fn && name_fn(dev, s, sizeof s) == 0) g.name = s;
    if (uuid_fn && uuid_fn(dev, s, sizeof s) == 0) g.uuid = s;
    nvmlPciInfo_t pci{};
    if (pci_fn && pci_fn(dev, &pci) == 0) {
      g.pci_bus_id = pci.busId;
      char id[16];
      std::snprintf(id, sizeof id, "0x%04x", pci.pciDeviceId >> 16);
      g.pci_device_id = id;
    }
    if (cc_fn) cc_fn(dev, &g.cc_major, &g.cc_minor);
    nvmlMemory_t mem{};
    if (mem_fn && mem_fn(dev, &mem) == 0) g.memory_total_bytes = mem.total;
    int cur = 0, pend = 0;
    // NVML_ERROR_NOT_SUPPORTED (3) is common (ECC on consumer boards): leave the field empty then.
    if (ecc_fn && ecc_fn(dev, &cur, &pend) == 0) g.ecc_mode = enabled(cur);
    if (pers_fn && pers_fn(dev, &cur) == 0) g.persistence_mode = enabled(cur);
    unsigned u = 0, v = 0;
    if (clk_fn && clk_fn(dev, kClockSm, &u) == 0) g.sm_clock_max_mhz = static_cast<int>(u);
    if (clk_fn && clk_fn(dev, kClockMem, &u) == 0) g.mem_clock_max_mhz = static_cast<int>(u);
    if (gen_cur && gen_cur(dev, &u) == 0) g.pcie_gen_current = static_cast<int>(u);
    if (gen_max && gen_max(dev, &u) == 0) g.pcie_gen_max = static_cast<int>(u);
    if (w_cur && w_cur(dev, &u) == 0) g.pcie_width_current = static_cast<int>(u);
    if (w_max && w_max(dev, &u) == 0) g.pcie_width_max = static_cast<int>(u);
    if (mig_fn && mig_fn(dev, &u, &v) == 0) g.mig_mode = enabled(static_cast<int>(u));
    all.push_back(g);
  }
  if (auto shutdown = n.get<int (*)()>("nvmlShutdown")) shutdown();
  scan.gpus = cuda_visible_devices ? apply_visible_devices(all, cuda_visible_devices) : all;
  return scan;
}

}  // namespace gpucheck::inventory
