// device.copy's and stress.gemm's host rules: median / CV / GB/s, throttling that persists vs one that
// clears. (The PCIe rate table and the peer rule are core's: tests/core/pcie_rates_test.cpp,
// tests/core/peer_outlier_test.cpp.)
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "common/device_identity.h"
#include "hwmon/nvml_lite.h"
#include "hwstats/measure_stats.h"
#include "hwstats/stress_rules.h"

using namespace gpucheck::kernels;

TEST(HwStats, SummarizeGivesMedianAndSampleCv) {
  RunStats s = summarize({10, 12, 11, 50, 9});
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.median, 11);  // the outlier run moves the mean, not the median
  EXPECT_DOUBLE_EQ(s.mean, 18.4);
  EXPECT_NEAR(s.stddev, 17.7002825, 1e-6);  // sample (n - 1) standard deviation
  EXPECT_NEAR(s.cv, 17.7002825 / 18.4, 1e-6);
  EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
  EXPECT_DOUBLE_EQ(summarize({7}).cv, 0);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(HwStats, GigabytesAreDecimal) {
  EXPECT_DOUBLE_EQ(gigabytes_per_s(256.0 * 1024 * 1024, 0.01), 26.8435456);
  EXPECT_THROW(gigabytes_per_s(1, 0), std::invalid_argument);
}

TEST(HwStats, ThrottleThatClearsIsNotPersistent) {
  const unsigned long long mask = 0x40 | 0x20 | 0x8 | 0x80;
  using R = std::vector<std::optional<unsigned long long>>;
  EXPECT_FALSE(throttle_persists(R{0x40, 0x40, 0x40, 0x4, 0x4, 0x4, 0x4, 0x4}, mask));  // cleared: power cap only
  EXPECT_TRUE(throttle_persists(R{0x4, 0x4, 0x4, 0x4, 0x4, 0x4, 0x40, 0x44}, mask));    // thermal to the end
  EXPECT_FALSE(throttle_persists(R{0x4, 0x4, 0x4, 0x4, 0x4, 0x4, 0x4, 0x40}, mask));   // one sample is not a trend
  EXPECT_FALSE(throttle_persists(R{std::nullopt, 0x40}, mask));                       // one reading: no verdict
  EXPECT_TRUE(throttle_persists(R{0x4, 0x8, std::nullopt, 0x8}, mask));
}

TEST(HwStats, GpuUuidIsFormattedAsNvmlWritesIt) {
  const unsigned char b[16] = {0x6b, 0x1a, 0x2c, 0x3d, 0x4e, 0x5f, 0x60, 0x71, 0x82, 0x93, 0xa4, 0xb5, 0xc6, 0xd7, 0xe8, 0xf9};
  EXPECT_EQ(gpucheck::kernels::format_gpu_uuid(b), "GPU-6b1a2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
}

TEST(HwStats, NvmlThatCannotLoadSaysWhy) {
  setenv("GPUCHECK_NVML", "/nonexistent/libnvidia-ml.so.1", 1);
  gpucheck::kernels::NvmlLite nvml;
  unsetenv("GPUCHECK_NVML");
  EXPECT_FALSE(nvml.ok());
  EXPECT_NE(nvml.why().find("/nonexistent/libnvidia-ml.so.1"), std::string::npos) << nvml.why();
  EXPECT_EQ(nvml.device_by_pci_bus_id("0000:3b:00.0"), nullptr);
  EXPECT_FALSE(nvml.sample(nullptr).sm_clock_mhz);
  EXPECT_EQ(gpucheck::kernels::describe_slowdown(0x4 | 0x40), "hw_thermal_slowdown");  // power cap is not one
}
