#pragma once
// `gpucheck abi` as a Report: the audit's verdicts, one Finding per target in section "targets"
// (checks/abi/findings.h), the audit's notes, and its cost in details {seconds, objects_parsed}.
#include "checks/abi/request.h"
#include "report/inventory_source.h"
#include "model/report.h"

namespace gpucheck::report {

struct AbiOptions {
  abi::AbiRequest request;    // targets, preloads, --gpu, ...; its inventory is filled from `inventory`
  InventorySource inventory;  // --from FILE / --root DIR: the GPUs and driver; this machine when neither and no --gpu
  bool strict = false;        // --strict: a warning fails (Metadata::warn_fails)
};

/// Audits into `into` (metadata stamped by the caller, e.g. cli::new_report). An unusable object is a
/// problem found (Metadata::error_fails), except a single target named on the command line, which is
/// bad input. Throws InputError on bad input (as abi::run_abi, and an unreadable --from).
Report abi_report(const AbiOptions& options, Report into = {});

}  // namespace gpucheck::report
