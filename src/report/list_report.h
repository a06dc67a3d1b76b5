#pragma once
// `gpucheck list`: the probes this installation has, as a Report.
#include <vector>

#include "model/report.h"
#include "runner/catalog.h"

namespace gpucheck::report {

/// Section "probes": one info Finding per probe (id, title, summary = its description) with details
/// {levels, timeout_s, tags, executable}.
model::Report list_report(const std::vector<runner::ProbeSpec>& catalog, model::Report rep = {});

}  // namespace gpucheck::report
