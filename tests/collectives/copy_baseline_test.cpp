// One rank has no bus (busbw factor 0): its collectives are reported as algbw against a device-to-device
// copy measured in the same run. A fixture (one rank's report with its copy, hand-computable times) gives
// the metrics and the summary; a transport without a device copy says so instead of inventing a ratio.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "collectives/harness.h"
#include "collectives/local_transport.h"
#include "collectives/merge.h"
#include "collectives/plan.h"
#include "collectives/rank_report.h"

using namespace gpucheck::collectives;

namespace {

nlohmann::json fixture() {
  std::ifstream in(std::string(GPUCHECK_SOURCE_DIR) + "/tests/collectives/data/one_rank_copy_baseline.json");
  return nlohmann::json::parse(in);
}

const gpucheck::Metric* metric(const gpucheck::Finding& f, const std::string& name) {
  for (auto& m : f.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

// A local transport whose "device" copy is a host memcpy, timed: the harness's side of the baseline.
class CopyingTransport : public LocalTransport {
 public:
  using LocalTransport::LocalTransport;
  std::optional<double> copy_seconds(int, std::size_t bytes, int iterations, double) override {
    calls.push_back({bytes, iterations});
    return 1e-3 * iterations;  // 1 ms per copy
  }
  std::vector<std::pair<std::size_t, int>> calls;
};

}  // namespace

TEST(CopyBaseline, OneRankAlgbwIsReportedAgainstTheSameRunCopy) {
  const nlohmann::json fx = fixture();
  const Options o = parse_options(fx["options"].get<std::vector<std::string>>(), "quick");
  const auto plan = make_plan(o, 1);
  const RankReport rank = rank_report_from_json(fx["report"]);
  ASSERT_EQ(rank.cases.size(), plan.size());  // the fixture covers exactly the plan its options make
  for (std::size_t i = 0; i < plan.size(); ++i) ASSERT_EQ(rank.cases[i].key, plan[i].key);

  gpucheck::Finding f;
  merge_into_result({rank}, plan, o, "nccl", 1, f);
  EXPECT_EQ(f.status, gpucheck::Status::kPass) << f.summary;
  for (auto& [name, want] : fx["expect"].items()) {
    const gpucheck::Metric* m = metric(f, name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_NEAR(m->value, want.get<double>(), 1e-9 * want.get<double>()) << name;
  }
  EXPECT_NE(f.summary.find(fx["expect_summary"].get<std::string>()), std::string::npos) << f.summary;
  EXPECT_EQ(f.summary.find("busbw"), std::string::npos) << f.summary;  // no busbw of 0 claimed
  for (auto& m : f.metrics) EXPECT_NE(m.name.rfind("busbw", 0), 0u) << m.name;
  EXPECT_NEAR(f.details["copy_d2d"]["gbps"].get<double>(), 2000.0, 1e-6);
  EXPECT_EQ(f.details["copy_d2d"]["bytes"].get<std::size_t>(), std::size_t{16} << 20);
  for (auto& p : f.details["plateau"]) EXPECT_TRUE(p.contains("ratio_to_copy")) << p.dump();
}

// The copy's bytes and time survive the trip from a rank to rank 0; reports without one stay without.
TEST(CopyBaseline, RankReportRoundTripKeepsTheCopy) {
  RankReport r = rank_report_from_json(fixture()["report"]);
  RankReport back = rank_report_from_json(nlohmann::json::parse(to_json(r).dump()));
  ASSERT_TRUE(back.copy.has_value());
  EXPECT_EQ(back.copy->bytes, r.copy->bytes);
  EXPECT_EQ(back.copy->time_s, r.copy->time_s);
  r.copy.reset();
  EXPECT_FALSE(rank_report_from_json(nlohmann::json::parse(to_json(r).dump())).copy.has_value());
}

// The harness times the copy at the largest sweep size with the collectives' warm-up and iteration count,
// only with one rank; a transport without a device copy (host memory) leaves the reason, and no ratio.
TEST(CopyBaseline, HarnessMeasuresTheCopyOnlyForOneRank) {
  const Options o = parse_options({"--min-bytes", "1K", "--max-bytes", "16K", "--factor", "4", "--ops", "all_reduce",
                                   "--dtypes", "fp32", "--no-layout", "--warmup", "2", "--iters", "3"},
                                  "quick");
  {
    CopyingTransport t(1);
    auto reports = run_plan(t, make_plan(o, 1), o);
    ASSERT_EQ(t.calls.size(), 2u);  // warm-up, then the timed copies
    EXPECT_EQ(t.calls[0], (std::pair<std::size_t, int>{16384, 2}));
    EXPECT_EQ(t.calls[1], (std::pair<std::size_t, int>{16384, 3}));
    ASSERT_TRUE(reports[0].copy.has_value());
    EXPECT_DOUBLE_EQ(reports[0].copy->time_s, 1e-3);
    gpucheck::Finding f;
    merge_into_result(reports, make_plan(o, 1), o, "local", 1, f);
    ASSERT_NE(metric(f, "algbw_ratio_to_copy.all_reduce.sum.fp32"), nullptr);
    EXPECT_NEAR(metric(f, "copy_d2d")->value, 16384 / 1e-3 / 1e9, 1e-12);
  }
  {
    CopyingTransport t(2);
    auto reports = run_plan(t, make_plan(o, 2), o);
    EXPECT_TRUE(t.calls.empty());
    EXPECT_FALSE(reports[0].copy.has_value());
  }
  {
    LocalTransport t(1);  // host memory: no device copy
    auto reports = run_plan(t, make_plan(o, 1), o);
    ASSERT_TRUE(reports[0].copy.has_value());
    EXPECT_LT(reports[0].copy->time_s, 0);
    gpucheck::Finding f;
    merge_into_result(reports, make_plan(o, 1), o, "local", 1, f);
    EXPECT_EQ(metric(f, "algbw_ratio_to_copy.all_reduce.sum.fp32"), nullptr);
    EXPECT_EQ(f.details["copy_d2d"]["error"].get<std::string>(), "the local transport has no device-to-device copy");
    EXPECT_NE(f.summary.find("busbw is not meaningful"), std::string::npos) << f.summary;
  }
}
