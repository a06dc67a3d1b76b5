#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "report/report.h"

namespace gpucheck::report {
namespace {

Result with(Status s) {
  Result r;
  r.id = "x.y";
  r.status = s;
  return r;
}

TEST(Summary, ExitCodes) {
  EXPECT_EQ(summarize({with(Status::kPass), with(Status::kSkip)}, false).exit_code, 0);
  EXPECT_EQ(summarize({with(Status::kPass), with(Status::kSkip)}, true).exit_code, 1);
  EXPECT_EQ(summarize({with(Status::kPass), with(Status::kWarn)}, true).exit_code, 0);
  EXPECT_EQ(summarize({with(Status::kFail)}, false).exit_code, 1);
  EXPECT_EQ(summarize({with(Status::kError), with(Status::kPass)}, false).exit_code, 3);
  EXPECT_EQ(summarize({with(Status::kError), with(Status::kSkip)}, true).exit_code, 3);
  EXPECT_EQ(summarize({with(Status::kError), with(Status::kFail)}, false).exit_code, 1);  // a known failure wins
  auto s = summarize({with(Status::kPass), with(Status::kPass), with(Status::kError)}, false);
  EXPECT_EQ(s.counts.at("pass"), 2);
  EXPECT_EQ(s.counts.at("error"), 1);
  EXPECT_EQ(s.counts.at("warn"), 0);
  EXPECT_EQ(s.verdict, "NO VERDICT");
}

TEST(Environment, OnlyAllowListedAndSecretsRedacted) {
  const char* env[] = {"CUDA_HOME=/usr/local/cuda-12.1", "NCCL_DEBUG=INFO", "HOME=/root",
                       "AWS_SECRET_ACCESS_KEY=abc", "NCCL_IB_AUTH_TOKEN=s3cret", "LD_LIBRARY_PATH=/x",
                       "GITHUB_TOKEN=ghp_x", "MALFORMED", nullptr};
  auto out = allowed_environment(const_cast<char**>(env));
  EXPECT_EQ(out.at("CUDA_HOME"), "/usr/local/cuda-12.1");
  EXPECT_EQ(out.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(out.at("LD_LIBRARY_PATH"), "/x");
  EXPECT_EQ(out.at("NCCL_IB_AUTH_TOKEN"), "<redacted>");
  EXPECT_EQ(out.count("HOME"), 0u);
  EXPECT_EQ(out.count("AWS_SECRET_ACCESS_KEY"), 0u);
  EXPECT_EQ(out.count("GITHUB_TOKEN"), 0u);
  EXPECT_EQ(out.size(), 4u);
}

TEST(ReportJson, RoundTrips) {
  Report r;
  r.meta.tool_version = "0.1.0";
  r.meta.hostname = "node1";
  r.meta.level = "quick";
  r.meta.strict = true;
  Result a = with(Status::kFail);
  a.add_metric("busbw", 180.5, "GB/s", "higher");
  a.evidence["k"] = "v";
  a.remedy = {"do this"};
  DeviceResult d;
  d.device = "0";
  d.status = Status::kFail;
  a.devices.push_back(d);
  r.results.push_back(a);
  auto j = to_json(r);
  EXPECT_EQ(j["summary"]["exit_code"], 1);
  Report back = report_from_json(j);
  ASSERT_EQ(back.results.size(), 1u);
  EXPECT_EQ(back.results[0].metrics[0].better, "higher");
  EXPECT_EQ(back.results[0].devices[0].status, Status::kFail);
  EXPECT_TRUE(back.meta.strict);
}

TEST(ReportJson, RejectsOtherDocuments) {
  EXPECT_THROW(report_from_json(nlohmann::json::parse(R"({"kind":"other"})")), InputError);
  EXPECT_THROW(report_from_json(nlohmann::json::parse(R"({"kind":"gpucheck.report","tool":{}})")), InputError);
  auto bad_status = nlohmann::json::parse(
      R"({"kind":"gpucheck.report","tool":{"version":"1"},"host":"h","results":[{"id":"a.b","status":"meh"}]})");
  EXPECT_THROW(report_from_json(bad_status), InputError);
}

TEST(ReportPath, NeverReusesAName) {
  std::string dir = "/tmp/gpucheck-path-" + std::to_string(getpid());
  std::string first = default_report_path(dir, "h", "20260101T000000Z");
  EXPECT_EQ(first, dir + "/h-20260101T000000Z.json");
  std::filesystem::create_directories(dir);
  { std::ofstream(first) << "{}"; }
  EXPECT_EQ(default_report_path(dir, "h", "20260101T000000Z"), dir + "/h-20260101T000000Z-2.json");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::report
