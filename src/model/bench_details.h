#pragma once
// `gpucheck bench`'s own part of its Report (Report.details), typed: written by report/bench_report.cpp
// (from what commands::bench did), read by the HTML page's scope through this struct, never by key.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace gpucheck::model {

struct SkippedBenchmark {
  std::string suite, name, reason;
};

struct BenchDetails {
  std::string document;     // the benchmark document written
  std::string key;          // its context key (what a later compare matches on)
  nlohmann::json context;   // regression::to_json(Context): the machine and software the times belong to
  std::optional<int> benchmarks;  // benchmarks in all suites, skipped ones included; unset when not told
  std::vector<SkippedBenchmark> skipped;
};

nlohmann::json to_json(const BenchDetails& d);
/// The bench details of `r`; lenient: a missing or mistyped field keeps its default.
BenchDetails bench_details(const model::Report& r);

}  // namespace gpucheck::model
