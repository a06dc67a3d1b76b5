// `gpucheck bench` and `gpucheck compare` on real benchmark runs here: a CPU suite's document compared
// with itself passes (exit 0); a run of the regression suite made slower on purpose (--test-slowdown, a
// test-only option that makes each iteration do N times the work; 4 here: with 2, a bmtrain build beside
// the base run once hid it) fails (exit 1); GPU suites build and report why each benchmark skipped; bad
// input exits 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_support.h"
#include "core/files.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

class BenchCompare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir = fresh_temp_dir("bench-compare"); }
  static void TearDownTestSuite() { fs::remove_all(dir); }
  static std::string path(const std::string& name) { return (dir / name).string(); }
  // A suite run into `out`: 9 repetitions, short ones (the gate does not need long ones to see 2x).
  static SubprocessResult bench(const std::string& suite, const std::string& filter, const std::string& out,
                                std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"bench", "--suite", suite, "--filter", filter, "--min-time", "0.05",
                                  "--no-python", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    return gpucheck(args);
  }
  static fs::path dir;
};
fs::path BenchCompare::dir;

TEST_F(BenchCompare, ACpuRunComparedWithItselfPasses) {
  auto r = bench("kernels_cpu", "BM_OffloadAdam/0/1/1048576", path("cpu.json"), {"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.describe() << r.err;
  auto doc = read_json_file(path("cpu.json"));
  const auto& ctx = doc["context"]["gpucheck"];
  EXPECT_FALSE(ctx["key"].get<std::string>().empty());
  EXPECT_EQ(ctx["repetitions"], 9);
  for (const char* field : {"gpus", "driver", "cuda", "cublas", "nccl", "torch", "tool_version", "tool_build", "cpu"})
    EXPECT_TRUE(ctx.contains(field)) << field;
  EXPECT_FALSE(ctx["cpu"].get<std::string>().empty());
  int repetitions = 0;
  for (const auto& row : doc["benchmarks"])
    if (row["run_type"] == "iteration") {
      ++repetitions;
      EXPECT_EQ(row["suite"], "kernels_cpu");
      EXPECT_GT(row["real_time"].get<double>(), 0);
    }
  EXPECT_EQ(repetitions, 9);
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["details"]["document"], path("cpu.json"));
  EXPECT_EQ(report["sections"][0]["findings"][0]["id"], "bench.suite.kernels_cpu");

  auto same = gpucheck({"compare", path("cpu.json"), path("cpu.json")});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("unchanged"), std::string::npos) << same.out;
  for (std::size_t start = 0, nl; (nl = same.out.find('\n', start)) != std::string::npos; start = nl + 1)
    EXPECT_LE(nl - start, 80u) << same.out.substr(start, nl - start);
}

