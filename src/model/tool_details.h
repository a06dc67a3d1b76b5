#pragma once
// The reports of gpucheck's own commands, which judge nothing: `version` (what this build supports),
// `list` (the probe catalog), `completion` and `man` (files for a program). Typed: written by report/ and
// commands/, read by the renderers through these structs, never by key.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/finding.h"
#include "model/report.h"

namespace gpucheck::model {

struct VersionDetails {
  std::string version, cuda_compiler, cuda_architectures;
  bool cuda = false, nccl = false, torch = false;  // built with each
};
nlohmann::json to_json(const VersionDetails& d);
VersionDetails version_details(const model::Report& r);

/// `list`: the probes are its Findings (section "probes"); nothing beyond them.
struct ListDetails {};

/// One probe of `list`, from its Finding.details (report/list_report.cpp writes them with to_json).
struct ProbeListing {
  std::vector<std::string> levels, tags;
  double timeout_s = 0;
  std::string executable;
};
nlohmann::json to_json(const ProbeListing& p);
ProbeListing probe_listing(const Finding& f);

/// `completion SHELL`: the script, exactly as generated.
struct CompletionDetails {
  std::string shell, script;
};
nlohmann::json to_json(const CompletionDetails& d);
CompletionDetails completion_details(const model::Report& r);

/// `man`: the page in roff, exactly as generated.
struct ManDetails {
  std::string format = "roff", page;
};
nlohmann::json to_json(const ManDetails& d);
ManDetails man_details(const model::Report& r);

}  // namespace gpucheck::model
