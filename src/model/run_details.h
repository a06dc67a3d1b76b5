#pragma once
// `gpucheck run`'s own part of its Report (Report.details), typed: written by commands/run.cpp, read by the
// verdict (NO GPU TESTED) and the HTML page's scope through this struct, never by key.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace gpucheck::model {

struct RunDetails {
  std::vector<std::string> gpu_probes;  // the selected probes tagged `gpu`: all skipped = NO GPU TESTED
};

nlohmann::json to_json(const RunDetails& d);
/// The run details of `r`; lenient: entries that are not strings are left out.
RunDetails run_details(const model::Report& r);

}  // namespace gpucheck::model
