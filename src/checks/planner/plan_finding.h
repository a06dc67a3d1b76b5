#pragma once
// The planner's answer as Findings for doctor's "plan" section: the ranked plans as the fixes of one
// finding, and, when no plan exists, the pins that cannot hold together.
#include <string>
#include <vector>

#include "checks/planner/resolver.h"
#include "core/finding.h"

namespace gpucheck::planner {

/// details.plans: [{rank, torch: {version, cuda, index_url, installed}, packages: [{name, version, build}],
/// wheel, constraints, notes}], details.asked, details.conflicts: [{pins, reasons}].
nlohmann::json result_details(const Result& r);

/// Each plan as a ranked Fix (its summary, exact commands, cost).
std::vector<Fix> plan_fixes(const Result& r);

/// "plan.conflict" (fail): the asks and machine facts that cannot all hold, one evidence line per pin.
Finding conflict_finding(const Result& r);

}  // namespace gpucheck::planner
