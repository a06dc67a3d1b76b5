#pragma once
// The charts of the HTML report, each drawn from data a Report already carries (svg_chart draws them).
// A chart whose data are absent is not returned. What each one reads:
//   collectives busbw (algbw for one rank) against message size: a finding's details.rows[] with a key
//     "sweep.*", "bytes" and "busbw_gbps"/"algbw_gbps" (collectives.nccl; details.world picks which);
//   copy bandwidth per GPU and direction: device.copy's details as the probe writes them (read with
//     core/measurement_details.h), marked with each link's theoretical rate;
//   kernels as a share of the bandwidth ceiling: NEW's "ratio_to_copy" counter of each benchmark of a
//     compare report (model::benchmark_new_counter; 1 = as fast as a device-to-device copy of the same bytes);
//   GEMM TFLOP/s per GPU against the datasheet: device metrics in "TFLOP/s", marked with the reference the
//     run's thresholds.<probe id> finding held each against (model::threshold_reference);
//   cuBLAS TFLOP/s against size: cublas.gemm's details.devices[].throughput[] (core/measurement_details.h);
//   compare deltas: the median-time change of every compared benchmark (the "benchmarks" section).
#include <string>
#include <vector>

#include "model/report.h"

namespace gpucheck::render::html {

struct Chart {
  std::string id;       // anchor in the page: "chart-busbw"
  std::string title;
  std::string caption;  // how to read it, one sentence
  std::string svg;      // the <svg> element, labels escaped
};

std::vector<Chart> report_charts(const model::Report& r);

}  // namespace gpucheck::render::html