TEST_F(BenchCompare, ARunMadeSlowerOnPurposeFailsAndTheReverseIsAnImprovement) {
  const std::string filter = "BM_ExactDistribution/30";
  auto base = bench("regression", filter, path("base.json"));
  ASSERT_EQ(base.exit_code, 0) << base.describe() << base.err;
  auto slow = bench("regression", filter, path("slow.json"), {"--test-slowdown", "4"});
  ASSERT_EQ(slow.exit_code, 0) << slow.describe() << slow.err;
  EXPECT_EQ(read_json_file(path("slow.json"))["benchmarks"][0]["work_factor"], 4);

  auto worse = gpucheck({"compare", path("base.json"), path("slow.json"), "--json"});
  ASSERT_EQ(worse.exit_code, 1) << worse.out << worse.err;
  auto rep = nlohmann::json::parse(worse.out);
  const auto& f = rep["sections"][0]["findings"][0];
  EXPECT_EQ(f["id"], "bench.regression");
  EXPECT_GT(f["details"]["change"].get<double>(), 0.3) << "four times the work";
  EXPECT_LT(f["details"]["p"].get<double>(), 0.01);
  EXPECT_EQ(rep["details"]["counts"]["regression"], 1);
  EXPECT_EQ(schema_errors("report.schema.json", [&] {
              std::ofstream(path("worse.json")) << worse.out;
              return path("worse.json");
            }()), "");

  auto md = gpucheck({"compare", path("base.json"), path("slow.json"), "--format", "markdown"});
  EXPECT_EQ(md.exit_code, 1);
  EXPECT_NE(md.out.find("| benchmark | base | new | change | p | verdict |"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("**regression**"), std::string::npos) << md.out;

  auto better = gpucheck({"compare", path("slow.json"), path("base.json")});
  EXPECT_EQ(better.exit_code, 0) << better.out;
  EXPECT_NE(better.out.find("improvement"), std::string::npos) << better.out;

  // The same inputs, the same verdict.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(gpucheck({"compare", path("base.json"), path("slow.json")}).out, gpucheck({"compare", path("base.json"), path("slow.json")}).out);

  // --baseline-dir picks the newest document with the same key: slow.json; NEW = base.json is faster.
  fs::create_directories(dir / "baselines");
  fs::copy_file(path("slow.json"), dir / "baselines" / "slow.json");
  std::ofstream(dir / "baselines" / "junk.json") << "{";
  auto picked = gpucheck({"compare", "--baseline-dir", (dir / "baselines").string(), path("base.json"), "--json"});
  EXPECT_EQ(picked.exit_code, 0) << picked.err;
  auto p = nlohmann::json::parse(picked.out);
  EXPECT_EQ(p["details"]["base"], (dir / "baselines" / "slow.json").string());
  EXPECT_EQ(p["sections"][0]["findings"][0]["id"], "bench.improvement");
  // An empty baseline directory: nothing to compare with yet, exit 0.
  fs::create_directories(dir / "empty");
  auto none = gpucheck({"compare", "--baseline-dir", (dir / "empty").string(), path("base.json"), "--json"});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(nlohmann::json::parse(none.out)["sections"][0]["findings"][0]["id"], "compare.no_baseline");
}

TEST_F(BenchCompare, ADifferentContextIsRefusedUnlessAllowed) {
  auto run = bench("regression", "BM_UTest/9", path("ctx.json"));
  ASSERT_EQ(run.exit_code, 0) << run.describe() << run.err;
  // The same run, as if measured under another driver.
  auto doc = read_json_file(path("ctx.json"));
  doc["context"]["gpucheck"]["driver"] = "999.99";
  doc["context"]["gpucheck"]["key"] = "another-machine";
  std::ofstream(path("other.json")) << doc.dump();
  auto refused = gpucheck({"compare", path("other.json"), path("ctx.json")});
  EXPECT_EQ(refused.exit_code, 3) << refused.out;
  EXPECT_NE(refused.out.find("driver: 999.99 -> "), std::string::npos) << refused.out;
  EXPECT_EQ(refused.out.find("BM_UTest"), std::string::npos) << "nothing compared: " << refused.out;
  auto allowed = gpucheck({"compare", "--allow-mismatch", path("other.json"), path("ctx.json")});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out;
  EXPECT_NE(allowed.out.find("BM_UTest/9"), std::string::npos) << allowed.out;
  EXPECT_NE(allowed.out.find("WARN"), std::string::npos) << allowed.out;
}

TEST_F(BenchCompare, BadInputExitsTwoWithOneLine) {
  std::ofstream(path("not-bench.json")) << R"({"hello": 1})";
  std::ofstream(path("broken.json")) << R"({"benchmarks": [)";
  for (auto args : std::vector<std::vector<std::string>>{
           {"compare", path("missing.json"), path("missing.json")},
           {"compare", path("not-bench.json"), path("not-bench.json")},
           {"compare", path("broken.json"), path("broken.json")},
           {"compare", path("not-bench.json")},
           {"compare", "--threshold", "-1", path("not-bench.json"), path("not-bench.json")},
           {"compare", "--baseline-dir", path("missing-dir"), path("not-bench.json")},
           {"bench", "--suite", "no_such_suite", "--no-python", "--out", path("x.json")},
           {"bench", "--repetitions", "0", "--no-python", "--out", path("x.json")}}) {
    auto r = gpucheck(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST_F(BenchCompare, EveryGpuBenchmarkReportsWhyItSkipped) {
#ifndef GPUCHECK_HAVE_GPU_BENCH
  GTEST_SKIP() << "built without CUDA: the GPU suites are not built";
#else
  auto r = gpucheck({"bench", "--suite", "kernels_gpu", "--suite", "bmtrain_gpu", "--repetitions", "1",
                     "--no-python", "--out", path("gpu.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.describe() << r.err;
  auto doc = read_json_file(path("gpu.json"));
  int rows = 0, skipped = 0;
  for (const auto& row : doc["benchmarks"]) {
    ++rows;
    if (row.value("error_occurred", false)) {
      ++skipped;
      EXPECT_FALSE(row.value("error_message", "").empty()) << row.dump();
    } else {
      EXPECT_GT(row["real_time"].get<double>(), 0) << row.dump();
    }
  }
  EXPECT_GE(rows, 30) << "both GPU suites ran";
  auto report = nlohmann::json::parse(r.out);
  if (!nvidia_driver_loaded()) {
    EXPECT_EQ(skipped, rows) << "no GPU here: every GPU benchmark skips, none reports a number";
    for (const auto& f : report["sections"][0]["findings"]) {
      EXPECT_EQ(f["status"], "skip") << f.dump();
      EXPECT_GE(f["evidence"].size(), 2u) << "each benchmark's reason is evidence";
    }
  }
#endif
}

}  // namespace
}  // namespace gpucheck::test
