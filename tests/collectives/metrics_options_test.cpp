// nccl-tests' bandwidth formulas, the plateau busbw, and option parsing.
#include <gtest/gtest.h>

#include <set>

#include "collectives/bandwidth.h"
#include "collectives/options.h"
#include "collectives/plan.h"
#include "core/errors.h"
#include "core/files.h"

using namespace gpucheck::collectives;

TEST(Bandwidth, NcclTestsFactors) {
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::kAllReduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::kAllGather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::kReduceScatter, 4), 3.0 / 4);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::kBroadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::kAllReduce, 1), 0.0);  // one rank: busbw not meaningful
}

TEST(Bandwidth, SizesAndRates) {
  // all-gather and reduce-scatter count the whole gathered/scattered buffer, all-reduce the per-rank buffer
  EXPECT_EQ(algo_bytes(CollOp::kAllGather, 1000, DType::kF16, 8), 16000u);
  EXPECT_EQ(algo_bytes(CollOp::kReduceScatter, 1000, DType::kF32, 4), 16000u);
  EXPECT_EQ(algo_bytes(CollOp::kAllReduce, 1000, DType::kF32, 4), 4000u);
  EXPECT_DOUBLE_EQ(algbw_gbps(2000000000, 1.0), 2.0);  // GB = 1e9 bytes
  // all_reduce of 1 GiB in 10 ms on 8 ranks: algbw 107.37 GB/s, busbw x 1.75
  double alg = algbw_gbps(std::size_t{1} << 30, 0.01);
  EXPECT_NEAR(alg, 107.374, 1e-3);
  EXPECT_NEAR(busbw_gbps(CollOp::kAllReduce, std::size_t{1} << 30, 0.01, 8), alg * 1.75, 1e-9);
}

TEST(Bandwidth, PlateauIgnoresLatencyBoundSizes) {
  std::vector<std::pair<std::size_t, double>> pts;
  for (std::size_t b = 8, k = 0; k < 28; b *= 2, ++k) pts.emplace_back(b, k < 20 ? 0.001 * k : 150.0 + (k % 3));
  auto p = plateau_busbw(pts);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(plateau_points(28), 7u);
  EXPECT_GE(*p, 150.0);  // nccl-tests' average over all sizes would be ~43
  double avg = 0;
  for (auto& x : pts) avg += x.second;
  EXPECT_LT(avg / 28, 60.0);
  EXPECT_EQ(plateau_points(2), 2u);
  EXPECT_FALSE(plateau_busbw({}).has_value());
  EXPECT_DOUBLE_EQ(median({3, 1, 2, 10}), 2.5);
}

TEST(Options, ParsesSweepAndDefaultsPerLevel) {
  auto o = parse_options({"--min-bytes", "8", "--max-bytes=1M", "--factor", "4", "--dtypes", "fp16,fp32"}, "standard");
  EXPECT_EQ(o.max_bytes, std::size_t{1} << 20);
  auto sizes = sweep_sizes(o);
  ASSERT_EQ(sizes.size(), 9u);  // 8, 32, ..., 512K
  EXPECT_EQ(sizes.back(), std::size_t{512} << 10);
  EXPECT_EQ(o.dtypes.size(), 2u);
  auto q = parse_options({}, "quick");
  EXPECT_EQ(q.layout_sizes, (std::vector<std::size_t>{7, 1237, 65539}));
  auto s = parse_options({}, "standard");
  EXPECT_EQ(s.layout_sizes.back(), (std::size_t{1} << 24) + 3);
  EXPECT_EQ(s.max_bytes, std::size_t{256} << 20);
  EXPECT_EQ(parse_options({}, "long").max_bytes, std::size_t{1} << 30);
  EXPECT_EQ(parse_options({"--transport", "mpi"}, "standard").max_bytes, std::size_t{16} << 20);
  EXPECT_EQ(parse_bytes("64K"), 65536u);
  EXPECT_EQ(parse_bytes("1G"), std::size_t{1} << 30);
}

TEST(Options, RejectsBadValuesWithOneLine) {
  using gpucheck::InputError;
  EXPECT_THROW(parse_options({"--transport", "gloo"}, "quick"), InputError);
  EXPECT_THROW(parse_options({"--max-bytes", "12Q"}, "quick"), InputError);
  EXPECT_THROW(parse_options({"--min-bytes", "2M", "--max-bytes", "1M"}, "quick"), InputError);
  EXPECT_THROW(parse_options({"--factor", "1"}, "quick"), InputError);
  EXPECT_THROW(parse_options({"--ops", "alltoall"}, "quick"), InputError);
  EXPECT_THROW(parse_options({"--dtypes", "uint8"}, "quick"), InputError);
  EXPECT_THROW(parse_options({"--frobnicate"}, "quick"), InputError);
  EXPECT_THROW(parse_options({"--iters"}, "quick"), InputError);
  EXPECT_THROW(parse_options({}, "forever"), InputError);
  try {
    parse_options({"--pairs", "some"}, "quick");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--pairs: expected all or neighbour, got 'some'");
  }
}

TEST(Plan, CoversBmtrainCollectivesAndIsDeterministic) {
  auto o = parse_options({"--max-bytes", "64K"}, "quick");
  auto plan = make_plan(o, 4);
  EXPECT_EQ(plan.size(), make_plan(o, 4).size());
  int sweeps = 0, layout = 0, flags = 0, avg = 0, shards = 0;
  std::set<std::string> keys;
  for (auto& c : plan) {
    EXPECT_TRUE(keys.insert(c.key).second) << "duplicate key " << c.key;
    sweeps += c.kind == CaseKind::kSweep;
    layout += c.kind == CaseKind::kLayoutGather || c.kind == CaseKind::kLayoutReduce;
    flags += c.flag;
    avg += c.redop == RedOp::kAvg;
    shards += c.key.rfind("shard.", 0) == 0;
  }
  EXPECT_EQ(sweeps, 3 * 4 * 7 * 2);  // dtypes x ops x sizes (quick: factor 4, 8 B..32 KiB) x placement
  // below one element per rank, sizes collapse to one case: fp32 8 B and 16 B at W=4 (factor 2)
  int collapsed = 0;
  for (auto& c : make_plan(parse_options({"--max-bytes", "64K", "--factor", "2", "--no-layout"}, "quick"), 4))
    collapsed += c.kind == CaseKind::kSweep;
  EXPECT_EQ(collapsed, 3 * 4 * 14 * 2 - 2 * 2);
  EXPECT_EQ(layout, 3);
  EXPECT_EQ(flags, 2);
  EXPECT_GT(avg, 0);
  EXPECT_EQ(shards, 3 * 3 * 2);
  for (auto& c : make_plan(o, 3)) EXPECT_NE(c.redop, RedOp::kAvg) << "avg is only exact for power-of-two W";
}

TEST(Bandwidth, CodeMatchesTheSourcedDefinitionsInData) {
  auto j = gpucheck::read_json_file(std::string(GPUCHECK_SOURCE_DIR) + "/data/collectives/busbw.json");
  EXPECT_EQ(j["gigabyte_bytes"].get<double>(), 1e9);
  EXPECT_DOUBLE_EQ(algbw_gbps(1000000000, 1.0), 1.0);
  for (auto& [name, c] : j["collectives"].items()) {
    EXPECT_FALSE(c["source"].get<std::string>().empty());
    CollOp op = parse_collop(name);
    for (auto& [n, factor] : c["factor_at"].items())
      EXPECT_DOUBLE_EQ(bus_factor(op, std::stoi(n)), factor.get<double>()) << name << " n=" << n;
  }
}
