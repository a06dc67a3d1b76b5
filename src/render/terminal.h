#pragma once
// `run` on a terminal: one line per probe, evidence and fixes under failures, a closing summary line
// (text::run; cli/progress shows the same lines as probes finish). Colour only when asked.
#include <string>

#include "core/finding.h"
#include "model/report.h"

namespace gpucheck::render {

/// "pass", "FAIL", ... padded to 5 columns, coloured when `color`.
std::string status_label(Status s, bool color);
/// One line: "pass   device.runtime        0.12s  summary".
std::string result_line(const Finding& r, bool color);
/// Evidence, remedy and per-device lines of one result (indented); empty for a quiet pass.
std::string result_details(const Finding& r, bool verbose);
/// Skipped results, one line per distinct reason ("skip   4 probes skipped: no NVIDIA driver") with their
/// ids under it; a reason only one probe gave, or every skip with `verbose`, keeps its own result line.
std::string skipped_lines(const std::vector<const Finding*>& skipped, bool color, bool verbose);
/// "PASS: 3 pass, 0 warn, 7 skip, 0 fail, 0 error (exit 0)".
std::string summary_line(const model::Summary& s, bool color);

}  // namespace gpucheck::render
