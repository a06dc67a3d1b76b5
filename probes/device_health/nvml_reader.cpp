#include "nvml_reader.h"

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <tuple>
#include <fmt/format.h>

#include "checks/acceptance/nvml_codes.h"
#include "hwmon/nvml_library.h"
#include "inventory/gpu_info.h"

namespace gpucheck::probe {
namespace {

using acceptance::GpuHealth;
using acceptance::kNvmlMissingSymbol;
using ull = unsigned long long;

// nvml.h (CUDA 12.6): the types and values of the calls below.
using nvmlDevice_t = void*;
using nvmlEventSet_t = void*;
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
struct nvmlEventData_t {
  nvmlDevice_t device;
  ull eventType, eventData;
  unsigned gpuInstanceId, computeInstanceId;
};
constexpr int kCorrected = 0, kUncorrected = 1;           // nvmlMemoryErrorType_t
constexpr int kVolatile = 0, kAggregate = 1;              // nvmlEccCounterType_t
constexpr int kRetiredMultipleSbe = 0, kRetiredDbe = 1;   // nvmlPageRetirementCause_t
constexpr int kTemperatureGpu = 0;                        // nvmlTemperatureSensors_t
constexpr ull kEventXidCriticalError = 0x8;               // nvmlEventTypeXidCriticalError

using Nvml = kernels::NvmlLibrary;

// Calls fn(args..., &value) when the function exists and records the answer under `key`.
template <typename... Args>
void read_uint(GpuHealth& g, const Nvml& nvml, const char* key, const char* fn, const std::string& query,
               nvmlDevice_t dev, Args... args) {
  auto f = nvml.get<int (*)(nvmlDevice_t, Args..., unsigned*)>(fn);
  if (!f) return g.set(key, query, kNvmlMissingSymbol);
  unsigned v = 0;
  int rc = f(dev, args..., &v);
  g.set(key, query, rc, v);
}

void read_ecc(GpuHealth& g, const Nvml& nvml, nvmlDevice_t dev) {
  // nvmlDeviceGetEccMode(device, current, pending)
  if (auto f = nvml.get<int (*)(nvmlDevice_t, unsigned*, unsigned*)>("nvmlDeviceGetEccMode")) {
    unsigned cur = 0, pend = 0;
    int rc = f(dev, &cur, &pend);
    g.set("ecc.mode", "nvmlDeviceGetEccMode", rc, cur);
  } else {
    g.set("ecc.mode", "nvmlDeviceGetEccMode", kNvmlMissingSymbol);
  }
  auto total = nvml.get<int (*)(nvmlDevice_t, int, int, ull*)>("nvmlDeviceGetTotalEccErrors");
  struct Counter {
    const char* key;
    int type, counter;
    const char* query;
  };
  for (const Counter& c : {Counter{"ecc.volatile.corrected", kCorrected, kVolatile, "nvmlDeviceGetTotalEccErrors(CORRECTED, VOLATILE_ECC)"},
                           Counter{"ecc.volatile.uncorrected", kUncorrected, kVolatile, "nvmlDeviceGetTotalEccErrors(UNCORRECTED, VOLATILE_ECC)"},
                           Counter{"ecc.aggregate.corrected", kCorrected, kAggregate, "nvmlDeviceGetTotalEccErrors(CORRECTED, AGGREGATE_ECC)"},
                           Counter{"ecc.aggregate.uncorrected", kUncorrected, kAggregate, "nvmlDeviceGetTotalEccErrors(UNCORRECTED, AGGREGATE_ECC)"}}) {
    if (!total) {
      g.set(c.key, c.query, kNvmlMissingSymbol);
      continue;
    }
    ull n = 0;
    int rc = total(dev, c.type, c.counter, &n);
    g.set(c.key, c.query, rc, n);
  }
}

void read_retirement(GpuHealth& g, const Nvml& nvml, nvmlDevice_t dev) {
  // pageCount 0 with a null buffer asks for the count only (nvml.h).
  auto pages = nvml.get<int (*)(nvmlDevice_t, int, unsigned*, ull*)>("nvmlDeviceGetRetiredPages");
  for (auto [key, cause, query] : {std::tuple{"retired.sbe", kRetiredMultipleSbe, "nvmlDeviceGetRetiredPages(MULTIPLE_SINGLE_BIT_ECC_ERRORS)"},
                                   std::tuple{"retired.dbe", kRetiredDbe, "nvmlDeviceGetRetiredPages(DOUBLE_BIT_ECC_ERROR)"}}) {
    if (!pages) {
      g.set(key, query, kNvmlMissingSymbol);
      continue;
    }
    unsigned count = 0;
    int rc = pages(dev, cause, &count, nullptr);
    if (rc == 7) rc = 0;  // NVML_ERROR_INSUFFICIENT_SIZE: count is set, which is all we asked
    g.set(key, query, rc, count);
  }
  read_uint(g, nvml, "retired.pending", "nvmlDeviceGetRetiredPagesPendingStatus", "nvmlDeviceGetRetiredPagesPendingStatus", dev);
  auto remap = nvml.get<int (*)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*)>("nvmlDeviceGetRemappedRows");
  const char* q = "nvmlDeviceGetRemappedRows";
  if (!remap) {
    for (const char* k : {"remap.corrected", "remap.uncorrected", "remap.pending", "remap.failure"}) g.set(k, q, kNvmlMissingSymbol);
    return;
  }
  unsigned corr = 0, unc = 0, pending = 0, failed = 0;
  int rc = remap(dev, &corr, &unc, &pending, &failed);
  g.set("remap.corrected", q, rc, corr);
  g.set("remap.uncorrected", q, rc, unc);
  g.set("remap.pending", q, rc, pending);
  g.set("remap.failure", q, rc, failed);
}

void read_link_and_clocks(GpuHealth& g, const Nvml& nvml, nvmlDevice_t dev) {
  read_uint(g, nvml, "pcie.gen.current", "nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetCurrPcieLinkGeneration", dev);
  read_uint(g, nvml, "pcie.gen.max", "nvmlDeviceGetMaxPcieLinkGeneration", "nvmlDeviceGetMaxPcieLinkGeneration", dev);
  read_uint(g, nvml, "pcie.gen.gpu_max", "nvmlDeviceGetGpuMaxPcieLinkGeneration", "nvmlDeviceGetGpuMaxPcieLinkGeneration", dev);
  read_uint(g, nvml, "pcie.width.current", "nvmlDeviceGetCurrPcieLinkWidth", "nvmlDeviceGetCurrPcieLinkWidth", dev);
  read_uint(g, nvml, "pcie.width.max", "nvmlDeviceGetMaxPcieLinkWidth", "nvmlDeviceGetMaxPcieLinkWidth", dev);
  // R535 renamed "throttle reasons" to "clocks event reasons"; older drivers have only the old name.
  const char* fn = "nvmlDeviceGetCurrentClocksEventReasons";
  auto reasons = nvml.get<int (*)(nvmlDevice_t, ull*)>(fn);
  if (!reasons) reasons = nvml.get<int (*)(nvmlDevice_t, ull*)>(fn = "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (!reasons) {
    g.set("clocks.event_reasons", "nvmlDeviceGetCurrentClocksEventReasons", kNvmlMissingSymbol);
  } else {
    ull mask = 0;
    int rc = reasons(dev, &mask);
    g.set("clocks.event_reasons", fn, rc, mask);
  }
}

void read_board(GpuHealth& g, const Nvml& nvml, nvmlDevice_t dev) {
  read_uint(g, nvml, "persistence", "nvmlDeviceGetPersistenceMode", "nvmlDeviceGetPersistenceMode", dev);
  if (auto f = nvml.get<int (*)(nvmlDevice_t)>("nvmlDeviceValidateInforom")) g.set("inforom", "nvmlDeviceValidateInforom", f(dev));
  else g.set("inforom", "nvmlDeviceValidateInforom", kNvmlMissingSymbol);
  read_uint(g, nvml, "power.usage_mw", "nvmlDeviceGetPowerUsage", "nvmlDeviceGetPowerUsage", dev);
  read_uint(g, nvml, "power.limit_mw", "nvmlDeviceGetEnforcedPowerLimit", "nvmlDeviceGetEnforcedPowerLimit", dev);
  read_uint(g, nvml, "temperature.gpu_c", "nvmlDeviceGetTemperature", "nvmlDeviceGetTemperature(GPU)", dev, kTemperatureGpu);
}

// XID events are delivered only from the moment of registration (nvml.h): what happened before the
// probe started is in the kernel log, not in NVML. So the probe registers and waits `ms`.
void watch_xids(std::vector<GpuHealth>& gpus, const std::vector<nvmlDevice_t>& devs, const Nvml& nvml, unsigned ms) {
  auto create = nvml.get<int (*)(nvmlEventSet_t*)>("nvmlEventSetCreate");
  auto reg = nvml.get<int (*)(nvmlDevice_t, ull, nvmlEventSet_t)>("nvmlDeviceRegisterEvents");
  auto wait = nvml.get<int (*)(nvmlEventSet_t, nvmlEventData_t*, unsigned)>("nvmlEventSetWait_v2");
  auto release = nvml.get<int (*)(nvmlEventSet_t)>("nvmlEventSetFree");
  const char* q = "nvmlDeviceRegisterEvents(XidCriticalError)";
  if (!create || !reg || !wait || !release) {
    for (auto& g : gpus) g.set("xid.watch", q, kNvmlMissingSymbol);
    return;
  }
  nvmlEventSet_t set = nullptr;
  if (int rc = create(&set); rc != 0) {
    for (auto& g : gpus) g.set("xid.watch", "nvmlEventSetCreate", rc);
    return;
  }
  bool any = false;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    int rc = reg(devs[i], kEventXidCriticalError, set);
    gpus[i].set("xid.watch", q, rc);
    any = any || rc == 0;
  }
  auto start = std::chrono::steady_clock::now();
  auto left = [&] {
    auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    return spent >= static_cast<long long>(ms) ? 0u : static_cast<unsigned>(ms - spent);
  };
  while (any && left() > 0) {
    nvmlEventData_t e{};
    int rc = wait(set, &e, left());
    if (rc == acceptance::kNvmlTimeout) break;
    if (rc != 0) {
      for (auto& g : gpus) g.set("xid.watch", "nvmlEventSetWait_v2", rc);
      break;
    }
    for (std::size_t i = 0; i < gpus.size(); ++i)
      if (devs[i] == e.device && (e.eventType & kEventXidCriticalError)) gpus[i].xids.push_back(e.eventData);
  }
  double watched = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (auto& g : gpus) g.xid_watch_s = watched;
  release(set);
}

}  // namespace

