#pragma once
// `gpucheck abi` as a Report, from the audit commands::abi ran: one Finding per target in section
// "targets" (checks/abi/findings.h), the audit's notes, and its cost in details {seconds, objects_parsed}.
#include "checks/abi/request.h"
#include "model/report.h"

namespace gpucheck::report {

/// Fills `into` (metadata stamped by the caller). An unusable object is a problem found
/// (Metadata::error_fails); `strict`: a warning fails too.
model::Report abi_report(const abi::AuditReport& audit, bool strict, model::Report into);

}  // namespace gpucheck::report
