#pragma once
// `gpucheck doctor`'s own part of its Report (Report.details), typed: written by report/doctor_report.cpp,
// read by the text renderer through this struct, never by key.
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
DoctorDetails doctor_details(const model::Report& r);

/// Whether `f` is the install plan's own Finding (the first of section "plan"; planner::plan_finding
/// writes its verdict into details), not one of the plan's notes.
bool is_install_plan(const Finding& f);

/// One install path of the plan (planner::result_details' plans[i]), best first: what the text's brief
/// compares with the best path.
struct InstallPath {
  std::string torch_version, torch_cuda;  // torch_cuda "" for a CPU build
  bool torch_installed = false;           // keeps the torch already installed
  std::vector<std::pair<std::string, std::string>> packages;  // (name, version), install order
};
/// The plan's paths, lenient like the readers above: a path without its fields keeps the defaults.
std::vector<InstallPath> install_paths(const Finding& plan);

}  // namespace gpucheck::model
