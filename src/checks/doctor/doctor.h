#pragma once
// `gpucheck doctor`'s verdicts: every rule over one inventory, as Findings (errors first). The install plan
// for --for is install_plan.h; report/doctor_report.h puts both into the command's Report.
#include <vector>

#include "checks/doctor/doctor_context.h"
#include "core/finding.h"

namespace gpucheck::doctor {

/// Every rule's findings about the installed stack: failures first, then warnings, then info.
std::vector<Finding> diagnose(const DoctorContext& ctx);

}  // namespace gpucheck::doctor
