// The whole harness over the in-process transport: every case passes bit-exact, a corrupted rank and a
// transport that damages one element are caught with the right index, and the merged Finding says so.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "collectives/harness.h"
#include "collectives/local_transport.h"
#include "collectives/merge.h"
#include "collectives/plan.h"
#include "collectives/rank_report.h"

using namespace gpucheck::collectives;

namespace {

Options small_options(std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--max-bytes", "4K", "--factor", "4", "--warmup", "0", "--iters", "1",
                                "--layout-sizes", "7,1237,3000"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_options(args, "quick");
}

// Flips the sign bit of one output element of one rank after an otherwise correct all-reduce.
class DamagingTransport : public LocalTransport {
 public:
  DamagingTransport(int world, int rank, std::size_t index) : LocalTransport(world), rank_(rank), index_(index) {}
  double run(const std::vector<Collective>& group, int iterations, double timeout_s) override {
    double t = LocalTransport::run(group, iterations, timeout_s);
    for (auto& c : group)
      if (c.op == CollOp::kAllReduce && c.count > index_) {
        auto* p = static_cast<unsigned char*>(c.local[static_cast<std::size_t>(rank_)].recv);
        p[index_ * dtype_size(c.dtype) + dtype_size(c.dtype) - 1] ^= 0x80;
      }
    return t;
  }

 private:
  int rank_;
  std::size_t index_;
};

std::size_t total_wrong(const std::vector<RankReport>& reports) {
  std::size_t n = 0;
  for (auto& r : reports)
    for (auto& c : r.cases) n += c.wrong;
  return n;
}

}  // namespace

TEST(HarnessLocal, EveryCasePassesBitExactForSeveralWorldSizes) {
  for (int world : {1, 2, 3, 4}) {
    auto o = small_options();
    LocalTransport t(world);
    auto plan = make_plan(o, world);
    auto reports = run_plan(t, plan, o);
    ASSERT_EQ(reports.size(), static_cast<std::size_t>(world));
    for (auto& r : reports) {
      EXPECT_TRUE(r.error.empty()) << r.error;
      ASSERT_EQ(r.cases.size(), plan.size());
      for (auto& c : r.cases) {
        EXPECT_EQ(c.wrong, 0u) << "W=" << world << " " << c.key << " first " << c.first_index;
        EXPECT_GT(c.checked, 0u) << c.key;
      }
    }
    gpucheck::Finding res;
    merge_into_result(reports, plan, o, "local", world, res);
    EXPECT_EQ(res.status, gpucheck::Status::kPass) << res.summary;
    EXPECT_EQ(res.devices.size(), static_cast<std::size_t>(world));
    bool has_busbw = false, has_algbw = false;
    for (auto& m : res.metrics) {
      has_busbw = has_busbw || m.name.rfind("busbw_plateau.", 0) == 0;
      has_algbw = has_algbw || m.name.rfind("algbw_plateau.", 0) == 0;
    }
    if (world == 1) {
      EXPECT_NE(res.summary.find("busbw is not meaningful"), std::string::npos) << res.summary;
      EXPECT_FALSE(has_busbw);
      EXPECT_TRUE(has_algbw);
    } else {
      EXPECT_TRUE(has_busbw);
      EXPECT_FALSE(has_algbw);
    }
  }
}

TEST(HarnessLocal, CorruptRankIsCaughtInEveryKindOfCase) {
  auto o = small_options({"--corrupt-rank", "2"});
  LocalTransport t(4);
  auto plan = make_plan(o, 4);
  auto reports = run_plan(t, plan, o);
  EXPECT_GT(total_wrong(reports), 0u);
  // every collective that reads rank 2's contribution is wrong somewhere
  std::map<std::string, std::size_t> per_case;
  for (auto& r : reports)
    for (auto& c : r.cases) per_case[c.key] += c.wrong;
  for (auto& c : plan) {
    bool reads_rank2 = c.op != CollOp::kBroadcast;  // broadcast roots are 0 and 3
    if (reads_rank2) {
      EXPECT_GT(per_case[c.key], 0u) << c.key;
    }
  }
  // all-gather: rank 2's block starts at 2*count; the corrupted element is index 5 of that block
  const CaseSpec* ag = nullptr;
  for (auto& c : plan)
    if (c.kind == CaseKind::kSweep && c.op == CollOp::kAllGather && !c.in_place && c.count >= 16) {
      ag = &c;
      break;
    }
  ASSERT_NE(ag, nullptr);
  for (auto& r : reports)
    for (auto& c : r.cases)
      if (c.key == ag->key) {
        EXPECT_EQ(c.first_index, static_cast<std::int64_t>(2 * ag->count + 5));
      }
  gpucheck::Finding res;
  merge_into_result(reports, plan, o, "local", 4, res);
  EXPECT_EQ(res.status, gpucheck::Status::kFail);
  EXPECT_NE(res.summary.find("#wrong"), std::string::npos) << res.summary;
}

