// The threshold rules (checks/acceptance/thresholds.h) as pure functions on hand-made findings: which rule
// fires with which numbers, the config file's strictness, and the robust statistics.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "checks/acceptance/thresholds.h"
#include "core/errors.h"
#include "core/paths.h"

namespace gpucheck::acceptance {
namespace {

DeviceCatalog real_catalog() {
  return load_device_catalog(std::string(GPUCHECK_SOURCE_DIR) + "/data/devices",
                             std::string(GPUCHECK_SOURCE_DIR) + "/data/links/pcie.json");
}

std::string uuid_of(int i) { return fmt::format("GPU-{:08x}-0000-0000-0000-000000000000", i); }

// A node of `values.size()` GPUs of product `pci_id`, one metric each.
ThresholdInput node(const std::string& probe, const std::string& metric, const std::vector<double>& values,
                    unsigned pci_id = 0x2330) {
  ThresholdInput in;
  in.catalog = real_catalog();
  Finding f;
  f.id = probe;
  f.status = Status::kPass;
  for (std::size_t i = 0; i < values.size(); ++i) {
    DeviceFinding d;
    d.device = std::to_string(i);
    d.status = Status::kPass;
    d.evidence["uuid"] = uuid_of(static_cast<int>(i));
    d.metrics.push_back({metric, values[i], "TFLOP/s", "higher"});
    f.devices.push_back(d);
    in.gpus.push_back({std::to_string(i), uuid_of(static_cast<int>(i)), fmt::format("00000000:{:02X}:00.0", 0x18 + i),
                       "NVIDIA H100 80GB HBM3", pci_id});
  }
  in.findings.push_back(f);
  return in;
}

std::vector<nlohmann::json> fired(const Finding& f) {
  std::vector<nlohmann::json> out;
  for (const auto& v : f.details["verdicts"])
    if (v["fired"] == true) out.push_back(v);
  return out;
}

TEST(Thresholds, SlowGpuFailsReferenceAndPeerRulesWithTheNumbers) {
  auto out = judge_thresholds(node("cublas.gemm", "tflops_fp16", {801, 799, 805, 412, 798, 802, 800, 803}));
  ASSERT_EQ(out.size(), 1u);
  const Finding& f = out[0];
  EXPECT_EQ(f.id, "thresholds.cublas.gemm");
  EXPECT_EQ(f.status, Status::kFail);
  ASSERT_EQ(f.devices.size(), 8u);
  EXPECT_EQ(f.devices[0].status, Status::kPass);
  EXPECT_EQ(f.devices[3].status, Status::kFail);
  EXPECT_EQ(f.devices[3].summary,
            "tflops_fp16 412 < 0.6 x datasheet tflops_fp16 989.4 TFLOP/s (dense) = 593.6 (NVIDIA H100 SXM5 80GB) "
            "[reference_share]; tflops_fp16 412 is a low outlier among 8 NVIDIA H100 SXM5 80GB: median 800.5, MAD 2, "
            "robust z 131.0 > 3.5, below (1 - 0.05) x median = 760.5 [peer_outlier]");
  auto v = fired(f);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0]["rule"], "reference_share");
  EXPECT_EQ(v[0]["reference"], 989.4);
  EXPECT_EQ(v[1]["rule"], "peer_outlier");
  EXPECT_EQ(v[1]["median"], 800.5);
}

// DCGM#122: an A100 at ~6.7 TFLOPS passed where its peers reached ~19.
TEST(Thresholds, TheDcgm122A100Fails) {
  auto out = judge_thresholds(node("cublas.gemm", "tflops_fp32", {19.1, 6.7, 19.0, 19.2}, 0x20b2));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].devices[1].status, Status::kFail);
  EXPECT_EQ(fired(out[0]).size(), 2u);
  EXPECT_NE(out[0].devices[1].summary.find("tflops_fp32 6.7 < 0.6 x datasheet tflops_fp32 19.5"), std::string::npos);
}

TEST(Thresholds, PeerOutlierAboveTheDatasheetShareStillFails) {
  auto out = judge_thresholds(node("cublas.gemm", "tflops_bf16", {801, 799, 700, 800}));
  const auto& d = out[0].devices[2];
  EXPECT_EQ(d.status, Status::kFail);
  auto v = fired(out[0]);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["rule"], "peer_outlier");
}

