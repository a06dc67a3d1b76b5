#include "hwmon/nvml_lite.h"

namespace gpucheck::kernels {

namespace {
constexpr int kClockSm = 1;          // NVML_CLOCK_SM
constexpr int kTemperatureGpu = 0;   // NVML_TEMPERATURE_GPU
}  // namespace

NvmlLite::NvmlLite() : lib_({"nvmlDeviceGetHandleByPciBusId_v2"}) {
  if (!lib_.ok()) return;
  by_bus_ = lib_.get<decltype(by_bus_)>("nvmlDeviceGetHandleByPciBusId_v2");
  clock_ = lib_.get<decltype(clock_)>("nvmlDeviceGetClockInfo");
  power_ = lib_.get<decltype(power_)>("nvmlDeviceGetPowerUsage");
  temp_ = lib_.get<decltype(temp_)>("nvmlDeviceGetTemperature");
  reasons_ = lib_.get<decltype(reasons_)>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasons_) reasons_ = lib_.get<decltype(reasons_)>("nvmlDeviceGetCurrentClocksThrottleReasons");  // before R535
  max_gen_ = lib_.get<decltype(max_gen_)>("nvmlDeviceGetMaxPcieLinkGeneration");
  max_width_ = lib_.get<decltype(max_width_)>("nvmlDeviceGetMaxPcieLinkWidth");
  cur_gen_ = lib_.get<decltype(cur_gen_)>("nvmlDeviceGetCurrPcieLinkGeneration");
  cur_width_ = lib_.get<decltype(cur_width_)>("nvmlDeviceGetCurrPcieLinkWidth");
}

void* NvmlLite::device_by_pci_bus_id(const std::string& bus_id) const {
  if (!ok()) return nullptr;
  void* dev = nullptr;
  return by_bus_(bus_id.c_str(), &dev) == kNvmlSuccess ? dev : nullptr;
}

NvmlSample NvmlLite::sample(void* device) const {
  NvmlSample s;
  if (!ok() || !device) return s;
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
  if (!ok() || !device) return l;
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
