// gpucheck bench's suite runner against real child processes that behave and misbehave: a suite that is
// not built, fails, hangs, prints garbage or matches nothing is classified, never fatal; the suite list
// refuses executables outside the bench directory.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "runner/bench_suites.h"

namespace gpucheck::runner {
namespace {

namespace fs = std::filesystem;

class BenchSuites : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("gpucheck-bench-suites-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  BenchSuite script(const std::string& name, const std::string& body) {
    fs::path p = dir / name;
    std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
    chmod(p.c_str(), 0755);
    BenchSuite s;
    s.name = name;
    s.executable = p.string();
    s.timeout_s = 5;
    return s;
  }
  fs::path dir;
};

TEST_F(BenchSuites, EveryOutcomeIsClassified) {
  const std::string doc = R"({"context":{"date":"d","executable":"x"},"benchmarks":[{"name":"BM_A","run_type":"iteration","real_time":1,"time_unit":"ns"}]})";
  std::vector<BenchSuite> suites = {
      script("good", "echo '" + doc + "'"),
      script("fails", "echo 'cannot open libfoo.so' >&2; exit 1"),
      script("garbage", "echo 'this is not json'"),
      script("nothing", "echo 'Failed to match any benchmarks against regex: NOPE' >&2"),
      script("hangs", "exec sleep 30"),
  };
  BenchSuite missing;
  missing.name = "missing";
  missing.executable = (dir / "not-built").string();
  suites.push_back(missing);
  BenchOptions o;
  o.timeout_s = 1;
  auto runs = run_bench_suites(suites, o);
  ASSERT_EQ(runs.size(), 6u);
  using O = SuiteRun::Outcome;
  EXPECT_EQ(runs[0].outcome, O::kRan);
  EXPECT_EQ(runs[1].outcome, O::kFailed);
  EXPECT_NE(runs[1].reason.find("exit 1"), std::string::npos) << runs[1].reason;
  EXPECT_NE(runs[1].reason.find("cannot open libfoo.so"), std::string::npos) << runs[1].reason;
  EXPECT_EQ(runs[2].outcome, O::kFailed);
  EXPECT_NE(runs[2].reason.find("is not valid JSON"), std::string::npos) << runs[2].reason;
  EXPECT_EQ(runs[3].outcome, O::kNoMatch);
  EXPECT_NE(runs[3].reason.find("Failed to match"), std::string::npos);
  EXPECT_EQ(runs[4].outcome, O::kFailed);
  EXPECT_NE(runs[4].reason.find("timed out"), std::string::npos) << runs[4].reason;
  EXPECT_EQ(runs[5].outcome, O::kNotBuilt);

  nlohmann::json merged = merge_suite_documents(runs, {{"key", "k"}});
  EXPECT_EQ(merged["context"]["gpucheck"]["key"], "k");
  EXPECT_EQ(merged["context"]["date"], "d");
  EXPECT_FALSE(merged["context"].contains("executable"));
  EXPECT_EQ(merged["context"]["suites"]["good"], suites[0].executable);
  ASSERT_EQ(merged["benchmarks"].size(), 1u);
  EXPECT_EQ(merged["benchmarks"][0]["suite"], "good");
}

TEST_F(BenchSuites, ArgumentsAndSelection) {
  BenchSuite s;
  s.executable = "/x/bench_a";
  BenchOptions o;
  o.repetitions = 5;
  o.filter = "BM_A/.*";
  o.min_time_s = 0.05;
  EXPECT_EQ(suite_argv(s, o), (std::vector<std::string>{"/x/bench_a", "--benchmark_format=json", "--benchmark_repetitions=5",
                                                         "--benchmark_filter=BM_A/.*", "--benchmark_min_time=0.05"}));
  o.only = {"kernelz"};
  s.name = "kernels";
  try {
    run_bench_suites({s}, o);
    FAIL() << "an unknown suite is bad input";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("suites: kernels"), std::string::npos) << e.what();
  }
}

TEST_F(BenchSuites, TheSuiteListNamesPlainFilesOnly) {
  auto list = [&](const std::string& text) {
    std::ofstream(dir / "suites.json") << text;
    return load_bench_suites((dir / "suites.json").string(), "/opt/bin");
  };
  auto ok = list(R"({"suites":[{"name":"a","executable":"bench_a","gpu":true}]})");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].executable, "/opt/bin/bench_a");
  EXPECT_TRUE(ok[0].gpu);
  EXPECT_THROW(list(R"({"suites":[{"name":"a","executable":"../../bin/sh"}]})"), InputError);
  EXPECT_THROW(list(R"({"suites":[{"name":"a","executable":"x"},{"name":"a","executable":"y"}]})"), InputError);
  EXPECT_THROW(list(R"({"suites":[{"name":"a"}]})"), InputError);
  EXPECT_THROW(list(R"({"suites":)"), InputError);
  // The installed list parses, and names the suites bench/ builds.
  auto real = load_bench_suites(std::string(GPUCHECK_SOURCE_DIR) + "/data/bench/suites.json", "/b");
  EXPECT_GE(real.size(), 8u);
}

}  // namespace
}  // namespace gpucheck::runner
