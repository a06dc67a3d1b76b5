#pragma once
// `gpucheck compare`'s own part of its Report (Report.details), typed: written by report/compare_report.cpp
// (from what commands::compare read), read by the verdict, the Markdown and the HTML scope through this struct, never by key.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace gpucheck::model {

struct CompareDetails {
  std::string mode;                  // pair, baseline-dir, history; "" when the baseline was never picked
  std::string new_document;          // NEW's file
  std::vector<std::string> base;     // BASE's file, or the history's documents (mode history); none when none
  std::string key;                   // NEW's gpucheck context key
  double threshold = 0.05, alpha = 0.01;
  std::map<std::string, int> counts;  // benchmark verdict -> how many (regression, improvement, ...)
  std::optional<bool> refused;        // the contexts differ and nothing was compared; unset when not compared
};

nlohmann::json to_json(const CompareDetails& d);
/// The compare details of `r`; lenient: a missing or mistyped field keeps its default.
CompareDetails compare_details(const model::Report& r);

}  // namespace gpucheck::model