TEST(HarnessLocal, ADamagedOutputElementIsCountedOnceAtItsIndex) {
  auto o = small_options({"--ops", "all_reduce", "--dtypes", "fp32", "--no-layout", "--min-bytes", "1K",
                          "--max-bytes", "1K"});
  DamagingTransport t(3, 1, 37);
  auto plan = make_plan(o, 3);
  ASSERT_EQ(plan.size(), 2u);  // out-of-place and in-place
  auto reports = run_plan(t, plan, o);
  EXPECT_EQ(reports[0].cases[0].wrong, 0u);
  EXPECT_EQ(reports[1].cases[0].wrong, 1u);
  EXPECT_EQ(reports[1].cases[0].first_index, 37);
  EXPECT_EQ(reports[1].cases[0].got_bits ^ reports[1].cases[0].expected_bits, 0x80000000u);
  EXPECT_EQ(reports[2].cases[0].wrong, 0u);
  auto rows = merge_rows(reports, plan, 3);
  EXPECT_EQ(rows[0].wrong, 1u);
  EXPECT_EQ(rows[0].first_bad_rank, 1);
}

TEST(HarnessLocal, RankReportsSurviveJson) {
  RankReport r;
  r.info = {3, "node7", "GPU 2: NVIDIA H200 (0000:19:00.0)"};
  r.cases.push_back({"sweep.x", 100, 2, 17, 0x3c00, 0xbc00, 1.5e-5});
  r.error = "timeout: x";
  r.timed_out = true;
  auto back = rank_report_from_json(nlohmann::json::parse(to_json(r).dump()));
  EXPECT_EQ(back.info.host, "node7");
  EXPECT_EQ(back.info.rank, 3);
  EXPECT_EQ(back.cases[0].first_index, 17);
  EXPECT_EQ(back.cases[0].got_bits, 0xbc00u);
  EXPECT_DOUBLE_EQ(back.cases[0].time_s, 1.5e-5);
  EXPECT_TRUE(back.timed_out);
  EXPECT_THROW(rank_report_from_json(nlohmann::json::parse("{\"rank\":1}")), nlohmann::json::exception);
}

TEST(HarnessLocal, MergeReportsTimeoutAndMissingRanks) {
  auto o = small_options({"--no-layout", "--ops", "broadcast", "--dtypes", "fp32"});
  auto plan = make_plan(o, 2);
  LocalTransport t(2);
  auto reports = run_plan(t, plan, o);
  gpucheck::Finding missing;
  merge_into_result({reports[0]}, plan, o, "local", 2, missing);
  EXPECT_EQ(missing.status, gpucheck::Status::kFail);
  EXPECT_NE(missing.summary.find("only 1 of 2 ranks"), std::string::npos);
  reports[1].error = "timeout: broadcast fp32 did not complete within 1 s";
  reports[1].timed_out = true;
  gpucheck::Finding timed;
  merge_into_result(reports, plan, o, "local", 2, timed);
  EXPECT_EQ(timed.status, gpucheck::Status::kFail);
  EXPECT_EQ(timed.summary, "rank 1: timeout: broadcast fp32 did not complete within 1 s");
}

TEST(HarnessLocal, MinBusbwGateFails) {
  auto o = small_options({"--no-layout", "--ops", "all_reduce", "--dtypes", "fp32", "--min-busbw", "1e9"});
  LocalTransport t(2);
  auto plan = make_plan(o, 2);
  gpucheck::Finding res;
  merge_into_result(run_plan(t, plan, o), plan, o, "local", 2, res);
  EXPECT_EQ(res.status, gpucheck::Status::kFail);
  EXPECT_NE(res.summary.find("--min-busbw"), std::string::npos) << res.summary;
}

// One rank: an in-place collective's output already holds its input, so it proves nothing about the
// library; those cases say "not exercised" and their elements do not count as verified. Two ranks: every
// case is exercised.
TEST(HarnessLocal, OneRankInPlaceCasesAreNotExercised) {
  for (int world : {1, 2}) {
    auto o = small_options({"--no-layout", "--ops", "all_gather,all_reduce", "--dtypes", "fp32"});
    LocalTransport t(world);
    auto plan = make_plan(o, world);
    auto reports = run_plan(t, plan, o);
    gpucheck::Finding f;
    merge_into_result(reports, plan, o, "local", world, f);
    EXPECT_EQ(f.status, gpucheck::Status::kPass) << f.summary;
    std::size_t in_place = 0, flagged = 0, checked_oop = 0;
    for (auto& row : f.details["rows"]) {
      in_place += row["in_place"].get<bool>();
      flagged += row.contains("exercised") && !row["exercised"].get<bool>();
      if (!row["in_place"].get<bool>()) checked_oop += row["checked"].get<std::size_t>();
    }
    ASSERT_GT(in_place, 0u);
    double checked = -1;
    for (auto& m : f.metrics)
      if (m.name == "checked_elements") checked = m.value;
    if (world == 1) {
      EXPECT_EQ(flagged, in_place);
      EXPECT_NE(f.summary.find("in-place cases not exercised"), std::string::npos) << f.summary;
      EXPECT_EQ(checked, static_cast<double>(checked_oop));
    } else {
      EXPECT_EQ(flagged, 0u);
      EXPECT_EQ(f.summary.find("not exercised"), std::string::npos) << f.summary;
    }
  }
}
