// device.health's rules as pure functions (checks/acceptance/gpu_health.h, nvml_codes.h): every rule on
// hand-made readings, including those the stand-in libraries do not reach.
#include <gtest/gtest.h>

#include "checks/acceptance/gpu_health.h"
#include "checks/acceptance/nvml_codes.h"

namespace gpucheck::acceptance {
namespace {

GpuHealth healthy() {
  GpuHealth g;
  g.index = "0";
  g.uid = 1000;
  g.set("ecc.volatile.uncorrected", "nvmlDeviceGetTotalEccErrors(UNCORRECTED, VOLATILE_ECC)", 0, 0);
  g.set("ecc.aggregate.uncorrected", "nvmlDeviceGetTotalEccErrors(UNCORRECTED, AGGREGATE_ECC)", 0, 0);
  g.set("pcie.gen.current", "nvmlDeviceGetCurrPcieLinkGeneration", 0, 4);
  g.set("pcie.gen.max", "nvmlDeviceGetMaxPcieLinkGeneration", 0, 4);
  g.set("pcie.gen.gpu_max", "nvmlDeviceGetGpuMaxPcieLinkGeneration", 0, 4);
  g.set("pcie.width.current", "nvmlDeviceGetCurrPcieLinkWidth", 0, 16);
  g.set("pcie.width.max", "nvmlDeviceGetMaxPcieLinkWidth", 0, 16);
  g.set("clocks.event_reasons", "nvmlDeviceGetCurrentClocksEventReasons", 0, 0);
  g.set("inforom", "nvmlDeviceValidateInforom", 0);
  return g;
}

TEST(NvmlCodes, NamesReturnCodes) {
  EXPECT_EQ(nvml_return_name(4), "NVML_ERROR_NO_PERMISSION (4)");
  EXPECT_EQ(nvml_return_name(29), "NVML_ERROR_INVALID_STATE (29)");
  EXPECT_EQ(nvml_return_name(999), "NVML_ERROR_UNKNOWN (999)");
  EXPECT_EQ(nvml_return_name(123), "NVML return code 123");
  EXPECT_EQ(nvml_return_name(kNvmlMissingSymbol), "missing symbol");
}

TEST(NvmlCodes, DecodesClockEventReasonsByName) {
  EXPECT_TRUE(decode_clock_event_reasons(0).empty());
  auto all = decode_clock_event_reasons(0x1ff);
  ASSERT_EQ(all.size(), 9u);
  EXPECT_EQ(all.front(), "GpuIdle");
  EXPECT_EQ(all.back(), "DisplayClockSetting");
  auto odd = decode_clock_event_reasons(0x8 | (1ull << 40));
  ASSERT_EQ(odd.size(), 2u);
  EXPECT_EQ(odd[0], "HwSlowdown");
  EXPECT_EQ(odd[1], "0x10000000000");
  // Idle, applications clocks, sync boost and display clocks are not throttling.
  EXPECT_TRUE(throttle_reasons(0x1 | 0x2 | 0x10 | 0x100).empty());
  auto t = throttle_reasons(0x4 | 0x8 | 0x20 | 0x40 | 0x80);
  EXPECT_EQ(t, (std::vector<std::string>{"SwPowerCap", "HwSlowdown", "SwThermalSlowdown", "HwThermalSlowdown",
                                         "HwPowerBrakeSlowdown"}));
}

TEST(HealthRules, HealthyPasses) {
  auto d = judge_gpu_health(healthy());
  EXPECT_EQ(d.status, Status::kPass);
  EXPECT_EQ(d.summary, "healthy: 0 uncorrected ECC, PCIe gen 4 x16");
}

TEST(HealthRules, LifetimeUncorrectedErrorsOnlyWarn) {
  auto g = healthy();
  g.set("ecc.aggregate.uncorrected", "q", 0, 7);
  auto d = judge_gpu_health(g);
  EXPECT_EQ(d.status, Status::kWarn);
  EXPECT_EQ(d.summary, "7 uncorrected ECC error(s) in the GPU's lifetime (none since the driver loaded)");
  g.set("ecc.volatile.uncorrected", "q", 0, 1);
  EXPECT_EQ(judge_gpu_health(g).status, Status::kFail);
}

TEST(HealthRules, PendingPageRetirementFails) {
  auto g = healthy();
  g.set("retired.pending", "nvmlDeviceGetRetiredPagesPendingStatus", 0, 1);
  auto d = judge_gpu_health(g);
  EXPECT_EQ(d.status, Status::kFail);
  EXPECT_EQ(d.summary, "pages are pending retirement (a GPU reset retires them)");
}

TEST(HealthRules, LinkGenerationNeedsToKnowWhetherTheGpuIsIdle) {
  auto g = healthy();
  g.set("pcie.gen.current", "nvmlDeviceGetCurrPcieLinkGeneration", 0, 2);
  EXPECT_EQ(judge_gpu_health(g).status, Status::kFail);  // busy (no GpuIdle bit): trained down
  g.set("clocks.event_reasons", "nvmlDeviceGetCurrentClocksEventReasons", 0, kClocksEventGpuIdle);
  EXPECT_EQ(judge_gpu_health(g).status, Status::kInfo);  // idle: a power state
  g.set("clocks.event_reasons", "nvmlDeviceGetCurrentClocksEventReasons", kNvmlNotSupported);
  auto d = judge_gpu_health(g);
  EXPECT_EQ(d.status, Status::kWarn);
  EXPECT_EQ(d.summary, "PCIe link gen 2 of gen 4; whether the GPU is idle is unknown (no clocks event reasons)");
}

TEST(HealthRules, SlotBelowTheGpusGenerationWarns) {
  auto g = healthy();
  g.set("pcie.gen.gpu_max", "nvmlDeviceGetGpuMaxPcieLinkGeneration", 0, 5);
  auto d = judge_gpu_health(g);
  EXPECT_EQ(d.status, Status::kWarn);
  EXPECT_EQ(d.summary, "the slot limits the link to gen 4 (the GPU supports gen 5)");
}

TEST(HealthRules, LostGpuFailsAndUnknownErrorsWarn) {
  auto g = healthy();
  g.set("temperature.gpu_c", "nvmlDeviceGetTemperature(GPU)", kNvmlGpuIsLost);
  g.set("power.usage_mw", "nvmlDeviceGetPowerUsage", kNvmlGpuIsLost);
  auto lost = judge_gpu_health(g);
  EXPECT_EQ(lost.status, Status::kFail);
  EXPECT_EQ(lost.summary, "the GPU has fallen off the bus or is inaccessible (nvmlDeviceGetTemperature(GPU): "
                          "NVML_ERROR_GPU_IS_LOST)");
  auto h = healthy();
  h.set("power.usage_mw", "nvmlDeviceGetPowerUsage", 999);
  auto d = judge_gpu_health(h);
  EXPECT_EQ(d.status, Status::kWarn);
  EXPECT_EQ(d.summary, "nvmlDeviceGetPowerUsage failed: NVML_ERROR_UNKNOWN (999)");
}

TEST(HealthRules, JudgeHealthCombinesGpusAndOffersFixes) {
  auto a = healthy();
  auto b = healthy();
  b.index = "1";
  b.set("remap.pending", "nvmlDeviceGetRemappedRows", 0, 1);
  b.set("persistence", "nvmlDeviceGetPersistenceMode", 0, 0);
  Finding f;
  judge_health({a, b}, f);
  EXPECT_EQ(f.status, Status::kFail);
  ASSERT_EQ(f.devices.size(), 2u);
  EXPECT_EQ(f.summary, "1 of 2 GPU(s) need attention: GPU 1: row remapping pending (a GPU reset applies it)");
  ASSERT_EQ(f.fixes.size(), 2u);
  EXPECT_EQ(f.fixes[0].commands, std::vector<std::string>{"nvidia-smi -r -i 1"});
  EXPECT_EQ(f.fixes[1].commands, std::vector<std::string>{"nvidia-smi -pm 1"});
}

}  // namespace
}  // namespace gpucheck::acceptance
