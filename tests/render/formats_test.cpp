// The report formats for other tools, each checked by that tool's own validator: JUnit XML by xmllint
// against the Ant format's schema, Prometheus text by promtool, Markdown by what a reader must (and must
// not) find in it. The report is hostile on purpose: markup, quotes, pipes, newlines, ESC and invalid UTF-8.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/subprocess.h"
#include "render/render.h"

namespace gpucheck::render {
namespace {

const std::string kHostile = "a<b>&\"c'|d\n\x1b[2Jline two \xff end";

model::Report sample_report() {
  model::Report r;
  r.meta.command = "run";
  r.meta.tool_version = "1.2.3";
  r.meta.hostname = "node7";
  r.meta.started_at = "2026-12-01T12:16:43Z";
  r.meta.finished_at = "2026-12-01T12:17:00Z";
  r.meta.command_line = {"/opt/gpucheck/bin/gpucheck", "run", "--level", "quick"};
  r.meta.level = "quick";
  r.meta.environment["NCCL_IB_PSK"] = "<redacted>";
  r.meta.environment["LD_LIBRARY_PATH"] = "/secret/place/lib";
  auto& probes = r.section("probes").findings;
  Finding copy;
  copy.id = "device.copy";
  copy.status = Status::kFail;
  copy.title = "copies";
  copy.summary = "GPU 1 below its peers";
  copy.duration_s = 2.5;
  copy.metrics.push_back({"d2d_bandwidth", 4300.5, "GB/s", "higher"});
  copy.devices.push_back({"0", Status::kPass, "4301 GB/s", {{"d2d_bandwidth", 4301, "GB/s", "higher"}}, {}});
  copy.devices.push_back({"1", Status::kFail, "2900 GB/s " + kHostile, {{"d2d_bandwidth", 2900, "GB/s", "higher"}}, {}});
  copy.evidence["measured"] = kHostile;
  copy.add_fix("reseat the GPU " + kHostile, {"nvidia-smi -q -i 1 | head"});
  probes.push_back(copy);
  Finding skipped;
  skipped.id = "kernels.adam";
  skipped.status = Status::kSkip;
  skipped.summary = "no usable GPU: cudaErrorInsufficientDriver (35)";
  probes.push_back(skipped);
  Finding broken;
  broken.id = "collectives.nccl";
  broken.status = Status::kError;
  broken.summary = "timed out after 900 s";
  probes.push_back(broken);
  Finding fine;
  fine.id = "host.info";
  fine.status = Status::kPass;
  fine.summary = "Debian 12";
  fine.metrics.push_back({"odd", std::numeric_limits<double>::quiet_NaN(), "", ""});
  probes.push_back(fine);
  r.inventory = {{"driver", {{"present", true}, {"version", "580.65.06"}, {"cuda_version", 13000}}},
                 {"gpus", {{{"name", "NVIDIA H200"}, {"cc_major", 9}, {"cc_minor", 0}},
                           {{"name", "NVIDIA H200"}, {"cc_major", 9}, {"cc_minor", 0}}}},
                 {"pythons", {{{"executable", "/venv/bin/python"}, {"version", "3.12.3"},
                               {"torch_version", "2.11.0"}, {"torch_cuda", "13.0"}}}}};
  return r;
}

std::string rendered(Format f) {
  std::ostringstream out;
  render(sample_report(), f, out, RenderOptions{});
  return out.str();
}

std::filesystem::path written(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / ("gpucheck-formats-" + std::to_string(getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Formats, JunitIsValidAntXmlWithACasePerProbeAndDevice) {
  std::string xml = rendered(Format::kJunit);
  auto file = written("junit.xml", xml);
  auto r = run_subprocess({"xmllint", "--noout", "--schema", std::string(GPUCHECK_TEST_DATA) + "/schemas/junit-ant.xsd",
                           file.string()});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err << "\n" << xml;
  EXPECT_EQ(count(xml, "<testcase "), 6);  // 4 findings + 2 devices of device.copy
  EXPECT_NE(xml.find("tests=\"6\" failures=\"2\" errors=\"1\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"device.copy[1]\""), std::string::npos);
  EXPECT_NE(xml.find("timestamp=\"2026-12-01T12:16:43\""), std::string::npos);
  EXPECT_EQ(xml.find('\x1b'), std::string::npos);  // no control byte, even escaped as a character reference
  EXPECT_EQ(xml.find("/secret/place"), std::string::npos);
}

TEST(Formats, PrometheusPassesPromtoolAndCarriesTheNumbers) {
  std::string prom = rendered(Format::kPrometheus);
  SubprocessOptions o;
  o.stdin_data = prom;
  auto r = run_subprocess({"promtool", "check", "metrics"}, o);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err << "\n" << prom;
  EXPECT_NE(prom.find("gpucheck_check_status{section=\"probes\",check=\"device.copy\",status=\"fail\"} 4"),
            std::string::npos) << prom;
  EXPECT_NE(prom.find("gpucheck_check_metric{check=\"device.copy\",device=\"1\",metric=\"d2d_bandwidth\","
                      "unit=\"GB/s\"} 2900"), std::string::npos) << prom;
  EXPECT_NE(prom.find("metric=\"odd\",unit=\"\"} NaN"), std::string::npos) << prom;
  EXPECT_NE(prom.find("gpucheck_report_timestamp_seconds{command=\"run\"} 1796127420"), std::string::npos) << prom;
  EXPECT_NE(prom.find("driver=\"580.65.06\""), std::string::npos);
  EXPECT_NE(prom.find("gpus=\"2 x NVIDIA H200 (sm_90)\""), std::string::npos) << prom;
  EXPECT_NE(prom.find("gpucheck_exit_code{command=\"run\"} 1"), std::string::npos);
}

TEST(Formats, MarkdownShowsTheStackAndTheFixesButNoEnvironment) {
  std::string md = rendered(Format::kMarkdown);
  EXPECT_EQ(md.rfind("### gpucheck run on node7: FAIL\n", 0), 0u) << md;
  EXPECT_NE(md.find("`gpucheck run --level quick`"), std::string::npos) << md;  // never the install path
  EXPECT_EQ(md.find("/opt/gpucheck"), std::string::npos);
  EXPECT_NE(md.find("| torch | 2.11.0 (CUDA 13.0) |"), std::string::npos) << md;
  EXPECT_NE(md.find("**FAIL** `device.copy`: copies"), std::string::npos) << md;
  EXPECT_NE(md.find("   nvidia-smi -q -i 1 | head\n"), std::string::npos) << md;  // commands verbatim, in a block
  EXPECT_NE(md.find("- device 1: fail 2900 GB/s"), std::string::npos) << md;
  // Table cells keep the table: no raw pipe or line break from the data.
  for (auto& line : std::vector<std::string>{"| fail | `device.copy` | GPU 1 below its peers |",
                                             "| skip | `kernels.adam` | no usable GPU: cudaErrorInsufficientDriver (35) |"})
    EXPECT_NE(md.find(line), std::string::npos) << line << "\n" << md;
  EXPECT_EQ(md.find("/secret/place"), std::string::npos);
  EXPECT_EQ(md.find("NCCL_IB_PSK"), std::string::npos);
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
}

TEST(Formats, NamesParse) {
  EXPECT_EQ(parse_format("markdown"), Format::kMarkdown);
  EXPECT_EQ(parse_format("md"), Format::kMarkdown);
  EXPECT_EQ(parse_format("junit"), Format::kJunit);
  EXPECT_EQ(parse_format("prom"), Format::kPrometheus);
  EXPECT_EQ(parse_format("html"), Format::kHtml);
  EXPECT_EQ(parse_format("pdf"), std::nullopt);
}

// One reason shared by several skips is written once, in every format that tabulates the checks (the
// terminal groups them too); a JUnit failure's message is the finding's title, never empty.
TEST(Formats, RepeatedSkipReasonsAreOneRowAndJunitFailuresCarryTheTitle) {
  model::Report r = sample_report();
  const std::string reason = "no usable GPU: cudaErrorInsufficientDriver (35)";  // kernels.adam's already
  for (const char* id : {"kernels.lamb", "kernels.softmax", "kernels.cross_entropy"}) {
    Finding f;
    f.id = id;
    f.status = Status::kSkip;
    f.summary = reason;
    r.section("probes").findings.push_back(f);
  }
  for (Format f : {Format::kMarkdown, Format::kHtml}) {
    std::ostringstream out;
    render(r, f, out, RenderOptions{});
    EXPECT_EQ(count(out.str(), reason), 1) << out.str();
    EXPECT_NE(out.str().find("kernels.cross_entropy"), std::string::npos) << "every id is still listed";
  }
  std::ostringstream junit;
  render(r, Format::kJunit, junit, RenderOptions{});
  EXPECT_NE(junit.str().find("<failure message=\"copies\""), std::string::npos) << junit.str();
  EXPECT_EQ(junit.str().find("message=\"\""), std::string::npos) << junit.str();
}

}  // namespace
// A report read back from another node may carry any number where gpucheck writes a small whole one: a float
// such as 6.7e77 converted to int is undefined behaviour (UBSan in the sanitizer lane, fuzz.report). The
// stack facts show what they can and leave out what is no count.
TEST(Formats, NumbersOutOfRangeInAReadBackInventoryAreLeftOut) {
  model::Report r = sample_report();
  r.inventory["driver"]["cuda_version"] = 6.7e77;
  r.inventory["gpus"][0]["cc_major"] = -4;
  r.inventory["gpus"][1]["cc_minor"] = 1e300;
  for (Format f : {Format::kMarkdown, Format::kPrometheus, Format::kHtml}) {  // the formats with stack facts
    std::ostringstream out;
    render(r, f, out, RenderOptions{});
    EXPECT_EQ(out.str().find("sm_-"), std::string::npos) << out.str();
    EXPECT_EQ(out.str().find("CUDA (driver)"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("NVIDIA H200 (sm_00)"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("NVIDIA H200 (sm_90)"), std::string::npos) << out.str();
  }
}

}  // namespace gpucheck::render
