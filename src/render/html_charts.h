#pragma once
// The charts of the HTML report, each drawn from data a Report already carries (svg_chart draws them).
// A chart whose data are absent is not returned. What each one reads:
//   collectives busbw (algbw for one rank) against message size: a finding's details.rows[] with a key
//     "sweep.*", "bytes" and "busbw_gbps"/"algbw_gbps" (collectives.nccl; details.world picks which);
//   copy bandwidth against size: a "device.copy*" finding's details.rows[] with "bytes", "gbps" and a
//     "label" (or "direction") naming the series;
//   kernels as a share of the bandwidth ceiling: every metric named "ratio_to_copy" (1 = as fast as a
//     device-to-device copy of the bytes the kernel must move);
//   GEMM TFLOP/s per GPU against the datasheet: device metrics in "TFLOP/s", with the peak from the
//     finding's details.datasheet_tflops[metric name] where present;
//   compare deltas: the median-time change of every compared benchmark (the "benchmarks" section).
#include <string>
#include <vector>

#include "report/report.h"

namespace gpucheck::render::html {

struct Chart {
  std::string id;       // anchor in the page: "chart-busbw"
  std::string title;
  std::string caption;  // how to read it, one sentence
  std::string svg;      // the <svg> element, labels escaped
};

std::vector<Chart> report_charts(const report::Report& r);

}  // namespace gpucheck::render::html
