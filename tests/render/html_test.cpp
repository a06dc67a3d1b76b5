// The HTML report: escaping that leaves hostile text inert, SVG charts that are well-formed XML and drawn
// only from data present, and a whole page that parses as XML (xmllint), puts the verdict and what was
// tested first, and refers to nothing outside itself. Rendering in a real browser: html_chromium_test.sh.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "checks/acceptance/thresholds.h"
#include "checks/regression/comparison.h"
#include "core/measurement_details.h"
#include "core/subprocess.h"
#include "model/finding_details.h"
#include "render/html_charts.h"
#include "render/html_escape.h"
#include "render/render.h"
#include "render/svg_chart.h"

namespace gpucheck::render {
namespace {

const std::string kHostile = "<script>alert(1)</script> \"q\" 'a' & \x1b[2J\x1b]0;title\x07 \xff\xfe \xc0\xaf \xc2\x9b end";

// xmllint's verdict on `text` as a whole document: "" when well-formed, else its complaint.
std::string xml_problems(const std::string& text, const std::string& name) {
  auto p = std::filesystem::temp_directory_path() / ("gpucheck-html-" + std::to_string(getpid()) + "-" + name);
  std::ofstream(p, std::ios::binary) << text;
  auto r = run_subprocess({"xmllint", "--noout", "--nonet", p.string()});
  std::filesystem::remove(p);
  return r.ok() ? "" : r.describe() + "\n" + r.err;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool has_markup_from(const std::string& page, const std::string& needle_ci) {
  std::string lower = page;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find(needle_ci) != std::string::npos;
}

TEST(HtmlEscape, MarkupQuotesControlsAndBadUtf8BecomeInert) {
  EXPECT_EQ(html::escape("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&#39;d");
  EXPECT_EQ(html::escape("\x1b[2J"), "\u241b[2J");               // ESC shown as ␛, never obeyed
  EXPECT_EQ(html::escape(std::string("a\0b", 3)), "a\u2400b");    // NUL
  EXPECT_EQ(html::escape("\x7f"), "\u2421");
  EXPECT_EQ(html::escape("\xc2\x9b"), "\ufffd");                  // C1 CSI, valid UTF-8 but not XML text
  EXPECT_EQ(html::escape("\xff"), "\ufffd");
  EXPECT_EQ(html::escape("\xc0\xaf"), "\ufffd\ufffd");            // overlong '/': one U+FFFD per byte
  EXPECT_EQ(html::escape("\xed\xa0\x80"), "\ufffd\ufffd\ufffd");  // a UTF-16 surrogate
  EXPECT_EQ(html::escape("\xe2\x82"), "\ufffd\ufffd");            // cut short
  EXPECT_EQ(html::escape("\xef\xbf\xbe"), "\ufffd");              // U+FFFE, not a character
  EXPECT_EQ(html::escape("GPU \xc2\xb5s \xe2\x9c\x93 \xf0\x9f\x98\x80"), "GPU \xc2\xb5s \xe2\x9c\x93 \xf0\x9f\x98\x80");
  EXPECT_EQ(html::escape("line\n\tindent\r"), "line\n\tindent\u240d");
  EXPECT_EQ(html::escape_shortened("abcdef", 4), "abc\u2026");
  EXPECT_EQ(html::escape_shortened("a<c", 4), "a&lt;c");
  EXPECT_EQ(html::escape_shortened("abc", 0), "");
  // As XML text and as an attribute value, hostile input parses and stays text.
  const std::string e = html::escape(kHostile);
  EXPECT_EQ(xml_problems("<p title=\"" + e + "\" alt='" + e + "'>" + e + "</p>", "escape.xml"), "");
  EXPECT_EQ(e.find('<'), std::string::npos);
  EXPECT_EQ(e.find('\x1b'), std::string::npos);
}

TEST(SvgChart, LineChartIsWellFormedAndDropsWhatCannotBeDrawn) {
  svg::LineChart c;
  c.title = "busbw " + kHostile;
  c.x_label = "bytes";
  c.y_label = "GB/s";
  c.series.push_back({"all_reduce " + kHostile, {{1024, 1.5}, {4096, 5.0}, {1 << 20, 40.0}, {1 << 24, 44.0}}});
  c.series.push_back({"broadcast", {{2048, 2.0}, {1 << 22, 30.0}}});
  c.series.push_back({"one point", {{4096, 3.0}}});             // no line through one point
  c.series.push_back({"not finite", {{0, 1.0}, {1024, NAN}}});  // x = 0 has no log, NaN no place
  std::string s = svg::line_chart(c);
  EXPECT_EQ(xml_problems(s, "line.svg"), "") << s;
  EXPECT_EQ(count(s, "<polyline"), 2) << s;
  EXPECT_EQ(count(s, "<circle"), 6);
  EXPECT_NE(s.find(">1 KiB<"), std::string::npos) << s;  // log2 axis in binary units
  EXPECT_NE(s.find(">16 MiB<"), std::string::npos) << s;
  EXPECT_FALSE(has_markup_from(s, "<script"));
  EXPECT_EQ(s.find("one point"), std::string::npos);

  svg::LineChart empty = c;
  empty.series = {{"one point", {{4096, 3.0}}}};
  EXPECT_EQ(svg::line_chart(empty), "");  // omitted, never an empty frame
  empty.series.clear();
  EXPECT_EQ(svg::line_chart(empty), "");
}

TEST(SvgChart, BarChartDrawsReferencesTargetsAndSignedDeltas) {
  svg::BarChart g;
  g.title = "GEMM";
  g.unit = "TFLOP/s";
  g.reference_label = "datasheet peak";
  g.bars = {{"GPU 0 · fp16", 700, 989.0, "neutral"}, {"GPU 1 · fp16 " + kHostile, 350, 989.0, "bad"},
            {"GPU 2 · nan", NAN, std::nullopt, "neutral"}};
  std::string s = svg::bar_chart(g);
  EXPECT_EQ(xml_problems(s, "bars.svg"), "") << s;
  EXPECT_EQ(count(s, "<rect"), 2);  // the NaN bar is dropped
  EXPECT_EQ(count(s, "stroke-width=\"3\""), 2);  // one datasheet mark per bar
  EXPECT_NE(s.find("black mark: datasheet peak"), std::string::npos);
  EXPECT_NE(s.find("#c62828"), std::string::npos);  // the slow GPU drawn as bad

  svg::BarChart d;
  d.title = "deltas";
  d.unit = "%";
  d.signed_axis = true;
  d.bars = {{"slower", 12.5, std::nullopt, "bad"}, {"faster", -8, std::nullopt, "good"}};
  s = svg::bar_chart(d);
  EXPECT_EQ(xml_problems(s, "deltas.svg"), "") << s;
  EXPECT_NE(s.find(">+12.5 %<"), std::string::npos) << s;
  EXPECT_NE(s.find(">-8 %<"), std::string::npos) << s;
  // The faster bar ends left of zero, the slower one starts at zero.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(s, m, std::regex("<line x1=\"([0-9.]+)\" y1=\"36.0\"")));  // the zero axis
  const double zero = std::stod(m[1]);
  EXPECT_NEAR(zero, 250 + (720 - 110 - 250) / 2.0, 0.1);
  EXPECT_NE(s.find("<rect x=\"" + std::string(m[1]) + "\""), std::string::npos) << s;

  EXPECT_EQ(svg::bar_chart(svg::BarChart{}), "");
  EXPECT_EQ(svg::number_text(0.93245), "0.932");
  EXPECT_EQ(svg::number_text(45123.4), "45123");
  EXPECT_EQ(svg::bytes_text(1 << 20), "1 MiB");
  EXPECT_EQ(svg::bytes_text(1536), "1.5 KiB");
}

// A collectives sweep case key as src/collectives/plan.cpp writes it.
std::string fmt_key(const std::string& op, std::size_t count, const std::string& placement) {
  return "sweep." + op + "." + std::to_string(count) + "." + placement;
}

Finding probe(const std::string& id, Status s, const std::string& summary) {
  Finding f;
  f.id = id;
  f.status = s;
  f.summary = summary;
  return f;
}

model::Report run_report() {
  model::Report r;
  r.meta.command = "run";
  r.meta.tool_version = "1.2.3";
  r.meta.hostname = "node7" + kHostile;
  r.meta.started_at = "2026-12-01T12:16:43Z";
  r.meta.command_line = {"/opt/secret-prefix/bin/gpucheck", "run", "--level", "quick"};
  r.meta.level = "quick";
  r.meta.environment["LD_LIBRARY_PATH"] = "/secret/place/lib";
  r.details["gpu_probes"] = {"kernels.adam", "device.copy"};
  auto& probes = r.section("probes").findings;
  Finding copy = probe("device.copy", Status::kFail, "GPU 1 below its peers " + kHostile);
  copy.title = "copies " + kHostile;
  copy.evidence["measured"] = kHostile;
  copy.evidence["log"] = "line 1\nline 2 " + kHostile;
  copy.explanation = "why " + kHostile;
  copy.references = {"https://example.invalid/thread"};
  copy.add_fix("reseat the GPU " + kHostile, {"nvidia-smi -q -i 1 | head", "echo '" + kHostile + "'"}, "5 min");
  copy.devices.push_back({"1", Status::kFail, "2900 GB/s " + kHostile, {{"d2d_bandwidth", 2900, "GB/s", "higher"}}, {}});
  probes.push_back(copy);
  probes.push_back(probe("kernels.adam", Status::kPass, "fused Adam bit-exact"));
  Finding host = probe("host.info", Status::kPass, "Debian 12");
  host.metrics.push_back({"logical_cpus", 2, "count", ""});
  host.duration_s = 1.5;
  probes.push_back(host);
  r.notes.push_back("note " + kHostile);
  r.inventory = {{"driver", {{"present", true}, {"version", "580.65.06" + kHostile}, {"cuda_version", 13000}}},
                 {"gpus", {{{"name", "NVIDIA H200"}, {"cc_major", 9}, {"cc_minor", 0}}}}};
  return r;
}

std::string page(const model::Report& r) {
  std::ostringstream out;
  render(r, Format::kHtml, out, RenderOptions{});
  return out.str();
}

TEST(HtmlPage, HostileReportParsesAsXmlAndItsTextStaysText) {
  const std::string p = page(run_report());
  EXPECT_EQ(xml_problems(p, "page.xhtml"), "") << p;
  EXPECT_EQ(p.rfind("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"", 0), 0u);
  // The planted markup arrives as text everywhere: no element, no attribute breaks out.
  EXPECT_FALSE(has_markup_from(p, "<script"));
  EXPECT_GE(count(p, "&lt;script&gt;alert(1)&lt;/script&gt;"), 10);
  EXPECT_EQ(p.find('\x1b'), std::string::npos);
  EXPECT_EQ(p.find('\x07'), std::string::npos);
  EXPECT_NE(p.find("\u241b[2J"), std::string::npos);
  EXPECT_EQ(p.find("\xff"), std::string::npos);
  // The fix's commands verbatim (escaped), one per line in a <pre>, ready to copy.
  EXPECT_NE(p.find("<pre><code>nvidia-smi -q -i 1 | head\necho &#39;&lt;script&gt;"), std::string::npos) << p;
  EXPECT_NE(p.find("(5 min)"), std::string::npos);
  EXPECT_NE(p.find("<pre class=\"plain\">line 1\nline 2"), std::string::npos);  // multi-line evidence keeps lines
  // Nothing secret and no install path; nothing that loads or links out (a reference is text, not a link).
  EXPECT_EQ(p.find("/secret/place"), std::string::npos);
  EXPECT_EQ(p.find("/opt/secret-prefix"), std::string::npos);
  EXPECT_NE(p.find("<code>gpucheck run --level quick</code>"), std::string::npos);
  EXPECT_FALSE(std::regex_search(p, std::regex("(src|href)\\s*=\\s*[\"']?\\s*(https?:)?//", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(p, std::regex("url\\(|@import|<link|<img|<iframe|<object", std::regex::icase)));
  EXPECT_NE(p.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
}

TEST(HtmlPage, VerdictAndWhatWasTestedComeFirst) {
  std::string p = page(run_report());
  const auto body = p.find("<body>");
  const auto verdict = p.find("<div class=\"verdict\">FAIL</div>");
  ASSERT_NE(verdict, std::string::npos) << p;
  EXPECT_LT(verdict - body, 120u);  // the first thing in the body
  EXPECT_NE(p.find("GPU tested: 2 of 2 GPU probes at level quick ran (device.copy, kernels.adam)."), std::string::npos) << p;
  EXPECT_NE(p.find("Needs attention (1)"), std::string::npos);
  EXPECT_LT(verdict, p.find("id=\"stack\""));
  EXPECT_LT(p.find("id=\"stack\""), p.find("id=\"attention\""));
  EXPECT_LT(p.find("id=\"attention\""), p.find("id=\"checks\""));
  // Every probe with its status and metrics; the stack facts.
  for (auto* id : {"device.copy", "kernels.adam", "host.info"}) EXPECT_NE(p.find(std::string("<code>") + id + "</code>"), std::string::npos) << id;
  EXPECT_NE(p.find("logical_cpus 2 count"), std::string::npos);
  EXPECT_NE(p.find(">1.5 s<"), std::string::npos);
  EXPECT_NE(p.find("<dt>GPUs</dt><dd>1 x NVIDIA H200 (sm_90)</dd>"), std::string::npos) << p;

  // Every GPU probe skipped: the banner says so, whatever passed on the host.
  model::Report r = run_report();
  r.sections[0].findings[0] = probe("device.copy", Status::kSkip, "no usable GPU: cudaErrorInsufficientDriver (35)");
  r.sections[0].findings[1].status = Status::kSkip;
  p = page(r);
  EXPECT_NE(p.find("<div class=\"verdict\">NO GPU TESTED</div>"), std::string::npos) << p;
  EXPECT_NE(p.find("class=\"banner warn\""), std::string::npos);
  EXPECT_NE(p.find("None of the 2 GPU probes at level quick ran on a GPU (first reason: no usable "
                   "GPU: cudaErrorInsufficientDriver (35))."), std::string::npos) << p;
  EXPECT_NE(p.find("Host-side checks that ran: host.info."), std::string::npos);
  EXPECT_EQ(p.find("id=\"charts\""), std::string::npos);  // no chart data: no chart section, no menu entry
  EXPECT_EQ(p.find("href=\"#charts\""), std::string::npos);
  EXPECT_EQ(p.find("<svg"), std::string::npos);
}

TEST(HtmlPage, ChartsAppearExactlyWhereTheirDataAre) {
  model::Report r = run_report();
  Finding coll = probe("collectives.nccl", Status::kPass, "bit-exact");
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t bytes = 1024; bytes <= (1u << 22); bytes *= 4)
    for (auto placement : {"out", "in"})
      rows.push_back({{"key", fmt_key("all_reduce.sum.fp16", bytes / 2, placement)}, {"bytes", bytes},
                      {"busbw_gbps", 1e-6 * bytes}, {"algbw_gbps", 5e-7 * bytes}});
  rows.push_back({{"key", "layout.all_gather.grouped.out"}, {"bytes", 4096}, {"busbw_gbps", 99.0}});  // not a sweep
  coll.details = {{"world", 8}, {"rows", rows}};
  Finding gemm = probe("cublas.gemm", Status::kWarn, "GPU 1 slow");
  gemm.devices.push_back({"0", Status::kPass, "", {{"tflops_fp16", 700, "TFLOP/s", "higher"}}, {}});
  gemm.devices.push_back({"1", Status::kWarn, "", {{"tflops_fp16", 400, "TFLOP/s", "higher"}}, {}});
  Finding kern = probe("bench.unchanged", Status::kPass, "");
  kern.title = "BM_AdamFp16/16777216";
  kern.details["counters"] = regression::counters_details({{"ratio_to_copy", 0.9}}, {{"ratio_to_copy", 0.91}});
  r.section("probes").findings.push_back(coll);
  r.section("probes").findings.push_back(gemm);
  r.section("probes").findings.push_back(kern);
  const std::string p = page(r);
  EXPECT_EQ(xml_problems(p, "charts.xhtml"), "") << p;
  EXPECT_EQ(count(p, "<svg "), 3) << p;
  EXPECT_NE(p.find("all_reduce sum: bus bandwidth against message size (collectives.nccl)"), std::string::npos);
  EXPECT_NE(p.find(">fp16 out-of-place<"), std::string::npos);
  EXPECT_NE(p.find(">fp16 in-place<"), std::string::npos);
  EXPECT_EQ(count(p, "stroke-dasharray=\"6 4\""), 1);  // in-place dashed
  EXPECT_EQ(p.find("→ 99 "), std::string::npos);  // the grouped-layout case is no point of a sweep
  EXPECT_NE(p.find("GEMM TFLOP/s per GPU against the datasheet"), std::string::npos);
  EXPECT_NE(p.find("Kernels as a share of the bandwidth ceiling"), std::string::npos);
  EXPECT_EQ(p.find("Copy bandwidth"), std::string::npos);  // device.copy without its details: no copy chart
  EXPECT_EQ(p.find("against matrix size"), std::string::npos);  // cublas.gemm without its details: none
  EXPECT_NE(p.find("href=\"#charts\""), std::string::npos);

  // One rank: algbw, said so.
  r.sections[0].findings[3].details["world"] = 1;
  EXPECT_NE(page(r).find("all_reduce sum: algorithm bandwidth against message size"), std::string::npos);
}

// The charts read what the probes write: device.copy's and cublas.gemm's details made by the very functions
// the probes serialise with (core/measurement_details.h), the thresholds finding made by judge_thresholds
// against the installed device data, and a compare of two benchmark documents made by compare_documents.
TEST(HtmlPage, ChartsDrawTheDetailsTheProbesWrite) {
  model::Report r = run_report();
  r.section("probes").findings.clear();
  Finding copy = probe("device.copy", Status::kFail, "a copy delivered wrong data");
  std::vector<measured::CopyDevice> copies;
  for (std::string dev : {"0", "1"}) {
    DeviceFinding d{dev, dev == "1" ? Status::kFail : Status::kPass, "", {}, {}};
    d.metrics.push_back({"h2d_pinned_GBps", 52.5, "GB/s", "higher"});
    copy.devices.push_back(d);
    copies.push_back({dev,
                      {{"h2d_pinned", 52.5, 0.01, 52.0, 53.0, 10, 0, 63.0154},
                       {"d2h_pinned", 49.0, 0.02, 48.0, 50.0, 10, 0, 63.0154},
                       {"h2d_pageable", 20.1, 0.2, 15.0, 22.0, 10, 0, std::nullopt},
                       {"d2d", 1510.0, 0.001, 1505.0, 1512.0, 10, dev == "1" ? 3ull : 0ull, std::nullopt}}});
  }
  copy.details = measured::copy_details(copies, nlohmann::json::array(), 256u << 20, 10);
  Finding gemm = probe("cublas.gemm", Status::kPass, "correct");
  DeviceFinding g0{"0", Status::kPass, "", {{"tflops_fp16", 610.0, "TFLOP/s", "higher"}}, {}};
  gemm.devices.push_back(g0);
  measured::GemmTypeResult fp16{"fp16", {{"wrong", 0}}, {{"wrong", 0}}, {{4096, 480.0}, {8192, 590.0}, {16384, 610.0}}};
  measured::GemmTypeResult fp8{"fp8", nullptr, nullptr, {}};  // not run on this GPU: no line
  gemm.details = measured::gemm_details({{"0", {fp16, fp8}}}, {256, 256, 512}, {4096, 8192, 16384}, 5);
  acceptance::ThresholdInput in;
  in.findings = {gemm};
  in.gpus = {{"0", "", "", "NVIDIA H100 80GB HBM3", 0x2330}};
  in.catalog = acceptance::load_device_catalog(std::string(GPUCHECK_SOURCE_DIR) + "/data/devices",
                                               std::string(GPUCHECK_SOURCE_DIR) + "/data/links/pcie.json");
  auto judged = acceptance::judge_thresholds(in);
  ASSERT_EQ(judged.size(), 1u);
  ASSERT_TRUE(model::threshold_reference(judged[0], "0", "tflops_fp16")) << judged[0].details.dump(1);
  const double peak = *model::threshold_reference(judged[0], "0", "tflops_fp16");
  r.section("probes").findings = {copy, gemm};
  r.section("thresholds").findings = judged;
  const std::string p = page(r);
  EXPECT_EQ(xml_problems(p, "probe-charts.xhtml"), "") << p;
  EXPECT_EQ(count(p, "<svg "), 3) << p;
  EXPECT_NE(p.find("Copy bandwidth per GPU and direction (device.copy)"), std::string::npos) << p;
  EXPECT_NE(p.find(">GPU 1 · d2d<"), std::string::npos) << p;
  EXPECT_NE(p.find(">GPU 0 · h2d pageable<"), std::string::npos) << p;
  EXPECT_NE(p.find("theoretical rate (PCIe generation x width)"), std::string::npos) << p;
  EXPECT_NE(p.find("GEMM TFLOP/s per GPU against the datasheet"), std::string::npos) << p;
  EXPECT_NE(p.find("cuBLAS TFLOP/s against matrix size (cublas.gemm)"), std::string::npos) << p;
  EXPECT_NE(p.find(">GPU 0 fp16<"), std::string::npos) << p;
  EXPECT_EQ(p.find(">GPU 0 fp8<"), std::string::npos) << p;
  // One mark per host<->device bar of the copy chart (4) and one for the GEMM bar: the H100's fp16 peak.
  EXPECT_EQ(count(p, "stroke=\"#000000\" stroke-width=\"3\""), 5) << p;
  EXPECT_GT(peak, 610.0);

  // The kernel-share chart: a compare of two benchmark documents with the GPU benchmarks' counter.
  auto doc = [](double ms, double ratio) {
    nlohmann::json d{{"context", {{"date", "2026-12-01T10:00:00+00:00"}}}, {"benchmarks", nlohmann::json::array()}};
    for (int i = 0; i < 9; ++i)
      d["benchmarks"].push_back({{"name", "BM_AdamFp16/16777216/manual_time"}, {"run_name", "BM_AdamFp16/16777216/manual_time"},
                                 {"run_type", "iteration"}, {"repetitions", 9}, {"repetition_index", i},
                                 {"real_time", ms * (1 + 0.001 * i)}, {"cpu_time", ms}, {"time_unit", "ms"},
                                 {"ratio_to_copy", ratio}});
    return d;
  };
  regression::CompareOptions any_context;
  any_context.allow_mismatch = true;  // documents without `gpucheck bench`'s context
  auto cmp = regression::compare_documents(regression::parse_benchmark_document(doc(1.0, 0.93), "base.json"),
                                           regression::parse_benchmark_document(doc(1.0, 0.94), "new.json"),
                                           any_context);
  ASSERT_EQ(cmp.benchmarks.size(), 1u);
  model::Report c;
  c.meta.command = "compare";
  c.section("benchmarks").findings = cmp.benchmarks;
  const std::string cp = page(c);
  EXPECT_EQ(xml_problems(cp, "kernel-share.xhtml"), "") << cp;
  EXPECT_NE(cp.find("Kernels as a share of the bandwidth ceiling"), std::string::npos) << cp;
  EXPECT_NE(cp.find("0.94"), std::string::npos) << cp;  // NEW's ratio, not BASE's
}

TEST(HtmlPage, CompareReportDrawsItsDeltas) {
  model::Report r;
  r.meta.command = "compare";
  r.meta.hostname = "ci";
  r.details = {{"base", "base.json"}, {"new", "new.json"}};
  auto bench = [](const std::string& name, const std::string& verdict, double change, Status s) {
    Finding f = probe("bench." + verdict, s, "");
    f.title = name;
    f.details = {{"name", name + "/manual_time"}, {"verdict", verdict}, {"change", change}, {"p", 0.01},
                 {"base", {{"median_ns", 100.0}}}, {"new", {{"median_ns", 100.0 * (1 + change)}}}};
    return f;
  };
  r.section("benchmarks").findings = {bench("BM_Adam/fp16", "regression", 0.25, Status::kFail),
                                      bench("BM_Adam/bf16", "improvement", -0.1, Status::kInfo),
                                      bench("BM_Copy", "unchanged", 0.004, Status::kPass)};
  const std::string p = page(r);
  EXPECT_EQ(xml_problems(p, "compare.xhtml"), "") << p;
  EXPECT_NE(p.find("Median time change, new against base"), std::string::npos) << p;
  EXPECT_NE(p.find(">+25 %<"), std::string::npos) << p;
  EXPECT_NE(p.find(">-10 %<"), std::string::npos) << p;
  EXPECT_NE(p.find(">BM_Adam/fp16<"), std::string::npos);  // "/manual_time" dropped, as in the table
  EXPECT_NE(p.find("Compared benchmark documents: base base.json, new new.json."), std::string::npos) << p;
}

TEST(HtmlPage, NameParses) {
  EXPECT_EQ(parse_format("html"), Format::kHtml);
}

}  // namespace
}  // namespace gpucheck::render
