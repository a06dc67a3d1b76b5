#pragma once
// `gpucheck diff`'s own part of its Report (Report.details), typed: written by report/diff_report.cpp, read by
// the verdict and the text renderer through this struct, never by key.
#include <string>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace gpucheck::model {

struct DiffSide {
  bool present = false;  // false: the report names no such side (a document from elsewhere)
  std::string file, hostname, collected_at;
};

struct DiffDetails {
  DiffSide a, b;
  int differences = 0;  // facts that differ
  int that_matter = 0;  // of them, those that can break something (status fail)
};

nlohmann::json to_json(const DiffDetails& d);
/// The diff details of `r`. Lenient, since a saved report may come from anywhere: a missing or mistyped
/// field keeps its default (a count that is not a whole number from 0 is 0).
DiffDetails diff_details(const model::Report& r);

}  // namespace gpucheck::model
