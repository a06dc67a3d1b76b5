// The driver and NVML bindings end to end (`gpucheck env --json` in a child) against stand-in
// libcuda.so.1 / libnvidia-ml.so.1 put first on LD_LIBRARY_PATH: symbol names, struct layouts,
// CUDA_VISIBLE_DEVICES renumbering, and the JSON fields. A real GPU machine is still the final check.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

nlohmann::json env_with_fake_driver(const std::string& visible) {
  SubprocessOptions o;
  o.set_env["LD_LIBRARY_PATH"] = GPUCHECK_FAKE_DRIVER_DIR;
  if (visible.empty()) o.unset_env = {"CUDA_VISIBLE_DEVICES"};
  else o.set_env["CUDA_VISIBLE_DEVICES"] = visible;
  auto r = run_subprocess({testing::gpucheck_binary(), "env", "--json", "--no-python", "--no-cache"}, o);
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  return nlohmann::json::parse(r.out)["inventory"];
}

TEST(InvFakeDriver, DriverVersionFromLibcuda) {
  auto doc = env_with_fake_driver("");
  const auto& d = doc["driver"];
  EXPECT_TRUE(d["present"].get<bool>());
  EXPECT_EQ(d["cuda_version"], 12040);
  EXPECT_EQ(d["version"], "550.54.15");  // from the real file name behind libcuda.so.1
  EXPECT_EQ(d["library_path"], std::string(GPUCHECK_FAKE_DRIVER_DIR) + "/libcuda.so.1");
  EXPECT_EQ(d["source"], "libcuda.so.1 cuDriverGetVersion");
}

TEST(InvFakeDriver, AllGpusThroughNvml) {
  auto doc = env_with_fake_driver("");
  ASSERT_EQ(doc["gpus"].size(), 2u);
  const auto& g = doc["gpus"][0];
  EXPECT_EQ(g["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g["uuid"], "GPU-aaaaaaaa-0000-0000-0000-000000000000");
  EXPECT_EQ(g["pci_bus_id"], "00000000:18:00.0");
  EXPECT_EQ(g["pci_device_id"], "0x2330");
  EXPECT_EQ(g["cc_major"], 9);
  EXPECT_EQ(g["memory_total_bytes"], 85520809984ull);
  EXPECT_EQ(g["ecc_mode"], "enabled");
  EXPECT_EQ(g["persistence_mode"], "enabled");
  EXPECT_EQ(g["mig_mode"], "");  // NVML_ERROR_NOT_SUPPORTED leaves it empty
  EXPECT_EQ(g["sm_clock_max_mhz"], 1980);
  EXPECT_EQ(g["pcie_gen_current"], 5);
  EXPECT_EQ(doc["gpus"][1]["pcie_width_current"], 8);
}

TEST(InvFakeDriver, CudaVisibleDevicesRenumbers) {
  auto doc = env_with_fake_driver("GPU-bbbb,0");
  ASSERT_EQ(doc["gpus"].size(), 2u);
  EXPECT_EQ(doc["gpus"][0]["index"], 0);
  EXPECT_EQ(doc["gpus"][0]["nvml_index"], 1);
  EXPECT_EQ(doc["gpus"][1]["nvml_index"], 0);
  EXPECT_EQ(env_with_fake_driver("1")["gpus"].size(), 1u);
  EXPECT_EQ(env_with_fake_driver("5")["gpus"].size(), 0u);
}

}  // namespace
}  // namespace gpucheck::inventory