TEST(Thresholds, IdenticalGpusWithATinyMadDoNotFailOnNoise) {
  // MAD 0.1: a 2.5% slower GPU has a huge z, but is within min_relative (5%).
  auto out = judge_thresholds(node("cublas.gemm", "tflops_bf16", {800, 800.1, 799.9, 800, 780}));
  EXPECT_EQ(out[0].status, Status::kPass);
  // MAD 0: only the relative condition applies.
  auto zero = judge_thresholds(node("cublas.gemm", "tflops_bf16", {800, 800, 800, 700}));
  EXPECT_EQ(zero[0].devices[3].status, Status::kFail);
  EXPECT_NE(zero[0].devices[3].summary.find("MAD 0, robust z 0.0, below"), std::string::npos) << zero[0].devices[3].summary;
}

TEST(Thresholds, ConfigOverridesTheShare) {
  auto in = node("cublas.gemm", "tflops_fp16", {412});
  EXPECT_EQ(judge_thresholds(in)[0].status, Status::kFail);
  in.config = parse_threshold_config(nlohmann::json::parse(R"({"reference_share": {"tflops_fp16": 0.4}})"), "t.json");
  auto out = judge_thresholds(in);
  EXPECT_EQ(out[0].status, Status::kPass);
  EXPECT_EQ(out[0].devices[0].evidence.at("not judged"), "1 GPU(s) of 0x2330 report tflops_fp16: fewer than 3 peers");
}

TEST(Thresholds, BaselineMatchesTheSameGpuByUuid) {
  auto in = node("cublas.gemm", "tflops_fp16", {700, 800}, 0x9999);  // unknown product: no reference
  auto before = node("cublas.gemm", "tflops_fp16", {800, 790}, 0x9999);
  // The earlier report listed the GPUs in the other order: the UUID decides, not the ordinal.
  std::swap(before.findings[0].devices[0].metrics, before.findings[0].devices[1].metrics);
  in.baseline = before.findings;
  in.baseline_origin = "old.json";
  auto out = judge_thresholds(in);
  EXPECT_EQ(out[0].devices[0].status, Status::kFail);
  EXPECT_EQ(out[0].devices[0].summary,
            "tflops_fp16 700 < 0.9 x its baseline 790 = 711 (old.json, same UUID) [baseline]");
  EXPECT_EQ(out[0].devices[1].status, Status::kPass);
}

TEST(Thresholds, NothingApplicableIsInfoNotPass) {
  auto out = judge_thresholds(node("cublas.gemm", "tflops_fp16", {700}, 0x9999));
  EXPECT_EQ(out[0].status, Status::kInfo);
  EXPECT_EQ(out[0].devices[0].summary,
            "not judged: no reference data for 0x9999; 1 GPU(s) of 0x9999 report tflops_fp16: fewer than 3 peers");
}

TEST(Thresholds, CountsFailAboveZero) {
  auto in = node("device.memory", "bad_addresses", {0, 3});
  auto out = judge_thresholds(in);
  EXPECT_EQ(out[0].devices[0].status, Status::kPass);
  EXPECT_EQ(out[0].devices[1].status, Status::kFail);
  EXPECT_EQ(out[0].devices[1].summary, "bad_addresses 3 > 0 [nonzero]");
}

TEST(Thresholds, CopiesAreHeldAgainstTheLinkAndHalfTheMemoryBandwidth) {
  auto in = node("device.copy", "h2d_pinned_GBps", {50, 30});
  auto out = judge_thresholds(in);
  EXPECT_EQ(out[0].devices[0].status, Status::kPass);
  EXPECT_EQ(out[0].devices[1].summary,
            "h2d_pinned_GBps 30 < 0.6 x PCIe gen 5 x16 per direction 63.02 GB/s = 37.81 (NVIDIA H100 SXM5 80GB) [reference_share]");
  auto d2d = judge_thresholds(node("device.copy", "d2d_GBps", {1500, 900}));
  EXPECT_NE(d2d[0].devices[1].summary.find("half the datasheet memory bandwidth 3350 GB/s = 1005"), std::string::npos)
      << d2d[0].devices[1].summary;
}

