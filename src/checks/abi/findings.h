#pragma once
// What `gpucheck abi` concludes, in the one result model: a Finding per audited target (the report's
// section "targets"), and the whole audit as one Finding for the probe abi.extensions. Finding ids are
// "abi." + the kind of the target's first problem (TargetReport::problem_kinds), "abi.complete" when it
// has none (docs/abi.md, "Findings").
#include <string>

#include "checks/abi/audit.h"
#include "core/finding.h"

namespace gpucheck::abi {

/// One target: status as audited, title = its path, summary = its first problem (or the "complete"
/// line), evidence = every problem line (named by its kind) and the C++ ABI facts, fixes = its symbol
/// groups' remedies (ranked, each once), details = to_json(t).
Finding to_finding(const TargetReport& t);

/// The audit as one Finding (probe abi.extensions, `gpucheck run`): evidence = each failing target's
/// first problem, details = to_json(r).
Finding to_result(const AuditReport& r, const std::string& id, const std::string& title);

/// --python-package NAME installed but not importable (its extensions link torch's libraries and torch is not
/// installed, known from the files): python.import_failed (fail), the cause id doctor gives the same fact.
Finding import_failure_finding(const std::string& package, const std::string& error);

}  // namespace gpucheck::abi
