// The one definition of device.copy's and cublas.gemm's details (core/measurement_details.h): the JSON the
// probes write, key for key, what the charts read back from it, and details of any other shape read as
// nothing rather than thrown on (a report file is input from anywhere).
#include <gtest/gtest.h>

#include "core/measurement_details.h"

namespace gpucheck::measured {
namespace {

TEST(MeasurementDetails, CopyDetailsAreTheProbesShapeAndReadBack) {
  CopyDirection h2d{"h2d_pinned", 50.0, 0.01, 49.0, 51.0, 10, 0, 62.5};
  CopyDirection d2d{"d2d", 1500.0, 0.002, 1490.0, 1505.0, 10, 7, std::nullopt};
  nlohmann::json pairs = nlohmann::json::array({{{"src", 0}, {"dst", 1}, {"peer_access", false}}});
  nlohmann::json j = copy_details({{"0", {h2d, d2d}}}, pairs, 256u << 20, 10);
  EXPECT_EQ(j["devices"]["0"]["h2d_pinned"],
            (nlohmann::json{{"median_GBps", 50.0}, {"cv", 0.01}, {"min_GBps", 49.0}, {"max_GBps", 51.0}, {"runs", 10},
                            {"wrong_words", 0}, {"link_GBps", 62.5}, {"link_ratio", 0.8}}));
  EXPECT_FALSE(j["devices"]["0"]["d2d"].contains("link_GBps"));
  EXPECT_EQ(j["p2p"], pairs);
  EXPECT_EQ(j["bytes_per_copy"], 256u << 20);
  EXPECT_EQ(j["runs"], 10);
  EXPECT_EQ(j["gigabyte_bytes"], 1000000000);
  auto back = read_copy_details(j);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].device, "0");
  ASSERT_EQ(back[0].directions.size(), 2u);
  EXPECT_EQ(back[0].directions[0].direction, "d2d");  // JSON objects read back in key order
  EXPECT_EQ(back[0].directions[0].wrong_words, 7u);
  EXPECT_FALSE(back[0].directions[0].link_GBps);
  EXPECT_EQ(back[0].directions[1].link_GBps, 62.5);
  EXPECT_EQ(back[0].directions[1].median_GBps, 50.0);
}

TEST(MeasurementDetails, GemmDetailsAreTheProbesShapeAndReadBack) {
  GemmTypeResult ran{"fp16", {{"wrong", 0}}, {{"wrong", 0}}, {{4096, 480.0}, {8192, 590.0}}};
  GemmTypeResult timed_none{"tf32", {{"wrong", 0}}, {{"wrong", 0}}, {}};
  GemmTypeResult not_run{"fp8", nullptr, nullptr, {}};
  nlohmann::json j = gemm_details({{"0", {ran, timed_none, not_run}}}, {256, 256, 512}, {4096, 8192}, 5);
  const auto& types = j["devices"]["0"];
  ASSERT_EQ(types.size(), 3u);
  EXPECT_EQ(types[0]["throughput"], nlohmann::json::parse(R"([{"n":4096,"tflops_median":480.0},{"n":8192,"tflops_median":590.0}])"));
  EXPECT_EQ(types[1]["throughput"], nlohmann::json::array());  // checked, but no size could be timed
  EXPECT_EQ(types[2], (nlohmann::json{{"type", "fp8"}}));       // not run: the type alone
  EXPECT_EQ(j["sizes"], nlohmann::json::array({4096, 8192}));
  EXPECT_EQ(j["repetitions"], 5);
  auto back = read_gemm_details(j);
  ASSERT_EQ(back.size(), 1u);
  ASSERT_EQ(back[0].types.size(), 3u);
  EXPECT_EQ(back[0].types[0].throughput.size(), 2u);
  EXPECT_EQ(back[0].types[0].throughput[1].n, 8192);
  EXPECT_EQ(back[0].types[0].throughput[1].tflops_median, 590.0);
  EXPECT_TRUE(back[0].types[2].exact.is_null());
}

TEST(MeasurementDetails, OtherShapesReadAsNothing) {
  for (const char* text : {"null", "[]", R"({"devices": 3})", R"({"devices": {"0": 5}})",
                           R"({"devices": {"0": {"h2d_pinned": {"median_GBps": "fast"}}}})",
                           R"({"rows": [{"bytes": 1024, "gbps": 3}]})"}) {
    auto j = nlohmann::json::parse(text);
    EXPECT_TRUE(read_copy_details(j).empty()) << text;
  }
  auto g = read_gemm_details(nlohmann::json::parse(R"({"devices": {"0": [5, {"type": 3}, {"type": "fp16",
                                                        "throughput": [{"n": "big"}, 7]}]}})"));
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(g[0].types.size(), 1u);
  EXPECT_TRUE(g[0].types[0].throughput.empty());
}

}  // namespace
}  // namespace gpucheck::measured
