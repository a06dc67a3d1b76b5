#include "hwmon/nvml_lite.h"

#include <dlfcn.h>

#include <cstdlib>

namespace gpucheck::kernels {

namespace {
template <typename F>
bool bind(void* h, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(h, name));
  return fn != nullptr;
}
template <typename F>
void bind_optional(void* h, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(h, name));
}
constexpr int kNvmlSuccess = 0;
constexpr int kClockSm = 1;          // NVML_CLOCK_SM
constexpr int kTemperatureGpu = 0;   // NVML_TEMPERATURE_GPU
}  // namespace

NvmlLite::NvmlLite() {
  const char* env = std::getenv("GPUCHECK_NVML");
  std::string name = env && *env ? env : "libnvidia-ml.so.1";
  lib_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    const char* e = dlerror();
    why_ = e ? e : name + ": not loadable";
    return;
  }
  if (!bind(lib_, "nvmlInit_v2", init_) || !bind(lib_, "nvmlShutdown", shutdown_) ||
      !bind(lib_, "nvmlDeviceGetHandleByPciBusId_v2", by_bus_)) {
    why_ = name + ": missing nvmlInit_v2/nvmlShutdown/nvmlDeviceGetHandleByPciBusId_v2";
    return;
  }
  bind_optional(lib_, "nvmlDeviceGetClockInfo", clock_);
  bind_optional(lib_, "nvmlDeviceGetPowerUsage", power_);
  bind_optional(lib_, "nvmlDeviceGetTemperature", temp_);
  bind_optional(lib_, "nvmlDeviceGetCurrentClocksEventReasons", reasons_);
  if (!reasons_) bind_optional(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons", reasons_);  // before R535
  bind_optional(lib_, "nvmlDeviceGetMaxPcieLinkGeneration", max_gen_);
  bind_optional(lib_, "nvmlDeviceGetMaxPcieLinkWidth", max_width_);
  bind_optional(lib_, "nvmlDeviceGetCurrPcieLinkGeneration", cur_gen_);
  bind_optional(lib_, "nvmlDeviceGetCurrPcieLinkWidth", cur_width_);
  int rc = init_();
  if (rc != kNvmlSuccess) {
    why_ = "nvmlInit_v2 returned " + std::to_string(rc);
    return;
  }
  ok_ = true;
}

NvmlLite::~NvmlLite() {
  if (ok_) shutdown_();
  // The library stays mapped: NVML's own threads may outlive shutdown briefly.
}

void* NvmlLite::device_by_pci_bus_id(const std::string& bus_id) const {
  if (!ok_) return nullptr;
  void* dev = nullptr;
  return by_bus_(bus_id.c_str(), &dev) == kNvmlSuccess ? dev : nullptr;
}

NvmlSample NvmlLite::sample(void* device) const {
  NvmlSample s;
  if (!ok_ || !device) return s;
  unsigned v = 0;
  if (clock_ && clock_(device, kClockSm, &v) == kNvmlSuccess) s.sm_clock_mhz = v;
  if (power_ && power_(device, &v) == kNvmlSuccess) s.power_mw = v;
  if (temp_ && temp_(device, kTemperatureGpu, &v) == kNvmlSuccess) s.temperature_c = v;
  unsigned long long r = 0;
  if (reasons_ && reasons_(device, &r) == kNvmlSuccess) s.clocks_event_reasons = r;
  return s;
}

PcieLink NvmlLite::pcie(void* device) const {
  PcieLink l;
  if (!ok_ || !device) return l;
  unsigned v = 0;
  if (max_gen_ && max_gen_(device, &v) == kNvmlSuccess) l.max_gen = v;
  if (max_width_ && max_width_(device, &v) == kNvmlSuccess) l.max_width = v;
  if (cur_gen_ && cur_gen_(device, &v) == kNvmlSuccess) l.current_gen = v;
  if (cur_width_ && cur_width_(device, &v) == kNvmlSuccess) l.current_width = v;
  return l;
}

std::string describe_slowdown(unsigned long long reasons) {
  std::string s;
  auto add = [&](unsigned long long bit, const char* name) {
    if (reasons & bit) s += (s.empty() ? "" : ", ") + std::string(name);
  };
  add(kClocksEventHwSlowdown, "hw_slowdown");
  add(kClocksEventSwThermal, "sw_thermal_slowdown");
  add(kClocksEventHwThermal, "hw_thermal_slowdown");
  add(kClocksEventHwPowerBrake, "hw_power_brake_slowdown");
  return s;
}

}  // namespace gpucheck::kernels
