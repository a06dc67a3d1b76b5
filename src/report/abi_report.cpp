#include "report/abi_report.h"

#include <future>

#include "checks/abi/findings.h"
#include "checks/abi/loader.h"
#include "core/errors.h"
#include "model/abi_details.h"

namespace gpucheck::report {

Report abi_report(const AbiOptions& options, Report into) {
  abi::AbiRequest req = options.request;
  const InventorySource& src = options.inventory;
  // The same rule as always: an inventory is read when named, else collected only when no --gpu says
  // which GPUs to judge.
  if (!src.from.empty() || !src.root.empty()) {
    inventory::CollectOptions co;
    co.python = false;
    req.inventory = load_inventory(src, co);
    into.inventory = *req.inventory;
  } else if (req.gpus.empty() && req.live_inventory) {
    // This machine's GPUs and driver only, asked in a child: abi loads nothing in-process. The loader's
    // own child (`ld.so --help`, asked once per process) runs meanwhile: the two waits overlap.
    auto devices = std::async(std::launch::async, [] { return inventory::collect_devices(); });
    abi::LoaderConfig::for_this_host(nullptr);
    req.inventory = devices.get();
    into.inventory = *req.inventory;
  }
  abi::AuditReport audit = abi::run_abi(req);

  bool all_errors = !audit.targets.empty();
  for (const auto& t : audit.targets) all_errors = all_errors && !t.error.empty();
  if (all_errors && audit.targets.size() == 1 && !req.paths.empty()) throw InputError(audit.targets.front().error);

  Section& targets = into.section("targets");
  for (const auto& t : audit.targets) targets.findings.push_back(abi::to_finding(t));
  for (const auto& [pkg, error] : audit.import_failures) targets.findings.push_back(abi::import_failure_finding(pkg, error));
  into.notes.insert(into.notes.end(), audit.notes.begin(), audit.notes.end());
  into.details = model::to_json(model::AbiDetails{audit.seconds, audit.objects_parsed});
  into.meta.command = "abi";  // what the renderers dispatch on, also for a Report not stamped by the cli
  into.meta.exit.warn_fails = options.strict;
  into.meta.exit.error_fails = true;
  return into;
}

}  // namespace gpucheck::report
