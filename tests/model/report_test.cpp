#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "platform/environment.h"
#include "model/report.h"

namespace gpucheck::report {
namespace {

Finding with(Status s) {
  Finding r;
  r.id = "x.y";
  r.status = s;
  return r;
}

TEST(Summary, ExitCodes) {
  EXPECT_EQ(model::summarize({with(Status::kPass), with(Status::kSkip)}, {false}).exit_code, 0);
  EXPECT_EQ(model::summarize({with(Status::kPass), with(Status::kSkip)}, {true}).exit_code, 1);
  EXPECT_EQ(model::summarize({with(Status::kPass), with(Status::kWarn)}, {true}).exit_code, 0);
  EXPECT_EQ(model::summarize({with(Status::kFail)}, {false}).exit_code, 1);
  EXPECT_EQ(model::summarize({with(Status::kError), with(Status::kPass)}, {false}).exit_code, 3);
  EXPECT_EQ(model::summarize({with(Status::kError), with(Status::kSkip)}, {true}).exit_code, 3);
  EXPECT_EQ(model::summarize({with(Status::kError), with(Status::kFail)}, {false}).exit_code, 1);  // a known failure wins
  auto s = model::summarize({with(Status::kPass), with(Status::kPass), with(Status::kError)}, {false});
  EXPECT_EQ(s.counts.at("pass"), 2);
  EXPECT_EQ(s.counts.at("error"), 1);
  EXPECT_EQ(s.counts.at("warn"), 0);
  EXPECT_EQ(s.verdict, "NO VERDICT");
}

Finding probe(const std::string& id, Status s) {
  Finding r = with(s);
  r.id = id;
  return r;
}

// A run whose GPU probes all skipped passed on the host only: the verdict says so, the exit code keeps
// the policy (0, or 1 with --strict), and one GPU probe that ran gives the plain PASS back.
TEST(Summary, RunWithoutAnyGpuProbeRunningIsNotAPass) {
  model::Report r;
  r.details["gpu_probes"] = {"device.runtime", "kernels.adam"};
  r.section("probes").findings = {probe("host.info", Status::kPass), probe("device.runtime", Status::kSkip),
                                  probe("kernels.adam", Status::kSkip)};
  EXPECT_EQ(model::summarize(r).verdict, "NO GPU TESTED");
  EXPECT_EQ(model::summarize(r).exit_code, 0);
  EXPECT_EQ(to_json(r)["summary"]["verdict"], "NO GPU TESTED");
  r.meta.exit.strict = true;
  EXPECT_EQ(model::summarize(r).verdict, "FAIL");
  EXPECT_EQ(model::summarize(r).exit_code, 1);
  r.meta.exit.strict = false;
  r.section("probes").findings[1].status = Status::kPass;
  EXPECT_EQ(model::summarize(r).verdict, "PASS");
  r.details.erase("gpu_probes");  // commands other than run have no GPU probes: nothing changes
  r.section("probes").findings[1].status = Status::kSkip;
  EXPECT_EQ(model::summarize(r).verdict, "PASS");
}

TEST(Summary, WarnAndErrorCanCountAsFailures) {  // abi: --strict, and an unusable object met in a directory
  EXPECT_EQ(model::summarize({with(Status::kWarn)}, {false, /*warn_fails=*/true}).exit_code, 1);
  EXPECT_EQ(model::summarize({with(Status::kError), with(Status::kPass)}, {false, false, /*error_fails=*/true}).exit_code, 1);
  EXPECT_EQ(model::summarize({with(Status::kError)}, {false, false, true}).verdict, "FAIL");
  EXPECT_EQ(model::summarize({with(Status::kWarn)}, {false, false, true}).exit_code, 0);
  model::Report r;
  r.meta.exit.error_fails = true;
  r.section("targets").findings = {with(Status::kError)};
  EXPECT_EQ(model::exit_code(r), 1);
  EXPECT_EQ(to_json(r)["error_fails"], true);
  EXPECT_TRUE(model::report_from_json(to_json(r)).meta.exit.error_fails);
}

TEST(Environment, OnlyAllowListedAndSecretsRedacted) {
  const char* env[] = {"CUDA_HOME=/usr/local/cuda-12.1", "NCCL_DEBUG=INFO", "HOME=/root",
                       "AWS_SECRET_ACCESS_KEY=abc", "NCCL_IB_AUTH_TOKEN=s3cret", "LD_LIBRARY_PATH=/x",
                       "GITHUB_TOKEN=ghp_x", "MALFORMED", nullptr};
  auto out = platform::allowed_environment(const_cast<char**>(env));
  EXPECT_EQ(out.at("CUDA_HOME"), "/usr/local/cuda-12.1");
  EXPECT_EQ(out.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(out.at("LD_LIBRARY_PATH"), "/x");
  EXPECT_EQ(out.at("NCCL_IB_AUTH_TOKEN"), "<redacted>");
  EXPECT_EQ(out.count("HOME"), 0u);
  EXPECT_EQ(out.count("AWS_SECRET_ACCESS_KEY"), 0u);
  EXPECT_EQ(out.count("GITHUB_TOKEN"), 0u);
  EXPECT_EQ(out.size(), 4u);
}

TEST(Environment, SecretsAreRedactedByNameAndByValueShape) {
  const char* env[] = {"NCCL_PASS=hunter2", "NCCL_IB_PSK=0xdeadbeef", "PYTORCH_HUB_PAT=abc", "GPUCHECK_SESSION=s1",
                       "PYTHONPATH=/opt/lib:https://user:pa55@example.invalid/simple:/x",
                       "PYTORCH_INDEX=https://example.invalid/whl?token=abc123&arch=cu121",
                       "NCCL_SOCKET_IFNAME=ghp_0123456789abcdefghijABCDEFGHIJ012345",
                       "NCCL_DEBUG_FILE=/tmp/nccl.%h.%p",
                       "GPUCHECK_X=aB3dE5fG7hJ9kL1mN3pQ5rS7tV9wX1yZ3",
                       "CUDA_VISIBLE_DEVICES=GPU-8f3c1a2b-4d5e-6f70-8192-a3b4c5d6e7f8",
                       "PATH=/usr/local/cuda-12.1/bin:/usr/bin", nullptr};
  auto out = platform::allowed_environment(const_cast<char**>(env));
  EXPECT_EQ(out.at("NCCL_PASS"), "<redacted>");
  EXPECT_EQ(out.at("NCCL_IB_PSK"), "<redacted>");
  EXPECT_EQ(out.at("PYTORCH_HUB_PAT"), "<redacted>");
  EXPECT_EQ(out.at("GPUCHECK_SESSION"), "<redacted>");
  EXPECT_EQ(out.at("PYTHONPATH"), "/opt/lib:https://<redacted>@example.invalid/simple:/x");
  EXPECT_EQ(out.at("PYTORCH_INDEX"), "https://example.invalid/whl?token=<redacted>&arch=cu121");
  EXPECT_EQ(out.at("NCCL_SOCKET_IFNAME"), "<redacted>");
  EXPECT_EQ(out.at("NCCL_DEBUG_FILE"), "/tmp/nccl.%h.%p");
  EXPECT_EQ(out.at("GPUCHECK_X"), "<redacted>");
  // Identifiers, paths and versions are what a report is for: kept.
  EXPECT_EQ(out.at("CUDA_VISIBLE_DEVICES"), "GPU-8f3c1a2b-4d5e-6f70-8192-a3b4c5d6e7f8");
  EXPECT_EQ(out.at("PATH"), "/usr/local/cuda-12.1/bin:/usr/bin");
  EXPECT_FALSE(platform::looks_secret("LD_LIBRARY_PATH"));
  EXPECT_FALSE(platform::looks_secret("CUDA_PATH"));
}

TEST(ReportJson, RoundTrips) {
  model::Report r;
  r.meta.tool_version = "0.1.0";
  r.meta.hostname = "node1";
  r.meta.level = "quick";
  r.meta.exit.strict = true;
  Finding a = with(Status::kFail);
  a.add_metric("busbw", 180.5, "GB/s", "higher");
  a.evidence["k"] = "v";
  a.add_fix("do this");
  DeviceFinding d;
  d.device = "0";
  d.status = Status::kFail;
  a.devices.push_back(d);
  r.section("probes").findings.push_back(a);
  auto j = to_json(r);
  EXPECT_EQ(j["summary"]["exit_code"], 1);
  model::Report back = model::report_from_json(j);
  ASSERT_EQ(back.sections.at(0).findings.size(), 1u);
  EXPECT_EQ(back.sections.at(0).findings[0].metrics[0].better, "higher");
  EXPECT_EQ(back.sections.at(0).findings[0].devices[0].status, Status::kFail);
  EXPECT_TRUE(back.meta.exit.strict);
}

// read_report_file makes each finding a Finding while the file is parsed (its JSON tree dropped at once):
// what it reads is what report_from_json reads from the whole tree, section by section, in order; a
// finding that is no finding is still bad input, and so is a sections array of another shape.
TEST(ReportJson, ReadingAFileFindingByFindingGivesTheSameReport) {
  model::Report r;
  r.meta.tool_version = "0.1.0";
  r.meta.hostname = "node1";
  for (const char* section : {"findings", "plan", "empty"}) {
    r.section(section);
    if (std::string(section) == "empty") continue;
    for (int i = 0; i < 3; ++i) {
      Finding f = with(i ? Status::kPass : Status::kWarn);
      f.id = std::string(section) + "." + std::to_string(i);
      f.evidence["nested"] = "sections";  // a key named like the path, deeper down, changes nothing
      f.details = {{"findings", {{{"id", "not.a.finding"}}}}};
      r.section(section).findings.push_back(f);
    }
  }
  r.inventory = {{"sections", {{{"findings", {{{"id", "inventory.is.no.section"}}}}}}}};
  const std::string file = ::testing::TempDir() + "/streamed-report.json";
  std::ofstream(file) << to_json(r).dump(1);
  const model::Report read = model::read_report_file(file);
  const model::Report whole = model::report_from_json(to_json(r));
  EXPECT_EQ(to_json(read), to_json(whole));
  ASSERT_EQ(read.sections.size(), 3u);
  EXPECT_EQ(read.sections[1].findings.at(2).id, "plan.2");
  EXPECT_TRUE(read.sections[2].findings.empty());
  EXPECT_EQ(read.inventory, r.inventory);
  auto refused = [&](const std::string& text) -> std::string {
    std::ofstream(file) << text;
    try {
      model::read_report_file(file);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string head = R"({"kind":"gpucheck.report","tool":{"version":"1"},"host":"h","sections":)";
  EXPECT_NE(refused(head + R"([{"name":"a","findings":[{"id":"x","status":"pass"},{"id":"y","status":"sideways"}]}]})"), "");
  EXPECT_NE(refused(head + R"([{"name":"a","findings":[{"id":"x","status":"pass"},7]}]})"), "");
  EXPECT_NE(refused(head + R"([3,{"name":"a","findings":[]}]})"), "");
  EXPECT_NE(refused(head + R"({"name":"a","findings":[]}})"), "");
  EXPECT_EQ(refused(head + R"([{"name":"a","findings":[{"id":"x","status":"pass"}]}]})"), "");
  std::remove(file.c_str());
}

TEST(ReportJson, RejectsOtherDocuments) {
  EXPECT_THROW(model::report_from_json(nlohmann::json::parse(R"({"kind":"other"})")), InputError);
  // A "kind" of another type is bad input too, not a type_error (found by the `report` fuzz target).
  for (const char* kind : {R"({"kind":{"schema_version":"2.0","gpus":[]}})", R"({"kind":7})", R"({"kind":null})"})
    EXPECT_THROW(model::report_from_json(nlohmann::json::parse(kind)), InputError) << kind;
  EXPECT_THROW(model::report_from_json(nlohmann::json::parse(R"({"kind":"gpucheck.report","tool":{}})")), InputError);
  auto bad_status = nlohmann::json::parse(
      R"({"kind":"gpucheck.report","tool":{"version":"1"},"host":"h","results":[{"id":"a.b","status":"meh"}]})");
  EXPECT_THROW(model::report_from_json(bad_status), InputError);
  // A fix rank that is no whole number (1e300: get<int>() of it is undefined behaviour) is bad input too.
  model::Report r;
  Finding f;
  f.id = "a.b";
  f.add_fix("do this");
  r.section("findings").findings.push_back(f);
  nlohmann::json j = to_json(r);
  EXPECT_NO_THROW(model::report_from_json(j));
  for (const char* rank : {"1e300", "1.5", "-3"}) {
    j["sections"][0]["findings"][0]["fixes"][0]["rank"] = nlohmann::json::parse(rank);
    EXPECT_THROW(model::report_from_json(j), InputError) << rank;
  }
}

TEST(ReportJson, ReadsSchemaOneAndKeepsEvidenceOrder) {
  auto v1 = nlohmann::json::parse(R"({"kind":"gpucheck.report","tool":{"version":"0.1"},"host":"h",
      "results":[{"id":"a.b","status":"fail","evidence":{"k":"v"},"remedy":["do this"]}]})");
  model::Report r = model::report_from_json(v1);
  ASSERT_NE(r.find_section("probes"), nullptr);
  const Finding& f = r.find_section("probes")->findings.at(0);
  EXPECT_EQ(f.evidence.at("k"), "v");
  ASSERT_EQ(f.fixes.size(), 1u);
  EXPECT_EQ(f.fixes[0].rank, 1);
  EXPECT_EQ(f.fixes[0].summary, "do this");
  EXPECT_EQ(model::exit_code(r), 1);

  Finding g;
  g.evidence["z"] = "1";
  g.evidence["a"] = "2";
  g.evidence["z"] = "3";  // sets, does not add
  ASSERT_EQ(g.evidence.size(), 2u);
  EXPECT_EQ(g.evidence[0].what, "z");
  EXPECT_EQ(g.evidence[0].value, "3");
  nlohmann::json j = g;
  EXPECT_EQ(j["evidence"][1]["what"], "a");
}

TEST(Summary, InfoIsNeitherFailureNorSkip) {
  model::Report r;
  r.meta.exit.strict = true;
  r.section("findings").findings.push_back(with(Status::kInfo));
  EXPECT_EQ(model::exit_code(r), 0);
  EXPECT_EQ(model::summarize(r).counts.at("info"), 1);
  EXPECT_LT(severity(Status::kPass), severity(Status::kInfo));
  EXPECT_LT(severity(Status::kInfo), severity(Status::kSkip));
}

TEST(ReportPath, NeverReusesAName) {
  std::string dir = "/tmp/gpucheck-path-" + std::to_string(getpid());
  std::string first = model::write_report_file(dir, "h", "20260101T000000Z", "{}");
  EXPECT_EQ(first, dir + "/h-20260101T000000Z.json");
  EXPECT_EQ(model::write_report_file(dir, "h", "20260101T000000Z", "{}"), dir + "/h-20260101T000000Z-2.json");
  EXPECT_THROW(model::write_report_file("", "h", "20260101T000000Z", "{}"), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::report
