#pragma once
// `gpucheck diff A.json B.json`: what differs between two saved inventories, as a Report.
#include <string>

#include "model/report.h"

namespace gpucheck::report {

/// Section "differences": one Finding per differing fact (checks/diff). details {a, b: {file, hostname,
/// collected_at}, differences, that_matter}. Throws InputError when a file holds no inventory.
Report diff_report(const std::string& a, const std::string& b, Report rep = {});

}  // namespace gpucheck::report
