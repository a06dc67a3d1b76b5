#include "report/abi_report.h"

#include "checks/abi/findings.h"
#include "model/abi_details.h"

namespace gpucheck::report {

model::Report abi_report(const abi::AuditReport& audit, bool strict, model::Report into) {
  model::Section& targets = into.section("targets");
  for (const auto& t : audit.targets) targets.findings.push_back(abi::to_finding(t));
  for (const auto& [pkg, error] : audit.import_failures) targets.findings.push_back(abi::import_failure_finding(pkg, error));
  into.notes.insert(into.notes.end(), audit.notes.begin(), audit.notes.end());
  into.details = model::to_json(model::AbiDetails{audit.seconds, audit.objects_parsed});
  into.meta.command = "abi";  // what the renderers dispatch on, also for a Report not stamped by the cli
  into.meta.exit.warn_fails = strict;
  into.meta.exit.error_fails = true;
  return into;
}

}  // namespace gpucheck::report
