// The one NVML binding (kernels/hwmon/nvml_library.h) against every stand-in libnvidia-ml.so.1 that
// device.health's tests build (fake_nvml/health_nvml.c): what loads, what is missing, and that the
// samplers of device.copy and stress.gemm (nvml_lite.h) read the same library's PCIe link, power,
// temperature and clocks-event reasons through it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "hwmon/nvml_library.h"
#include "hwmon/nvml_lite.h"

namespace gpucheck::kernels {
namespace {

// GPUCHECK_NVML names the stand-in for the objects made while this lives.
struct StandIn {
  std::string file;
  explicit StandIn(const std::string& scenario)
      : file(std::string(GPUCHECK_FAKE_NVML_ROOT) + "/" + scenario + "/libnvidia-ml.so.1") {
    setenv("GPUCHECK_NVML", file.c_str(), 1);
  }
  ~StandIn() { unsetenv("GPUCHECK_NVML"); }
};

TEST(NvmlBinding, EveryStandInLoadsAndAllButNotNvmlInitialise) {
  for (const char* scenario : {"healthy", "downgraded_link", "idle_link", "pending_remap", "uncorrectable_ecc",
                               "throttle", "missing_symbols", "no_permission", "not_supported",
                               "corrupted_inforom", "xid"}) {
    StandIn s(scenario);
    NvmlLibrary nvml({"nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2"});
    EXPECT_TRUE(nvml.ok()) << scenario << ": " << nvml.why();
    EXPECT_EQ(nvml.path(), s.file) << scenario;
    EXPECT_EQ(nvml.why(), "") << scenario;
    auto count = nvml.get<int (*)(unsigned*)>("nvmlDeviceGetCount_v2");
    ASSERT_NE(count, nullptr) << scenario;
    unsigned n = 0;
    EXPECT_EQ(count(&n), kNvmlSuccess);
    EXPECT_EQ(n, 2u) << scenario;
  }
}

TEST(NvmlBinding, ALibraryWithoutNvmlInitIsNamedNotCalled) {
  StandIn s("not_nvml");
  NvmlLibrary nvml({"nvmlDeviceGetCount_v2"});
  EXPECT_TRUE(nvml.loaded());
  EXPECT_FALSE(nvml.ok());
  EXPECT_EQ(nvml.init_status(), -1);
  ASSERT_EQ(nvml.missing().size(), 1u);
  EXPECT_EQ(nvml.missing()[0], "nvmlInit_v2");
  EXPECT_EQ(nvml.why(), s.file + " lacks nvmlInit_v2 (not a usable NVML)");
  NvmlLite lite;
  EXPECT_FALSE(lite.ok());
  EXPECT_EQ(lite.device_by_pci_bus_id("0000:18:00.0"), nullptr);
}

TEST(NvmlBinding, NoLibraryGivesDlopensMessage) {
  setenv("GPUCHECK_NVML", "/nonexistent/libnvidia-ml.so.1", 1);
  NvmlLibrary nvml;
  unsetenv("GPUCHECK_NVML");
  EXPECT_FALSE(nvml.loaded());
  EXPECT_FALSE(nvml.ok());
  EXPECT_NE(nvml.load_error().find("/nonexistent/libnvidia-ml.so.1"), std::string::npos) << nvml.load_error();
  EXPECT_EQ(nvml.why(), nvml.load_error());
  EXPECT_EQ(nvml.get<int (*)()>("nvmlInit_v2"), nullptr);
}

TEST(NvmlBinding, SamplersReadTheLinkPowerAndTemperatureOfTheGpuByBusId) {
  StandIn s("downgraded_link");
  NvmlLite lite;
  ASSERT_TRUE(lite.ok()) << lite.why();
  void* gpu0 = lite.device_by_pci_bus_id("0000:18:00.0");  // cudaDeviceGetPCIBusId's form
  void* gpu1 = lite.device_by_pci_bus_id("00000000:1B:00.0");
  ASSERT_NE(gpu0, nullptr);
  ASSERT_NE(gpu1, nullptr);
  EXPECT_EQ(lite.device_by_pci_bus_id("0000:99:00.0"), nullptr);
  PcieLink l0 = lite.pcie(gpu0), l1 = lite.pcie(gpu1);
  EXPECT_EQ(l0.max_gen, 5u);
  EXPECT_EQ(l0.max_width, 16u);
  EXPECT_EQ(l0.current_gen, 3u);  // the stand-in's downgraded generation on GPU 0
  EXPECT_EQ(l1.current_width, 8u);  // and width on GPU 1
  NvmlSample s0 = lite.sample(gpu0);
  EXPECT_EQ(s0.power_mw, 118250u);
  EXPECT_EQ(s0.temperature_c, 39u);
  EXPECT_FALSE(s0.sm_clock_mhz.has_value());  // the stand-in has no nvmlDeviceGetClockInfo
  EXPECT_EQ(s0.clocks_event_reasons, 0u);
}

TEST(NvmlBinding, ClocksEventReasonsFallBackToThePreR535Name) {
  {
    StandIn s("throttle");
    NvmlLite lite;
    ASSERT_TRUE(lite.ok()) << lite.why();
    NvmlSample t = lite.sample(lite.device_by_pci_bus_id("0000:18:00.0"));
    EXPECT_EQ(t.clocks_event_reasons, 0x44u);
    EXPECT_EQ(describe_slowdown(*t.clocks_event_reasons), "hw_thermal_slowdown");
  }
  StandIn s("missing_symbols");  // only nvmlDeviceGetCurrentClocksThrottleReasons
  NvmlLite lite;
  ASSERT_TRUE(lite.ok()) << lite.why();
  EXPECT_EQ(lite.sample(lite.device_by_pci_bus_id("0000:18:00.0")).clocks_event_reasons, 0u);
}

}  // namespace
}  // namespace gpucheck::kernels
