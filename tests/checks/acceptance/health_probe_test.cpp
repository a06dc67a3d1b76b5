// device.health end to end: the probe executable against a stand-in libnvidia-ml.so.1 per scenario
// (fake_nvml/health_nvml.c) put first on LD_LIBRARY_PATH, its JSON result parsed and its verdict asserted.
// Proves the dlopen binding (symbol names, argument order, struct layouts) and the rules together.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"

namespace gpucheck::acceptance {
namespace {

nlohmann::json run_health(const std::string& scenario, const std::string& visible = "",
                          const std::string& level = "standard") {
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);  // generous: the machine may be loaded
  if (!scenario.empty()) o.set_env["LD_LIBRARY_PATH"] = std::string(GPUCHECK_FAKE_NVML_ROOT) + "/" + scenario;
  else o.set_env["LD_LIBRARY_PATH"] = "/nonexistent";
  if (visible.empty()) o.unset_env = {"CUDA_VISIBLE_DEVICES"};
  else o.set_env["CUDA_VISIBLE_DEVICES"] = visible;
  o.unset_env.push_back("GPUCHECK_NVML");  // it would override LD_LIBRARY_PATH's stand-in
  auto r = run_subprocess({std::string(GPUCHECK_STAGE_PROBES) + "/device.health", "--level", level, "--json"}, o);
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  return nlohmann::json::parse(r.out);
}

std::string evidence(const nlohmann::json& device, const std::string& what) {
  for (const auto& e : device["evidence"])
    if (e["what"] == what) return e["value"].get<std::string>();
  return "<none>";
}

const nlohmann::json& device(const nlohmann::json& f, std::size_t i) { return f["devices"].at(i); }

TEST(HealthProbe, HealthyGpusPass) {
  auto f = run_health("healthy");
  EXPECT_EQ(f["id"], "device.health");
  EXPECT_EQ(f["status"], "pass") << f.dump(1);
  ASSERT_EQ(f["devices"].size(), 2u);
  const auto& d = device(f, 0);
  EXPECT_EQ(d["device"], "0");
  EXPECT_EQ(d["status"], "pass");
  EXPECT_EQ(evidence(d, "uuid"), "GPU-aaaaaaaa-0000-0000-0000-000000000000");
  EXPECT_EQ(evidence(d, "pci_device_id"), "0x2330");
  EXPECT_EQ(evidence(d, "ecc.volatile.corrected"), "3");
  EXPECT_EQ(evidence(d, "ecc.volatile.uncorrected"), "0");
  EXPECT_EQ(evidence(d, "remap.pending"), "no");
  EXPECT_EQ(evidence(d, "inforom"), "valid (checksums verified)");
  EXPECT_EQ(evidence(d, "clocks.event_reasons"), "none (clocks as high as possible)");
  EXPECT_EQ(evidence(d, "power.usage_mw"), "118.2 W");
  EXPECT_EQ(evidence(d, "temperature.gpu_c"), "39 C");
  EXPECT_EQ(d["summary"], "healthy: 0 uncorrected ECC, PCIe gen 5 x16, 39 C, 118 W");
}

TEST(HealthProbe, DowngradedLinkFails) {
  auto f = run_health("downgraded_link");
  EXPECT_EQ(f["status"], "fail");
  EXPECT_EQ(device(f, 0)["status"], "fail");
  EXPECT_EQ(device(f, 0)["summary"], "PCIe link gen 3 of gen 5 while the GPU is not idle: the link trained down");
  EXPECT_EQ(device(f, 1)["summary"], "PCIe link x8 of x16: trained down to fewer lanes");
}

TEST(HealthProbe, AnIdleLinkAtALowerGenerationIsNotJudged) {
  auto f = run_health("idle_link");
  EXPECT_EQ(f["status"], "info") << f.dump(1);
  EXPECT_NE(device(f, 0)["summary"].get<std::string>().find("PCIe link gen 1 of gen 5 while the GPU is idle"),
            std::string::npos);
}

TEST(HealthProbe, PendingAndFailedRemapsFail) {
  auto f = run_health("pending_remap");
  EXPECT_EQ(f["status"], "fail");
  EXPECT_EQ(device(f, 0)["summary"], "row remapping pending (a GPU reset applies it)");
  EXPECT_EQ(device(f, 1)["summary"], "a row remapping failed: the GPU has no spare row left in a bank");
  ASSERT_FALSE(f["fixes"].empty());
  EXPECT_EQ(f["fixes"][0]["commands"][0], "nvidia-smi -r -i 0");
}

TEST(HealthProbe, UncorrectableEccFails) {
  auto f = run_health("uncorrectable_ecc");
  EXPECT_EQ(f["status"], "fail");
  EXPECT_EQ(device(f, 0)["status"], "pass");
  EXPECT_EQ(device(f, 1)["summary"], "2 uncorrected ECC error(s) since the driver loaded");
  EXPECT_EQ(evidence(device(f, 1), "ecc.aggregate.uncorrected"), "5");
}

TEST(HealthProbe, ThrottlingWarnsByName) {
  auto f = run_health("throttle");
  EXPECT_EQ(f["status"], "warn");
  EXPECT_EQ(device(f, 0)["summary"], "throttling: SwPowerCap, HwThermalSlowdown");
  EXPECT_EQ(evidence(device(f, 0), "clocks.event_reasons"), "SwPowerCap, HwThermalSlowdown");
  EXPECT_EQ(device(f, 1)["status"], "pass");
}

TEST(HealthProbe, MissingSymbolsAreInfoAndTheOldThrottleNameIsUsed) {
  auto f = run_health("missing_symbols");
  EXPECT_EQ(f["status"], "pass") << f.dump(1);
  const auto& d = device(f, 0);
  EXPECT_EQ(evidence(d, "remap.pending"), "not read: this libnvidia-ml.so.1 has no nvmlDeviceGetRemappedRows");
  EXPECT_EQ(evidence(d, "inforom"), "not read: this libnvidia-ml.so.1 has no nvmlDeviceValidateInforom");
  for (const auto& e : d["evidence"]) {
    if (e["what"] == "clocks.event_reasons") {
      EXPECT_EQ(e["source"], "nvmlDeviceGetCurrentClocksThrottleReasons");
    }
  }
}

TEST(HealthProbe, PermissionErrorsNameTheQuery) {
  auto f = run_health("no_permission");
  EXPECT_EQ(f["status"], "warn");
  std::string s = device(f, 0)["summary"];
  EXPECT_NE(s.find("nvmlDeviceGetTotalEccErrors(UNCORRECTED, VOLATILE_ECC) needs more privilege than uid"),
            std::string::npos) << s;
  EXPECT_NE(s.find("(NVML_ERROR_NO_PERMISSION)"), std::string::npos);
  EXPECT_EQ(evidence(device(f, 0), "ecc.aggregate.corrected"), "refused: NVML_ERROR_NO_PERMISSION");
}

TEST(HealthProbe, NotSupportedIsNotAFailure) {
  auto f = run_health("not_supported");
  EXPECT_EQ(f["status"], "pass") << f.dump(1);
  EXPECT_EQ(evidence(device(f, 0), "ecc.mode"), "not supported on this GPU (NVML_ERROR_NOT_SUPPORTED)");
}

TEST(HealthProbe, CorruptedInforomFails) {
  auto f = run_health("corrupted_inforom");
  EXPECT_EQ(f["status"], "fail");
  EXPECT_EQ(device(f, 1)["summary"], "infoROM corrupted (nvmlDeviceValidateInforom returned NVML_ERROR_CORRUPTED_INFOROM)");
}

TEST(HealthProbe, XidEventsWhileWatchingWarn) {
  auto f = run_health("xid");
  EXPECT_EQ(f["status"], "warn");
  EXPECT_NE(device(f, 1)["summary"].get<std::string>().find("XID 79 reported while the probe watched"), std::string::npos);
  // At level quick the probe does not watch for XIDs at all.
  EXPECT_EQ(run_health("xid", "", "quick")["status"], "pass");
}

TEST(HealthProbe, CudaVisibleDevicesNumbersLikeCuda) {
  auto f = run_health("uncorrectable_ecc", "1");
  ASSERT_EQ(f["devices"].size(), 1u);
  EXPECT_EQ(device(f, 0)["device"], "0");
  EXPECT_EQ(evidence(device(f, 0), "uuid"), "GPU-bbbbbbbb-0000-0000-0000-000000000001");
  EXPECT_EQ(f["status"], "fail");
}

TEST(HealthProbe, SkipsWithTheReasonWithoutNvml) {
  auto f = run_health("");
  EXPECT_EQ(f["status"], "skip");
  EXPECT_EQ(f["summary"], "no NVML: libnvidia-ml.so.1: cannot open shared object file: No such file or directory");
  auto g = run_health("not_nvml");
  EXPECT_EQ(g["status"], "skip");
  EXPECT_NE(g["summary"].get<std::string>().find("libnvidia-ml.so.1 lacks nvmlInit_v2 (not a usable NVML)"), std::string::npos)
      << g["summary"];
}

}  // namespace
}  // namespace gpucheck::acceptance
