#pragma once
// `gpucheck explain LOG|-`: read the log, pick the environment the fixes may quote, run the explain engine,
// then report::explain_report puts what it concluded into a Report.
#include <string>

#include "commands/inventory_source.h"
#include "model/report.h"

namespace gpucheck::commands {

struct ExplainRequest {
  std::string log;             // a path, or "-" for stdin
  std::string signatures_dir;  // "" = the installed data/signatures
  commands::InventorySource source;  // --from / --root / --python; empty = this machine
  bool no_env = false;         // explain the log alone (ignored when `source` names an inventory)
};

/// Fills `rep` (metadata already stamped) with the causes found in req.log: section "causes" (the causes,
/// each status info, or one "unknown" status fail), details {input: {name, bytes, lines, long_lines,
/// invalid_utf8_bytes, control_bytes, binary}}, notes, and the inventory the fixes used (null without one).
/// Throws InputError for an unreadable log, a directory, bad signatures or a bad inventory.
model::Report explain(const ExplainRequest& req, model::Report rep);

}  // namespace gpucheck::commands
