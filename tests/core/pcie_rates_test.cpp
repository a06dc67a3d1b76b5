// THE PCIe link-rate table (core/pcie_rates.h) as installed (data/links/pcie.json): every rate follows
// from its transfer rate and line code, and a table that does not, or has no source, is refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/errors.h"
#include "core/pcie_rates.h"

namespace gpucheck {
namespace {

TEST(PcieRates, PcieTableFromDataDerivesEveryRate) {
  PcieRates r = load_pcie_rates(std::string(GPUCHECK_SOURCE_DIR) + "/data/links/pcie.json");
  EXPECT_FALSE(r.source.empty());
  EXPECT_NEAR(*r.link_GBps(4, 16), 31.5077, 1e-3);  // the A100's link
  EXPECT_NEAR(*r.link_GBps(5, 16), 63.0154, 1e-3);  // H100 / H200
  EXPECT_DOUBLE_EQ(*r.link_GBps(3, 8), 0.9846153846 * 8);
  EXPECT_FALSE(r.link_GBps(9, 16));
  EXPECT_FALSE(r.link_GBps(4, 0));
}

TEST(PcieRates, PcieTableWithAWrongRateIsRefused) {
  std::string path = ::testing::TempDir() + "/pcie_bad.json";
  std::ofstream(path) << R"({"source": "test", "generations": [{"gen": 4, "gigatransfers_per_s": 16, "efficiency": 0.9846153846, "lane_GBps": 2.0}]})";
  try {
    load_pcie_rates(path);
    FAIL() << "accepted a lane rate that does not follow from its transfer rate";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("generation 4"), std::string::npos) << e.what();
  }
  std::ofstream(path) << "[1, 2]";
  EXPECT_THROW(load_pcie_rates(path), InputError);
  EXPECT_THROW(load_pcie_rates(path + ".absent"), InputError);
  std::remove(path.c_str());
}

TEST(PcieRates, ATableWithoutASourceIsRefused) {
  std::string path = ::testing::TempDir() + "/pcie_nosource.json";
  std::ofstream(path) << R"({"generations": [{"gen": 4, "gigatransfers_per_s": 16, "efficiency": 0.9846153846,
                              "lane_GBps": 1.9692307692}]})";
  try {
    load_pcie_rates(path);
    FAIL() << "accepted a rate table without a source";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has no source"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpucheck
