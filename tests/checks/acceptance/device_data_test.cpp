// data/devices/: every product file validates against product.schema.json (scripts/validate-json, real
// JSON Schema), every figure has an https source, tensor figures are dense, PCI ids are unique; and the
// references the contract derives from them.
#include <gtest/gtest.h>

#include <filesystem>

#include "checks/acceptance/device_catalog.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/subprocess.h"

namespace gpucheck::acceptance {
namespace {

const std::string kDevices = std::string(GPUCHECK_SOURCE_DIR) + "/data/devices";
const std::string kPcie = std::string(GPUCHECK_SOURCE_DIR) + "/data/links/pcie.json";

std::vector<std::string> product_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kDevices)) {
    std::string n = e.path().filename().string();
    if (n.size() > 5 && n.substr(n.size() - 5) == ".json" && n.find(".schema.") == std::string::npos) out.push_back(e.path());
  }
  return out;
}

TEST(DeviceData, EveryFileValidatesAgainstTheSchema) {
  auto files = product_files();
  ASSERT_GE(files.size(), 11u);
  std::vector<std::string> argv = {std::string(GPUCHECK_SOURCE_DIR) + "/scripts/validate-json", kDevices + "/product.schema.json"};
  argv.insert(argv.end(), files.begin(), files.end());
  auto r = run_subprocess(argv);
  EXPECT_TRUE(r.ok()) << r.describe() << r.out << r.err;
}

TEST(DeviceData, EveryFigureHasASourceAndTheRequiredProductsAreThere) {
  for (const auto& f : product_files()) {
    auto j = read_json_file(f);
    for (const auto& [name, fig] : j["figures"].items()) {
      ASSERT_TRUE(fig.contains("source")) << f << " " << name;
      EXPECT_EQ(fig["source"].get<std::string>().rfind("https://", 0), 0u) << f << " " << name;
    }
  }
  auto c = load_device_catalog(kDevices, kPcie);
  // A100 40/80 GB SXM and PCIe, H100 SXM/PCIe, H200, L40S, A10, RTX 4090, V100 (pci.ids names).
  for (unsigned id : {0x20b0u, 0x20b2u, 0x20b1u, 0x20f1u, 0x20b5u, 0x2330u, 0x2331u, 0x2335u, 0x26b9u, 0x2236u, 0x2684u, 0x1db1u})
    EXPECT_NE(c.find(id), nullptr) << std::hex << id;
  EXPECT_EQ(c.find(0x2330)->product, "NVIDIA H100 SXM5 80GB");
  EXPECT_NEAR(*c.pcie.link_GBps(4, 16), 31.5, 0.01);  // the one table (data/links/pcie.json), x16 gen 4
}

TEST(DeviceData, TheLoaderRefusesFiguresWithoutSourceOrSparseTensorPeaks) {
  auto err = [](const char* text) {
    try {
      parse_product(nlohmann::json::parse(text), "x.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(err(R"({"product":"P","pci_id_source":"https://x","pci_device_ids":["0x1234"],
                    "figures":{"tflops_fp32":{"value":1}}})"),
            "x.json: figures.tflops_fp32 has no source (an https:// URL)");
  EXPECT_EQ(err(R"({"product":"P","pci_id_source":"https://x","pci_device_ids":["0x1234"],
                    "figures":{"tflops_fp16":{"value":1,"source":"https://y"}}})"),
            "x.json: figures.tflops_fp16 is not marked dense (the figure without structured sparsity)");
  EXPECT_EQ(err(R"({"product":"P","pci_id_source":"https://x","pci_device_ids":["2330"],"figures":{}})"),
            "x.json: pci_device_ids: '\"2330\"' is not 0x followed by 4 lower-case hex digits");
}

TEST(DeviceData, ReferencesFollowTheContract) {
  auto c = load_device_catalog(kDevices, kPcie);
  const Product& h100 = *c.find(0x2330);
  EXPECT_NEAR(reference_for("h2d_pinned_GBps", h100, c)->value, 63.0154, 1e-3);  // gen 5 x16
  EXPECT_EQ(reference_for("d2d_GBps", h100, c)->value, 1675);
  EXPECT_EQ(reference_for("tflops_fp8", h100, c)->value, 1978.9);
  EXPECT_EQ(reference_for("tflops_sustained", h100, c, "bf16")->value, 989.4);
  EXPECT_FALSE(reference_for("tflops_sustained", h100, c));
  EXPECT_FALSE(reference_for("p2p_GBps", h100, c));
  EXPECT_FALSE(reference_for("h2d_pageable_GBps", h100, c));
  EXPECT_FALSE(reference_for("tflops_fp8", *c.find(0x20b2), c));  // the A100 has no fp8
}

}  // namespace
}  // namespace gpucheck::acceptance
