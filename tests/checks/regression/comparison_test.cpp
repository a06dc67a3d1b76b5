// Documents in, Findings out: matching benchmarks by name, the context check (refuse, allow, unknown),
// skipped benchmarks, and the history's step change against one noisy run.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>

#include "checks/regression/comparison.h"
#include "core/errors.h"

namespace gpucheck::regression {
namespace {

BenchContext h200() {
  BenchContext c;
  c.gpus = {{"NVIDIA H200", "GPU-1111"}};
  c.driver = "550.54.15";
  c.cuda = "12.4.131";
  c.cublas = "12.4.5.8";
  c.nccl = "2.21.5";
  c.torch = "2.3.1+cu121";
  c.tool_version = "0.5.0";
  c.tool_build = "cuda 12.4 archs 90 nccl torch";
  c.cpu = "Intel(R) Xeon(R) Platinum 8480+";
  c.key = make_key(c);
  return c;
}

// A Google Benchmark document: each benchmark with `times` in ms as its repetitions (+ aggregate rows,
// which must be ignored).
nlohmann::json document(const BenchContext* context, const std::map<std::string, std::vector<double>>& benchmarks,
                        const std::string& date = "2026-12-01T10:00:00+00:00") {
  nlohmann::json doc{{"context", {{"date", date}}}, {"benchmarks", nlohmann::json::array()}};
  if (context) doc["context"]["gpucheck"] = to_json(*context);
  for (const auto& [name, times] : benchmarks) {
    for (std::size_t i = 0; i < times.size(); ++i)
      doc["benchmarks"].push_back({{"name", name}, {"run_name", name}, {"run_type", "iteration"},
                                   {"repetitions", times.size()}, {"repetition_index", i}, {"real_time", times[i]},
                                   {"cpu_time", times[i]}, {"time_unit", "ms"}, {"ratio_to_copy", 0.9}});
    doc["benchmarks"].push_back({{"name", name + "_median"}, {"run_name", name}, {"run_type", "aggregate"},
                                 {"aggregate_name", "median"}, {"real_time", 1e9}, {"time_unit", "ms"}});
  }
  return doc;
}

std::vector<double> around(double ms, double spread = 0.01) {
  std::vector<double> v;
  for (int i = 0; i < 9; ++i) v.push_back(ms * (1 + spread * ((i * 7) % 9 - 4) / 4.0));
  return v;
}

TEST(BenchmarkDocument, ReadsRepetitionsInNanosecondsAndSkipsAggregates) {
  auto ctx = h200();
  auto d = parse_benchmark_document(document(&ctx, {{"BM_A", {1, 2, 3}}}), "x.json");
  ASSERT_EQ(d.benchmarks.size(), 1u);
  EXPECT_EQ(d.benchmarks[0].times_ns, (std::vector<double>{1e6, 2e6, 3e6}));
  EXPECT_EQ(d.benchmarks[0].counters.at("ratio_to_copy"), 0.9);
  EXPECT_THROW(parse_benchmark_document(nlohmann::json::array(), "x.json"), InputError);
  EXPECT_THROW(parse_benchmark_document({{"benchmarks", 3}}, "x.json"), InputError);
  EXPECT_THROW(parse_benchmark_document({{"benchmarks", {{{"name", "a"}, {"real_time", "fast"}}}}}, "x.json"), InputError);
  // fuzz_benchmark: a number where Google Benchmark writes a boolean escaped as json's type_error.
  EXPECT_THROW(parse_benchmark_document({{"benchmarks", {{{"name", "a"}, {"real_time", 1}, {"error_occurred", 1}}}}}, "x"),
               InputError);
  EXPECT_THROW(parse_benchmark_document({{"benchmarks", {{{"name", "a"}, {"real_time", 1}, {"time_unit", "weeks"}}}}}, "x"),
               InputError);
}

// load_benchmark_document reads a file row by row while it is parsed (each row's tree dropped at once):
// the same samples, context and errors as parse_benchmark_document of the whole tree.
TEST(BenchmarkDocument, AFileReadRowByRowIsTheWholeDocument) {
  auto ctx = h200();
  const std::string file = ::testing::TempDir() + "/rows.json";
  auto load = [&](const nlohmann::json& doc) {
    std::ofstream(file) << doc.dump();
    return load_benchmark_document(file);
  };
  nlohmann::json doc = document(&ctx, {{"BM_A", {1, 2, 3}}, {"BM_B", around(5)}});
  doc["benchmarks"].push_back({{"name", "BM_C"}, {"run_name", "BM_C"}, {"error_occurred", true}, {"error_message", "no GPU"}});
  const BenchmarkDocument whole = parse_benchmark_document(doc, file), rows = load(doc);
  ASSERT_EQ(rows.benchmarks.size(), whole.benchmarks.size());
  for (std::size_t i = 0; i < rows.benchmarks.size(); ++i) {
    EXPECT_EQ(rows.benchmarks[i].name, whole.benchmarks[i].name);
    EXPECT_EQ(rows.benchmarks[i].times_ns, whole.benchmarks[i].times_ns);
    EXPECT_EQ(rows.benchmarks[i].counters, whole.benchmarks[i].counters);
    EXPECT_EQ(rows.benchmarks[i].error, whole.benchmarks[i].error);
  }
  EXPECT_EQ(rows.context, whole.context);
  ASSERT_NE(rows.find("BM_B"), nullptr);
  for (const nlohmann::json& bad : std::vector<nlohmann::json>{
           nlohmann::json::array(), {{"benchmarks", 3}}, {{"benchmarks", {{"a", 1}}}},
           {{"benchmarks", {{{"name", "a"}, {"real_time", "fast"}}}}}, {{"benchmarks", nlohmann::json::array({7})}},
           {{"benchmarks", {{{"name", "a"}, {"real_time", 1}, {"time_unit", "weeks"}}}}}})
    EXPECT_THROW(load(bad), InputError) << bad.dump();
  std::ofstream(file) << "{\"benchmarks\": [";
  EXPECT_THROW(load_benchmark_document(file), InputError);
  std::remove(file.c_str());
}

TEST(Context, KeyNamesTheCombinationAndIgnoresTheCard) {
  BenchContext a = h200(), b = h200();
  b.gpus[0].uuid = "GPU-2222";
  EXPECT_EQ(make_key(a), make_key(b));
  EXPECT_EQ(make_key(a).rfind("nvidia-h200-drv550.54.15-cuda12.4.131-", 0), 0u) << make_key(a);
  for (auto change : std::vector<std::function<void(BenchContext&)>>{
           [](BenchContext& c) { c.driver = "555.42.02"; }, [](BenchContext& c) { c.cublas = "12.5.2"; },
           [](BenchContext& c) { c.nccl = "2.20.3"; }, [](BenchContext& c) { c.torch = ""; },
           [](BenchContext& c) { c.gpus[0].model = "NVIDIA A100-SXM4-80GB"; },
           [](BenchContext& c) { c.tool_build = "no cuda"; }, [](BenchContext& c) { c.cpu = "AMD EPYC 9654"; }}) {
    BenchContext c = h200();
    change(c);
    EXPECT_NE(make_key(c), make_key(a));
  }
  bool found = false;
  BenchContext back = context_from_json(to_json(a), found);
  EXPECT_TRUE(found);
  EXPECT_EQ(back.key, a.key);
  EXPECT_EQ(make_key(back), a.key);
  EXPECT_EQ(back.gpus[0].uuid, "GPU-1111");
}

TEST(Compare, OneFindingPerCommonBenchmark) {
  auto ctx = h200();
  auto base = parse_benchmark_document(document(&ctx, {{"BM_A", around(10)}, {"BM_B", around(20)}, {"BM_Old", around(1)}}), "base.json");
  auto now = parse_benchmark_document(document(&ctx, {{"BM_A", around(11.5)}, {"BM_B", around(20.1)}, {"BM_New", around(1)}}), "new.json");
  Comparison c = compare_documents(base, now, {});
  EXPECT_FALSE(c.context.finding);
  ASSERT_EQ(c.benchmarks.size(), 2u);
  EXPECT_EQ(c.benchmarks[0].title, "BM_A");
  EXPECT_EQ(c.benchmarks[0].id, "bench.regression");
  EXPECT_EQ(c.benchmarks[0].status, Status::kFail);
  EXPECT_NEAR(c.benchmarks[0].details["change"].get<double>(), 0.15, 1e-9);
  EXPECT_EQ(c.benchmarks[0].details["base"]["repetitions"], 9);
  EXPECT_EQ(c.benchmarks[1].id, "bench.unchanged");
  EXPECT_EQ(c.benchmarks[1].status, Status::kPass);
  EXPECT_EQ(c.only_base, std::vector<std::string>{"BM_Old"});
  EXPECT_EQ(c.only_current, std::vector<std::string>{"BM_New"});
  // Faster is never a failure.
  Comparison back = compare_documents(now, base, {});
  EXPECT_EQ(back.benchmarks[0].id, "bench.improvement");
  EXPECT_EQ(back.benchmarks[0].status, Status::kInfo);
}

TEST(Compare, SkippedBenchmarksStaySkippedWithTheirReason) {
  auto ctx = h200();
  auto raw = document(&ctx, {{"BM_Gpu", {}}});
  raw["benchmarks"] = {{{"name", "BM_Gpu"}, {"run_name", "BM_Gpu"}, {"run_type", "iteration"}, {"error_occurred", true},
                        {"error_message", "cudaErrorNoDevice (100): no CUDA-capable device is detected"}}};
  auto d = parse_benchmark_document(raw, "gpu.json");
  Comparison c = compare_documents(d, d, {});
  ASSERT_EQ(c.benchmarks.size(), 1u);
  EXPECT_EQ(c.benchmarks[0].id, "bench.skipped");
  EXPECT_EQ(c.benchmarks[0].status, Status::kSkip);
  EXPECT_NE(c.benchmarks[0].summary.find("cudaErrorNoDevice"), std::string::npos);
}

TEST(Compare, RefusesAnotherHardwareOrSoftwareCombinationUnlessAllowed) {
  BenchContext a = h200(), b = h200();
  b.driver = "555.42.02";
  b.key = make_key(b);
  auto base = parse_benchmark_document(document(&a, {{"BM_A", around(10)}}), "base.json");
  auto now = parse_benchmark_document(document(&b, {{"BM_A", around(13)}}), "new.json");
  Comparison refused = compare_documents(base, now, {});
  EXPECT_TRUE(refused.context.refused);
  ASSERT_TRUE(refused.context.finding);
  EXPECT_EQ(refused.context.finding->id, "compare.context_mismatch");
  EXPECT_EQ(refused.context.finding->status, Status::kError);
  EXPECT_EQ(refused.context.finding->evidence.at("driver"), "550.54.15 -> 555.42.02");
  EXPECT_TRUE(refused.benchmarks.empty()) << "refuses rather than guesses";

  CompareOptions allow;
  allow.allow_mismatch = true;
  Comparison allowed = compare_documents(base, now, allow);
  EXPECT_EQ(allowed.context.finding->status, Status::kWarn);
  ASSERT_EQ(allowed.benchmarks.size(), 1u);
  EXPECT_EQ(allowed.benchmarks[0].id, "bench.regression");

  // Another card of the same model: noted, compared.
  BenchContext card = h200();
  card.gpus[0].uuid = "GPU-9999";
  Comparison other = compare_documents(base, parse_benchmark_document(document(&card, {{"BM_A", around(10)}}), "n"), {});
  EXPECT_FALSE(other.context.refused);
  EXPECT_EQ(other.context.finding->id, "compare.context_other_card");
  EXPECT_EQ(other.benchmarks.size(), 1u);

  // A document run by hand (no gpucheck context): unknown, refused unless allowed.
  auto bare = parse_benchmark_document(document(nullptr, {{"BM_A", around(10)}}), "bare.json");
  Comparison unknown = compare_documents(bare, now, {});
  EXPECT_TRUE(unknown.context.refused);
  EXPECT_EQ(unknown.context.finding->id, "compare.context_unknown");
  EXPECT_EQ(compare_documents(bare, now, allow).benchmarks.size(), 1u);
}

TEST(History, AStepIsFoundWhereItHappenedAndOneNoisyRunIsNot) {
  auto ctx = h200();
  // Six runs at 10 ms, then three at 11.5 ms (the last one is NEW): a step at run 6.
  std::vector<BenchmarkDocument> history;
  for (int i = 0; i < 8; ++i)
    history.push_back(parse_benchmark_document(document(&ctx, {{"BM_A", around(i < 6 ? 10 : 11.5)}}), "run" + std::to_string(i)));
  auto now = parse_benchmark_document(document(&ctx, {{"BM_A", around(11.5)}}), "new.json");
  Comparison step = compare_history(history, now, {});
  ASSERT_EQ(step.benchmarks.size(), 1u);
  EXPECT_EQ(step.benchmarks[0].id, "bench.regression");
  EXPECT_EQ(step.benchmarks[0].details["step"]["at"], "run6");
  EXPECT_EQ(step.benchmarks[0].details["step"]["runs_before"], 6);
  EXPECT_NE(step.benchmarks[0].summary.find("step at run6"), std::string::npos);

  // Stable history with one slow outlier run in the middle, NEW back at the usual time: no regression,
  // although NEW against that one run alone would look like a big improvement.
  std::vector<BenchmarkDocument> noisy;
  for (int i = 0; i < 8; ++i)
    noisy.push_back(parse_benchmark_document(document(&ctx, {{"BM_A", around(i == 4 ? 14 : 10)}}), "run" + std::to_string(i)));
  Comparison calm = compare_history(noisy, parse_benchmark_document(document(&ctx, {{"BM_A", around(10.05)}}), "n"), {});
  EXPECT_EQ(calm.benchmarks[0].status, Status::kPass) << calm.benchmarks[0].summary;
  EXPECT_EQ(compare_documents(noisy[4], now, {}).benchmarks[0].id, "bench.improvement");
}

}  // namespace
}  // namespace gpucheck::regression
