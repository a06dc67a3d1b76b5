#pragma once
// The details JSON of the measuring probes, in one definition: device.copy and cublas.gemm write their
// Finding.details with these functions (probes/device_copy, probes/cublas_gemm) and the HTML report's
// charts read them back with these readers (render/html_charts.cpp), so a chart cannot look for a shape
// that no probe writes. The shapes:
//   device.copy   {devices: {<GPU>: {<direction>: {median_GBps, cv, min_GBps, max_GBps, runs, wrong_words,
//                  [link_GBps, link_ratio]}}}, p2p: [{src, dst, peer_access, [median_GBps, cv, wrong_words]}],
//                  bytes_per_copy, runs, gigabyte_bytes}      direction: h2d_pinned, d2h_pinned, h2d_pageable,
//                  d2h_pageable, d2d
//   cublas.gemm   {devices: {<GPU>: [{type, [exact], [random], [throughput: [{n, tflops_median}]]}]},
//                  check_shape, sizes, repetitions}
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::measured {

// ---- device.copy ----
struct CopyDirection {
  std::string direction;  // "h2d_pinned", ..., "d2d" (the metric name without _GBps)
  double median_GBps = 0, cv = 0, min_GBps = 0, max_GBps = 0;
  std::size_t runs = 0;
  unsigned long long wrong_words = 0;
  std::optional<double> link_GBps;  // the link's theoretical rate, host<->device copies only
};
struct CopyDevice {
  std::string device;  // CUDA ordinal, as DeviceFinding.device
  std::vector<CopyDirection> directions;
};

nlohmann::json copy_direction_json(const CopyDirection& d);
/// `p2p`: the pairs array as device.copy builds it (each pair's numbers are its own).
nlohmann::json copy_details(const std::vector<CopyDevice>& devices, nlohmann::json p2p, std::size_t bytes_per_copy,
                            int runs);
/// What of `details` has the shape above (anything else is left out, never thrown on): devices in the
/// document's order, directions in it with a numeric median_GBps.
std::vector<CopyDevice> read_copy_details(const nlohmann::json& details);

// ---- cublas.gemm ----
struct GemmSize {
  std::int64_t n = 0;
  double tflops_median = 0;
};
struct GemmTypeResult {
  std::string type;                // "fp16"
  nlohmann::json exact, random;    // the correctness checks' numbers; null when the type did not run
  std::vector<GemmSize> throughput;  // sizes that ran
};
struct GemmDevice {
  std::string device;
  std::vector<GemmTypeResult> types;
};

nlohmann::json gemm_type_json(const GemmTypeResult& t);
nlohmann::json gemm_details(const std::vector<GemmDevice>& devices, const nlohmann::json& check_shape,
                            const std::vector<std::int64_t>& sizes, int repetitions);
std::vector<GemmDevice> read_gemm_details(const nlohmann::json& details);

}  // namespace gpucheck::measured
