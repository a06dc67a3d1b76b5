#pragma once
// gpucheck's own commands, which judge nothing: `list` (read the probe catalog), `version` (this build),
// `report FILE` (read a saved report to render again).
#include <string>

#include "model/report.h"

namespace gpucheck::commands {

/// The probes of the installed catalog, one Finding each.
model::Report list(model::Report base);

/// The version and what this build supports.
model::Report version(model::Report base);

/// The report saved in `path` (any command's, schema 2 or 1). Throws InputError naming the file for
/// anything that is not a readable gpucheck report.
model::Report saved_report(const std::string& path);

}  // namespace gpucheck::commands