TEST(Thresholds, GpusAreFoundByBusIdWhateverTheDomainWidth) {
  auto in = node("cublas.gemm", "tflops_fp16", {412});
  in.findings[0].devices[0].evidence = {{"pci_bus_id", "0000:18:00.0", ""}};  // CUDA's spelling, no uuid
  EXPECT_EQ(judge_thresholds(in)[0].status, Status::kFail);
  in.findings[0].devices[0].evidence = {{"pci_bus_id", "0000:99:00.0", ""}};
  EXPECT_EQ(judge_thresholds(in)[0].devices[0].summary,
            "not judged: GPU not found in NVML's list; 1 GPU(s) of an unknown product report tflops_fp16: fewer than 3 peers");
}

TEST(Thresholds, SustainedTflopsUseTheDtypeTheProbeNames) {
  auto in = node("stress.gemm", "tflops_sustained", {480});
  EXPECT_EQ(judge_thresholds(in)[0].status, Status::kInfo);  // no dtype: no reference
  in.findings[0].devices[0].evidence["dtype"] = "bf16";
  EXPECT_EQ(judge_thresholds(in)[0].status, Status::kFail);  // 480 < 0.5 x 989.4
}

TEST(Thresholds, SustainedTflopsOfAHealthyH200Pass) {
  // The first GPU run: stress.gemm's 20 s bf16 at 588.4 TFLOP/s, which the 0.6 default (593.6) failed.
  auto in = node("stress.gemm", "tflops_sustained", {588.4});
  in.findings[0].devices[0].evidence["dtype"] = "bf16";
  EXPECT_NE(judge_thresholds(in)[0].status, Status::kFail);
  EXPECT_EQ(ThresholdConfig{}.share_for("tflops_sustained"), 0.5);
  EXPECT_EQ(ThresholdConfig{}.share_for("tflops_bf16"), 0.6);  // a burst keeps the default
}

TEST(Thresholds, ProbesWithoutContractMetricsGetNoFinding) {
  auto in = node("device.runtime", "tflops_fp16", {1});
  EXPECT_TRUE(judge_thresholds(in).empty());
}

TEST(ThresholdConfigFile, StrictAboutEveryKey) {
  auto c = parse_threshold_config(nlohmann::json::parse(
                                      R"({"reference_share": {"default": 0.5}, "outlier": {"z": 3, "min_relative": 0.1,
                                          "min_peers": 4}, "baseline_share": 0.95})"),
                                  "c.json");
  EXPECT_EQ(c.share_for("tflops_fp8"), 0.5);
  EXPECT_EQ(c.peer.outlier_z, 3);
  EXPECT_EQ(c.peer.min_peers, 4u);
  auto message = [](const char* text) {
    try {
      parse_threshold_config(nlohmann::json::parse(text), "c.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(R"({"reference_shares": {}})"),
            "thresholds config c.json: unknown key 'reference_shares' (reference_share, outlier, baseline_share)");
  EXPECT_EQ(message(R"({"reference_share": {"tflops_fp64": 0.5}})"),
            "thresholds config c.json: reference_share.tflops_fp64: not a metric of the contract");
  EXPECT_EQ(message(R"({"baseline_share": 1.5})"),
            "thresholds config c.json: baseline_share must be a number above 0 and at most 1 (a share), got 1.5");
  EXPECT_EQ(message(R"({"outlier": {"min_peers": 2}})"),
            "thresholds config c.json: outlier.min_peers must be an integer of at least 3");
  EXPECT_EQ(message("[]"), "thresholds config c.json: not a JSON object");
  // A newline inside a key stays one line of the message (tests/fuzz/corpus/thresholds/newline_in_a_key.json).
  EXPECT_EQ(message("{\"x\\ny\": 1}"),
            "thresholds config c.json: unknown key 'x\\ny' (reference_share, outlier, baseline_share)");
  EXPECT_EQ(message(R"({"reference_share": {"a\r\nb": 0.5}})"),
            "thresholds config c.json: reference_share.a\\r\\nb: not a metric of the contract");
}

}  // namespace
}  // namespace gpucheck::acceptance
