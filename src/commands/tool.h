#pragma once
// gpucheck's own commands, which judge nothing: `list` (read the probe catalog), `version` (this build),
// `report FILE` (read a saved report to render again).
#include <string>

#include "model/report.h"

namespace gpucheck::commands {

/// The probes of the installed catalog, one Finding each.
report::Report list(report::Report base);

/// The version and what this build supports.
report::Report version(report::Report base);

/// The report saved in `path` (any command's, schema 2 or 1). Throws InputError naming the file for
/// anything that is not a readable gpucheck report.
report::Report saved_report(const std::string& path);

}  // namespace gpucheck::commands
