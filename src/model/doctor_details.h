#pragma once
// `gpucheck doctor`'s own part of its Report (Report.details), typed: written by report/doctor_report.cpp,
// read by the text renderer through this struct, never by key.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/finding.h"
#include "model/report.h"

namespace gpucheck::model {

/// The Python environment whose packages were judged, and why that one.
struct JudgedPython {
  std::string interpreter, executable, version, prefix;
  std::string kind;        // venv, conda, system, ...
  std::string chosen_by;   // the rule that picked it: "--python", "$VIRTUAL_ENV", ...
  std::string torch;       // torch's version; "" when torch is not installed
  std::string torch_cuda;  // the CUDA torch was built for; "" for a CPU build or no torch
};

struct DoctorDetails {
  std::string inventory_source;  // "this machine", "--from F", ...
  std::string knowledge_base;    // the directory of the knowledge base judged against
  std::optional<JudgedPython> python;  // none when no Python environment was found
};

nlohmann::json to_json(const DoctorDetails& d);
/// The doctor details of `r`; lenient: a missing or mistyped field keeps its default.
DoctorDetails doctor_details(const report::Report& r);

/// Whether `f` is the install plan's own Finding (the first of section "plan"; planner::plan_finding
/// writes its verdict into details), not one of the plan's notes.
bool is_install_plan(const Finding& f);

}  // namespace gpucheck::model
