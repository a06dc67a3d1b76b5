#include "render/html_charts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "model/details.h"
#include "model/finding_details.h"
#include "core/measurement_details.h"
#include "core/text.h"
#include "render/compare_rows.h"
#include "render/svg_chart.h"

namespace gpucheck::render::html {
namespace {

// "sweep.all_reduce.sum.fp16.1048576.out" -> chart "all_reduce sum", line "fp16 out-of-place": one chart per
// collective (a dozen lines in one frame cannot be told apart), one line per dtype and placement.
std::pair<std::string, std::string> sweep_chart_and_series(const std::string& key) {
  std::vector<std::string> parts;
  for (const auto& part : split(key.substr(6), '.'))
    if (!part.empty() && part.find_first_not_of("0123456789") != std::string::npos) parts.push_back(part);
  if (parts.size() < 3) return {join(parts, " "), "all"};
  const std::string placement = parts.back() == "out" ? "out-of-place" : parts.back() == "in" ? "in-place" : parts.back();
  const std::string dtype = parts[parts.size() - 2];
  parts.resize(parts.size() - 2);
  return {join(parts, " "), dtype + " " + placement};
}

void collectives_busbw(const model::Report& r, std::vector<Chart>& out) {
  for (const auto* f : r.findings()) {
    const model::Sweep sweep = model::sweep_of(*f);
    const bool bus = sweep.bus_bandwidth;
    std::vector<std::string> charts;                                   // in first-seen order
    std::map<std::string, std::vector<svg::Series>> series_of_chart;
    for (const auto& point : sweep.points) {
      const std::string& key = point.key;
      if (key.rfind("sweep.", 0) != 0) continue;
      const double y = point.gbps, x = point.bytes;
      // Not a structured binding: C++17 lambdas cannot capture one (clang refuses, scripts/sanitize builds with it).
      const auto chart_and_series = sweep_chart_and_series(key);
      const std::string& chart = chart_and_series.first;
      const std::string& name = chart_and_series.second;
      if (!series_of_chart.count(chart)) charts.push_back(chart);
      auto& list = series_of_chart[chart];
      auto it = std::find_if(list.begin(), list.end(), [&](const svg::Series& s) { return s.name == name; });
      if (it == list.end()) {
        list.push_back({name, {}, name.find("in-place") != std::string::npos});
        it = list.end() - 1;
      }
      it->points.emplace_back(x, y);
    }
    for (const auto& chart : charts) {
      svg::LineChart c;
      c.title = chart + ": " + (bus ? "bus bandwidth" : "algorithm bandwidth") + " against message size (" + f->id + ")";
      c.x_label = "message size (bytes, log scale)";
      c.y_label = bus ? "busbw GB/s" : "algbw GB/s";
      c.series = series_of_chart[chart];
      std::string drawn = svg::line_chart(c);
      if (drawn.empty()) continue;
      out.push_back({"chart-busbw-" + std::to_string(out.size()), c.title,
                     bus ? "nccl-tests' busbw (bytes over time, times the collective's bus factor); a healthy fabric "
                           "rises to a plateau. Dashed: in-place."
                         : "One rank has no bus: algorithm bandwidth (bytes over time) instead of busbw. Dashed: in-place.",
                     drawn});
    }
  }
}

std::string direction_label(const std::string& direction) {
  std::string s = direction;
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;  // "h2d pinned"
}

// device.copy's details (core/measurement_details.h): one bar per GPU and direction, the median GB/s,
// marked with the link's theoretical rate where the probe knew it (host<->device copies).
void copy_bandwidth(const model::Report& r, std::vector<Chart>& out) {
  for (const auto* f : r.findings()) {
    if (f->id != "device.copy") continue;
    svg::BarChart c;
    c.title = "Copy bandwidth per GPU and direction (" + f->id + ")";
    c.unit = "GB/s";
    c.reference_label = "the link's theoretical rate (PCIe generation x width)";
    for (const auto& dev : measured::read_copy_details(f->details)) {
      std::string tone = "neutral";
      for (const auto& d : f->devices)
        if (d.device == dev.device && (d.status == Status::kFail || d.status == Status::kError)) tone = "bad";
      for (const auto& d : dev.directions)
        c.bars.push_back({"GPU " + dev.device + " · " + direction_label(d.direction), d.median_GBps, d.link_GBps,
                          d.wrong_words ? "bad" : tone});
    }
    std::string drawn = svg::bar_chart(c);
    if (!drawn.empty())
      out.push_back({"chart-copy-" + std::to_string(out.size()), c.title,
                     "Median GB/s (1e9 bytes per second) of each copy; the mark is the link's theoretical rate, "
                     "which a healthy link reaches 0.8-0.9 of with pinned memory.", drawn});
  }
}

// compare reports of the GPU kernel benchmarks (bench/kernels): NEW's ratio_to_copy counter per benchmark.
void kernel_share(const model::Report& r, std::vector<Chart>& out) {
  svg::BarChart c;
  c.title = "Kernels as a share of the bandwidth ceiling";
  c.unit = "× copy";
  c.target = 1.0;
  c.target_label = "a device-to-device copy of the same bytes";
  for (const auto* f : r.findings()) {
    auto ratio = model::benchmark_new_counter(*f, "ratio_to_copy");
    if (!ratio) continue;
    const std::string tone = f->status == Status::kFail || f->status == Status::kError ? "bad" : "neutral";
    c.bars.push_back({f->title.empty() ? f->id : f->title, *ratio, std::nullopt, tone});
  }
  std::string drawn = svg::bar_chart(c);
  if (!drawn.empty())
    out.push_back({"chart-kernel-share", c.title,
                   "Time of a copy of the bytes the kernel cannot avoid moving, over the kernel's time: 1 is the "
                   "memory bandwidth ceiling.", drawn});
}

// cublas.gemm's and stress.gemm's TFLOP/s metrics per GPU, marked with the datasheet figure the thresholds
// held each against (their `thresholds.<probe id>` finding, rule reference_share) where the run has one.
void gemm_tflops(const model::Report& r, std::vector<Chart>& out) {
  svg::BarChart c;
  c.title = "GEMM TFLOP/s per GPU against the datasheet";
  c.unit = "TFLOP/s";
  c.reference_label = "datasheet peak";
  const auto all = r.findings();
  // Each finding's thresholds.<id> by name: scanning every finding for each one made `report --html` of
  // 20,000 findings take 41 s (reliability-3 N4). The last of an id wins, as the scan had it.
  std::unordered_map<std::string, const Finding*> judged_by_id;
  for (const auto* t : all)
    if (t->id.rfind("thresholds.", 0) == 0) judged_by_id[t->id.substr(11)] = t;
  for (const auto* f : all) {
    if (f->id.rfind("thresholds.", 0) == 0) continue;
    auto found = judged_by_id.find(f->id);
    const Finding* judged = found == judged_by_id.end() ? nullptr : found->second;
    for (const auto& d : f->devices)
      for (const auto& m : d.metrics) {
        if (m.unit != "TFLOP/s") continue;
        std::optional<double> peak = judged ? model::threshold_reference(*judged, d.device, m.name) : std::nullopt;
        const std::string tone = d.status == Status::kFail ? "bad" : d.status == Status::kWarn ? "warn" : "neutral";
        c.bars.push_back({"GPU " + d.device + " · " + m.name, m.value, peak, tone});
      }
  }
  std::string drawn = svg::bar_chart(c);
  if (!drawn.empty())
    out.push_back({"chart-gemm", c.title,
                   "Median TFLOP/s measured on each GPU; the mark is the product's datasheet peak for that type "
                   "(data/devices/), where the thresholds knew the product.", drawn});
}

// cublas.gemm's details (core/measurement_details.h): TFLOP/s against the matrix size, one line per GPU
// and type, drawn when some type ran at two sizes or more (level quick times one).
void gemm_sizes(const model::Report& r, std::vector<Chart>& out) {
  for (const auto* f : r.findings()) {
    if (f->id != "cublas.gemm") continue;
    svg::LineChart c;
    c.title = "cuBLAS TFLOP/s against matrix size (" + f->id + ")";
    c.x_label = "n of an n x n x n product";
    c.x_bytes = false;
    c.y_label = "TFLOP/s";
    bool any_line = false;
    for (const auto& dev : measured::read_gemm_details(f->details))
      for (const auto& t : dev.types) {
        if (t.throughput.empty()) continue;
        svg::Series series;
        series.name = "GPU " + dev.device + " " + t.type;
        for (const auto& p : t.throughput) series.points.emplace_back(double(p.n), p.tflops_median);
        any_line = any_line || series.points.size() > 1;
        c.series.push_back(std::move(series));
      }
    if (!any_line) continue;
    std::string drawn = svg::line_chart(c);
    if (!drawn.empty())
      out.push_back({"chart-gemm-sizes-" + std::to_string(out.size()), c.title,
                     "Median TFLOP/s of the timed products at each size; a healthy GPU rises towards its peak.", drawn});
  }
}

void compare_deltas(const model::Report& r, std::vector<Chart>& out) {
  if (!std::holds_alternative<model::CompareDetails>(model::details_of(r))) return;
  svg::BarChart c;
  c.title = "Median time change, new against base";
  c.unit = "%";
  c.signed_axis = true;
  for (const auto& row : compare::rows(r)) {
    if (!row.finding) continue;
    const double change = 100 * row.change;  // NaN (not compared): no bar
    const std::string tone = row.verdict == "regression" ? "bad" : row.verdict == "improvement" ? "good"
                             : row.verdict == "undecidable" ? "warn" : "neutral";
    c.bars.push_back({row.name, change, std::nullopt, tone});
  }
  std::string drawn = svg::bar_chart(c);
  if (!drawn.empty())
    out.push_back({"chart-compare", c.title,
                   "Right of zero is slower (red: a regression the U test confirms), left is faster (green: an "
                   "improvement); grey is within noise.", drawn});
}

}  // namespace

std::vector<Chart> report_charts(const model::Report& r) {
  std::vector<Chart> out;
  collectives_busbw(r, out);
  copy_bandwidth(r, out);
  kernel_share(r, out);
  gemm_tflops(r, out);
  gemm_sizes(r, out);
  compare_deltas(r, out);
  return out;
}

}  // namespace gpucheck::render::html
