#pragma once
// `gpucheck doctor`'s Report, built in one place: the rules' Findings in section "findings" (errors
// first) and, with --for, section "plan": one Finding for the plan itself (id "plan.<package>", its
// verdict in summary and details, the install paths as its ranked fixes), then the plan's own findings.
// Report.inventory is the judged inventory, Report.notes its notes, Report.details {inventory_source,
// knowledge_base}.
#include <optional>
#include <string>
#include <vector>

#include "inventory/model.h"
#include "knowledge/knowledge_base.h"
#include "model/report.h"

namespace gpucheck::report {

/// What `doctor` is asked to plan: `--for` specifiers, `-r` requirements files and `-c` constraints files.
struct PlanRequest {
  std::vector<std::string> specs;         // "bmtrain>=0.2.1", "torch<2.0.0,>=1.10"
  std::vector<std::string> requirements;  // requirements.txt paths
  std::vector<std::string> constraints;   // constraints.txt paths
  bool empty() const { return specs.empty() && requirements.empty() && constraints.empty(); }
};

/// With a PlanRequest: section "plan" holds "plan.<package>" (one package asked) or "plan.requirements",
/// whose fixes are the planner's ranked plans (checks/planner) and whose details add {asked, plans,
/// conflicts, notes}; "plan.conflict" when no plan exists; then each asked extension's install.* findings.
model::Report doctor_report(model::Report base, const inventory::Inventory& inv, const knowledge::KnowledgeBase& kb,
                     const PlanRequest& request, const std::string& inventory_source);

/// Judges `inv` with `kb`; with `request` ("bmtrain==0.2.2") also plans that install. `base` carries the
/// metadata (cli: new_report("doctor", g)); `inventory_source` says where the facts came from ("live",
/// "--from FILE", ...). Throws InputError for a bad request (exit 2), before any rule runs. Reading the
/// inventory and the knowledge base is commands/doctor.cpp's.
model::Report doctor_report(model::Report base, const inventory::Inventory& inv, const knowledge::KnowledgeBase& kb,
                     const std::optional<std::string>& request, const std::string& inventory_source);

/// The doctor over an inventory read from a pasted report (inventory_from_collect_env): verdicts and fix
/// steps that would quote a toolkit path the report does not have are left out (a note counts them).
model::Report doctor_report_pasted(model::Report base, const inventory::Inventory& inv, const knowledge::KnowledgeBase& kb,
                            const PlanRequest& request,
                            const std::string& inventory_source);

}  // namespace gpucheck::report
