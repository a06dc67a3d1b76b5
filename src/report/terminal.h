#pragma once
// Human rendering of results for a terminal: one line per probe, evidence and remedy under failures,
// a closing summary line. Colour only when asked (the caller decides from --color and isatty).
#include <string>

#include "core/result.h"
#include "report/report.h"

namespace gpucheck::report {

/// "pass", "FAIL", ... padded to 5 columns, coloured when `color`.
std::string status_label(Status s, bool color);
/// One line: "pass   device.runtime        0.12s  summary".
std::string result_line(const Result& r, bool color);
/// Evidence, remedy and per-device lines of one result (indented); empty for a quiet pass.
std::string result_details(const Result& r, bool verbose);
std::string summary_line(const Summary& s, bool color);
std::string render_terminal(const Report& report, bool color, bool verbose);

}  // namespace gpucheck::report
