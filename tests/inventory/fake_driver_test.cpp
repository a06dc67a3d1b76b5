// The driver and NVML bindings end to end (`gpucheck env --json` in a child) against stand-in
// libcuda.so.1 / libnvidia-ml.so.1 put first on LD_LIBRARY_PATH: symbol names, struct layouts,
// CUDA_VISIBLE_DEVICES renumbering, and the JSON fields. A real GPU machine is still the final check.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

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

// Issue 15 item 6: a driver library whose constructor runs code and crashes. gpucheck never loads NVML or
// libcuda itself (gpucheck-gpuinfo does, in a child), so it survives, says why there are no GPUs, and the
// constructor ran in another process. Before: `abi` and `env` died with SIGSEGV.
TEST(InvFakeDriver, ACrashingDriverLibraryCostsOnlyTheHelper) {
  testing::TempDir t;
  std::string mark = t / "loaded-by";
  SubprocessOptions o;
  o.set_env["LD_LIBRARY_PATH"] = GPUCHECK_HOSTILE_DRIVER_DIR;
  o.set_env["GPUCHECK_HOSTILE_MARK"] = mark;
  o.set_env["GPUCHECK_ASK_DRIVER"] = "always";  // abi asks NVML only where a GPU is visible; none is here
  o.unset_env = {"CUDA_VISIBLE_DEVICES"};
  for (std::vector<std::string> argv : {std::vector<std::string>{testing::gpucheck_binary(), "abi", "--json", "/bin/true"},
                                        std::vector<std::string>{testing::gpucheck_binary(), "env", "--json", "--no-python", "--no-cache"}}) {
    auto r = run_subprocess(argv, o);
    ASSERT_TRUE(r.exited) << argv[1] << ": " << r.describe() << r.err;
    EXPECT_LE(r.exit_code, 1) << argv[1] << ": " << r.err;
    auto doc = nlohmann::json::parse(r.out)["inventory"];
    std::string notes = doc["notes"].dump();
    EXPECT_NE(notes.find("GPUs: gpucheck-gpuinfo killed by SIGSEGV"), std::string::npos) << argv[1] << ": " << notes;
    EXPECT_FALSE(doc["driver"]["error"].get<std::string>().empty()) << argv[1];
    EXPECT_EQ(doc["gpus"].size(), 0u);
  }
  // The planted constructors did run (so the test means something), each time in a helper process.
  std::ifstream in(mark);
  std::string pids((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_GE(std::count(pids.begin(), pids.end(), '\n'), 4) << pids;  // nvml + libcuda, for abi and for env
}

TEST(InvFakeDriver, AbiAsksTheHelperForGpusWithoutCollectingTheRest) {
  SubprocessOptions o;
  o.set_env["LD_LIBRARY_PATH"] = GPUCHECK_FAKE_DRIVER_DIR;
  o.set_env["GPUCHECK_ASK_DRIVER"] = "always";
  o.unset_env = {"CUDA_VISIBLE_DEVICES"};
  auto r = run_subprocess({testing::gpucheck_binary(), "abi", "--json", "/bin/true"}, o);
  ASSERT_TRUE(r.exited && r.exit_code <= 1) << r.describe() << r.err;
  auto doc = nlohmann::json::parse(r.out)["inventory"];
  ASSERT_EQ(doc["gpus"].size(), 2u);
  EXPECT_EQ(doc["gpus"][0]["cc_major"], 9);
  EXPECT_EQ(doc["driver"]["cuda_version"], 12040);
  EXPECT_TRUE(doc["toolkits"].empty());  // devices only: no toolkit or library scan for abi
  EXPECT_TRUE(doc["libraries"].empty());
}

}  // namespace
}  // namespace gpucheck::inventory
