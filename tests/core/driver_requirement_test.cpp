// driver_requirement(): the driver a CUDA runtime needs, read from the knowledge base's table (not from
// numbers in the code), and what this machine has.
#include <gtest/gtest.h>

#include <string>

#include "core/driver_requirement.h"
#include "core/files.h"
#include "core/paths.h"

namespace {

std::string floor_in_table(const std::string& cuda) {
  const nlohmann::json doc = gpucheck::read_json_file(gpucheck::data_path("compat/driver.json"));  // kept alive
  for (const auto& row : doc.at("toolkit_min_driver"))
    if (row.at("cuda") == cuda) return row.at("min_driver");
  return "";
}

TEST(DriverRequirement, NamesTheTableFloorAndThatNoDriverIsLoaded) {
  std::string floor = floor_in_table("13.0");
  ASSERT_FALSE(floor.empty());
  EXPECT_EQ(gpucheck::driver_requirement(13000, 0),
            "CUDA 13.0 needs NVIDIA driver >= " + floor + "; no NVIDIA driver is loaded here (libcuda.so.1)");
}

TEST(DriverRequirement, NamesWhatTheOlderDriverSupports) {
  std::string floor = floor_in_table("12.4");
  ASSERT_FALSE(floor.empty());
  EXPECT_EQ(gpucheck::driver_requirement(12040, 12020),
            "CUDA 12.4 needs NVIDIA driver >= " + floor + "; the driver here supports only CUDA 12.2");
}

TEST(DriverRequirement, ARuntimeNotInTheTableGetsNoInventedNumber) {
  EXPECT_EQ(gpucheck::driver_requirement(99010, 13000),
            "CUDA 99.1 needs a newer NVIDIA driver; the driver here supports only CUDA 13.0");
}

}  // namespace
