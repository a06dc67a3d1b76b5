#pragma once
// `gpucheck doctor`: every rule over one inventory, plus the install plan for --for.
#include <optional>
#include <string>
#include <vector>

#include "checks/doctor/finding.h"
#include "checks/doctor/install_plan.h"
#include "knowledge/knowledge_base.h"
#include "inventory/model.h"

namespace gpucheck::compat {

struct DoctorReport {
  std::string inventory_source;  // "--from FILE", "live", "--root DIR"
  std::string knowledge_base;    // directory the facts came from
  std::vector<Finding> findings; // errors first, then warnings, then info
  std::optional<InstallPlan> plan;
  std::vector<std::string> toolkits;  // every toolkit found, for the reader
  std::vector<std::string> notes;     // what the inventory could not look up (its own notes)

  int errors() const;
  int warnings() const;
  /// 0 when no finding (including the plan's) is an error, else 1.
  int exit_code() const;
};

/// Runs every rule; with `request`, also plans that package's installation.
DoctorReport run_doctor(const inventory::Inventory& inv, const KnowledgeBase& kb,
                        const std::optional<std::string>& request = std::nullopt);

nlohmann::json to_json(const DoctorReport& r);
/// The terminal rendering: one block per finding with evidence, explanation and numbered fixes.
std::string render_text(const DoctorReport& r, bool color, bool verbose);

}  // namespace gpucheck::compat