NvmlHealthScan scan_nvml_health(const char* cuda_visible_devices, unsigned xid_watch_ms) {
  NvmlHealthScan scan;
  Nvml nvml({"nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2"});
  if (!nvml.loaded()) {
    scan.skip_reason = "no NVML: " + nvml.load_error();
    return scan;
  }
  scan.library = nvml.path();
  if (!nvml.missing().empty()) {
    scan.skip_reason = nvml.why();
    return scan;
  }
  auto count_fn = nvml.get<int (*)(unsigned*)>("nvmlDeviceGetCount_v2");
  auto handle_fn = nvml.get<int (*)(unsigned, nvmlDevice_t*)>("nvmlDeviceGetHandleByIndex_v2");
  if (int rc = nvml.init_status(); rc != kernels::kNvmlSuccess) {
    auto err = nvml.get<const char* (*)(int)>("nvmlErrorString");
    scan.skip_reason = "nvmlInit_v2: " + acceptance::nvml_return_name(rc) + (err ? std::string(": ") + err(rc) : "");
    return scan;
  }
  char buf[96] = {0};
  if (auto drv = nvml.get<int (*)(char*, unsigned)>("nvmlSystemGetDriverVersion"); drv && drv(buf, sizeof buf) == 0)
    scan.driver_version = buf;
  unsigned count = 0;
  if (int rc = count_fn(&count); rc != 0) {
    scan.skip_reason = "nvmlDeviceGetCount_v2: " + acceptance::nvml_return_name(rc);
    return scan;
  }
  auto name_fn = nvml.get<int (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetName");
  auto uuid_fn = nvml.get<int (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetUUID");
  auto pci_fn = nvml.get<int (*)(nvmlDevice_t, nvmlPciInfo_t*)>("nvmlDeviceGetPciInfo_v3");
  // Number the GPUs as CUDA does (CUDA_VISIBLE_DEVICES applied), like the other GPU probes.
  std::vector<inventory::Gpu> all;
  std::vector<nvmlDevice_t> handles;
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    if (handle_fn(i, &dev) != 0) continue;
    inventory::Gpu g;
    g.index = g.nvml_index = static_cast<int>(i);
    char s[96] = {0};
    if (name_fn && name_fn(dev, s, sizeof s) == 0) g.name = s;
    if (uuid_fn && uuid_fn(dev, s, sizeof s) == 0) g.uuid = s;
    nvmlPciInfo_t pci{};
    if (pci_fn && pci_fn(dev, &pci) == 0) {
      g.pci_bus_id = pci.busId;
      g.pci_device_id = std::to_string(pci.pciDeviceId >> 16);  // upper 16 bits: the device id
    }
    all.push_back(g);
    handles.push_back(dev);
  }
  auto visible = cuda_visible_devices ? inventory::apply_visible_devices(all, cuda_visible_devices) : all;
  if (visible.empty()) {
    scan.skip_reason = count == 0 ? "NVML sees no GPU" : fmt::format("NVML sees {} GPU(s), none visible with CUDA_VISIBLE_DEVICES={}", count, cuda_visible_devices);
    return scan;
  }
  std::vector<nvmlDevice_t> devs;
  for (const auto& v : visible) {
    GpuHealth g;
    g.index = std::to_string(v.index);
    g.name = v.name;
    g.uuid = v.uuid;
    g.pci_bus_id = v.pci_bus_id;
    g.pci_device_id = v.pci_device_id.empty() ? 0 : static_cast<unsigned>(std::stoul(v.pci_device_id));
    g.uid = static_cast<unsigned>(geteuid());
    nvmlDevice_t dev = nullptr;
    for (std::size_t k = 0; k < all.size(); ++k)
      if (all[k].nvml_index == v.nvml_index) dev = handles[k];
    read_ecc(g, nvml, dev);
    read_retirement(g, nvml, dev);
    read_link_and_clocks(g, nvml, dev);
    read_board(g, nvml, dev);
    scan.gpus.push_back(std::move(g));
    devs.push_back(dev);
  }
  if (xid_watch_ms > 0) watch_xids(scan.gpus, devs, nvml, xid_watch_ms);
  return scan;  // ~NvmlLibrary calls nvmlShutdown
}

}  // namespace gpucheck::probe
