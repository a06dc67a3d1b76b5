#pragma once
// `gpucheck explain`'s Report, from what commands::explain read and the engine concluded: section "causes"
// (under the one registry's ids), section "environment" when the input held an environment report (judged
// by the doctor's rules), the input facts in details.
#include <optional>
#include <string>
#include <vector>

#include "checks/explain/explanation.h"
#include "inventory/model.h"
#include "knowledge/knowledge_base.h"
#include "model/report.h"

namespace gpucheck::report {

struct ExplainOutcome {
  explain::Explanation explanation;
  std::string log;                                  // the input's name (a path, or "-")
  std::optional<inventory::Inventory> pasted;       // an environment report inside the input
  std::string pasted_kind;                          // "collect_env", "xformers.info+pip list", ...
  std::optional<knowledge::KnowledgeBase> knowledge;   // the doctor's rules, loaded when `pasted`
  bool build_log = false;                           // a cause came from a build signature: the goal is a build
  std::vector<std::string> notes;                   // what the command noted (environment used, ...)
  std::optional<inventory::Inventory> inventory;    // what the fixes quoted (none: null)
};

/// Fills `rep` (metadata already stamped): section "causes" (each status info, or one "unknown" status
/// fail), details {input, environment_report}, notes, the inventory the fixes used.
model::Report explain_report(ExplainOutcome o, model::Report rep);

}  // namespace gpucheck::report
